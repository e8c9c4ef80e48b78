// Lesson 2's token explorer, a live tokenizer: the typed text cut by GPT-2's pattern, each piece
// turned into its UTF-8 bytes and merged by the trained merges, lowest rank first, for the
// vocabulary size on the slider. The JavaScript copy of course_lib.bpe's pre_tokenize, merge_word and
// BPETokenizer.truncate, tested to give BPETokenizer's ids in tests/browser/test_explorers_data.py;
// the merges come from Python (data).

// GPT-2's pre-tokenization pattern, as published (course_lib.bpe.pretokenize.GPT2_PATTERN)
const GPT2_PATTERN = String.raw`'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`;

// the pattern with \p{L} and \p{N} as Unicode 16.0 has them, as course_lib.bpe.pretokenize.PATTERN
// (the v flag's set difference, --, as the regex module's V1)
export function pattern(data) {
  const source = GPT2_PATTERN.replaceAll(String.raw`\p{L}`, String.raw`[\p{L}--[${data.newer_letters}]]`).replaceAll(
    String.raw`\p{N}`,
    String.raw`[\p{N}--[${data.newer_digits}]]`,
  );
  return new RegExp(source, "gv");
}

export function preTokenize(text, regex) {
  return text.match(regex) || [];
}

// the merges of the tokenizer truncated to `size` (BPETokenizer.truncate): those up to the one that
// made token size - 1, as a map from the pair "first,second" to [rank, new id]
export function ranks(data, size) {
  const minimum = Math.max(...Object.keys(data.specials).map(Number), ...data.byte_ids) + 1;
  let last = -1;
  if (size > minimum) last = data.merges.findIndex(([, , made]) => made === size - 1);
  const out = new Map();
  data.merges.slice(0, last + 1).forEach(([a, b, made], rank) => out.set(`${a},${b}`, [rank, made]));
  return out;
}

// course_lib.bpe.tokenizer.merge_word: the adjacent pair of lowest rank merged, leftmost first,
// again and again, until no pair has a merge (the plain loop: a typed word is short)
export function mergeWord(ids, pairRanks) {
  let tokens = ids.slice();
  for (;;) {
    let best = null;
    let at = -1;
    for (let i = 0; i + 1 < tokens.length; i++) {
      const r = pairRanks.get(`${tokens[i]},${tokens[i + 1]}`);
      if (r && (!best || r[0] < best[0])) [best, at] = [r, i];
    }
    if (!best) return tokens;
    const [first, second] = [tokens[at], tokens[at + 1]];
    const merged = [];
    for (let i = 0; i < tokens.length; i++) {
      if (i + 1 < tokens.length && tokens[i] === first && tokens[i + 1] === second) {
        merged.push(best[1]);
        i++;
      } else merged.push(tokens[i]);
    }
    tokens = merged;
  }
}

const UTF8 = new TextEncoder();

// BPETokenizer.encode, for the tokenizer truncated to `size`
export function encoder(data, size) {
  const regex = pattern(data);
  const pairRanks = ranks(data, size);
  const cache = new Map();
  return (text) =>
    preTokenize(text, regex).flatMap((piece) => {
      if (!cache.has(piece)) cache.set(piece, mergeWord([...UTF8.encode(piece)].map((b) => data.byte_ids[b]), pairRanks));
      return cache.get(piece);
    });
}

// every token's bytes, by id: a byte's own, a merge's its parts' joined, a special token's its name
export function tokenBytes(data) {
  const out = [];
  for (const [id, name] of Object.entries(data.specials)) out[Number(id)] = [...UTF8.encode(name)];
  data.byte_ids.forEach((id, b) => (out[id] = [b]));
  for (const [a, b, made] of data.merges) out[made] = [...out[a], ...out[b]];
  return out;
}

const STRICT = new TextDecoder("utf-8", { fatal: true });

// a token's bytes as text when they are whole UTF-8 characters, else null
export function whole(bytes) {
  try {
    return STRICT.decode(new Uint8Array(bytes));
  } catch {
    return null;
  }
}

// course_lib.bpe.pretokenize.readable: UTF-8 where the bytes are whole characters, \xNN where not,
// a backslash doubled
export function readable(bytes) {
  const parts = [[]];
  for (const b of bytes) {
    if (b === 0x5c) parts.push([]);
    else parts.at(-1).push(b);
  }
  return parts.map(backslashReplace).join("\\\\");
}

// Python's bytes.decode("utf-8", "backslashreplace"): each byte that starts no whole character as \xNN
function backslashReplace(bytes) {
  let out = "";
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    const length = b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
    const text = length ? whole(bytes.slice(i, i + length)) : null;
    if (text !== null && i + length <= bytes.length) {
      out += text;
      i += length;
    } else {
      out += `\\x${b.toString(16).padStart(2, "0")}`;
      i += 1;
    }
  }
  return out;
}

// BPETokenizer.id_to_token: a special token's name, any other's bytes by readable
export function idToToken(data, bytes, id) {
  return String(id) in data.specials ? data.specials[id] : readable(bytes[id]);
}

// what str.split() and str.isspace() take for white space (JavaScript's \s also takes U+FEFF and
// not the separators \x1c-\x1f and \x85)
const PY_SPACE = /[\t\n\v\f\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/u;

// the line over the tokens, as TokenExplorer.readout() writes it
export function readout(text, nTokens, labels, numbers) {
  const nWords = text.split(PY_SPACE).filter(Boolean).length;
  return fill(labels.readout, {
    n_tokens: nTokens,
    n_words: nWords,
    per_word: nWords ? formatNumber(nTokens / nWords, ".2f", numbers) : "–",
    n_chars: [...text].length,
    n_bytes: UTF8.encode(text).length, // a lone surrogate: U+FFFD, 3 bytes, as Python's surrogatepass
  });
}

// what a token of white space shows in place of the characters that show nothing
const VISIBLE = { "\n": "↵", "\r": "␍", "\t": "⇥" };

// course_lib.plots.tokens.token_spans: one coloured box per token, its id in its tooltip, a dashed
// border where the token is part of a character; returns whether one was
function spans(view, ids, bytes, data) {
  let cut = false;
  const boxes = [];
  ids.forEach((id, n) => {
    const text = whole(bytes[id]);
    cut ||= text === null;
    const span = document.createElement("span");
    span.className = "course-explorer-token";
    span.title = String(id);
    span.style.backgroundColor = data.palette[n % data.palette.length];
    if (text === null) span.style.border = "1px dashed #666";
    span.textContent = (text ?? readable(bytes[id])).replace(/[\n\r\t]/g, (c) => VISIBLE[c]);
    boxes.push(span);
    for (let k = 0; k < bytes[id].filter((b) => b === 10).length; k++) boxes.push(document.createElement("br"));
  });
  view.replaceChildren(...boxes);
  return cut;
}


// the size is one of the slider's stops
const RULES = { size: (get) => ({ allowed: Array.isArray(get("sizes")) ? get("sizes") : [] }) };

async function render({ model: saved, el }) {
  // the saved values within their bounds, and a notice naming any replaced (js/common.js)
  const model = guard(saved, el, BOUNDS, RULES);
  const numbers = model.get("numbers");
  const labels = { ...model.get("labels"), numbers };
  const data = model.get("data");
  const sizes = model.get("sizes");
  const bytes = tokenBytes(data);
  const encoders = new Map(); // size -> encode, made on the first visit
  const { controls, canvas, readout: line } = frame(el, model.get("lang"), "token-explorer");
  canvas.hidden = true; // the tokens are text, in the page's font: no picture, in any host (common.js keeps [hidden])
  const view = document.createElement("div");
  view.className = "course-explorer-view";
  const note = document.createElement("p");
  note.className = "course-explorer-note";
  const style = document.createElement("style");
  style.textContent = `
.token-explorer .course-explorer-view { white-space: pre-wrap; line-height: 1.8; margin: 0.3em 0; }
.token-explorer .course-explorer-token { display: inline-block; margin-right: 1px; border: 1px solid transparent; color: #000; }
.token-explorer .course-explorer-note { font-size: 0.85em; margin: 0.2em 0; }`;
  line.after(view, note);
  el.append(style);
  await courseFont(el);
  const inputs = {
    text: textBox(controls, { name: "text", label: labels.text, value: model.get("text"), longest: BOUNDS.text.longest }),
    // the slider moves over the stops, and its value is the size at that stop
    size: slider(controls, {
      name: "size",
      label: labels.size,
      min: 0,
      max: sizes.length - 1,
      value: model.get("size"),
      toValue: (k) => sizes[k],
      fromValue: (s) => sizes.indexOf(s),
    }),
  };
  const draw = () => {
    const size = model.get("size");
    if (!encoders.has(size)) encoders.set(size, encoder(data, size));
    const text = model.get("text");
    const ids = encoders.get(size)(text);
    const cut = spans(view, ids, bytes, data);
    line.textContent = readout(text, ids.length, labels, numbers);
    note.textContent = cut ? labels.cut : "";
  };
  return live(model, draw, inputs);
}

export default { render };
