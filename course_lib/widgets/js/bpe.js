// The course's BPE in the browser, a live tokenizer shared by lesson 2's explorers (tokens.js,
// comparator.js): the typed text cut by GPT-2's pattern, each piece turned into its UTF-8 bytes and
// merged by the trained merges, lowest rank first. The JavaScript copy of course_lib.bpe's
// pre_tokenize, merge_word and BPETokenizer.truncate, tested to give BPETokenizer's ids in
// tests/browser/test_explorers_data.py; the merges come from Python (data).

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

// a pair of ids as one number, a key of ranks(): exact for ids below 2^26 (67 million; ranks() only ever gets
// the course's own merges, a few thousand ids), and looked up faster than a string made for each pair
const pair = (first, second) => first * 2 ** 26 + second;

// the merges of the tokenizer truncated to `size` (BPETokenizer.truncate): those up to the one that
// made token size - 1, as a map from the pair (first, second) to [rank, new id]
export function ranks(data, size) {
  const minimum = Math.max(...Object.keys(data.specials).map(Number), ...data.byte_ids) + 1;
  let last = -1;
  if (size > minimum) last = data.merges.findIndex(([, , made]) => made === size - 1);
  const out = new Map();
  data.merges.slice(0, last + 1).forEach(([a, b, made], rank) => out.set(pair(a, b), [rank, made]));
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
      const r = pairRanks.get(pair(tokens[i], tokens[i + 1]));
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

// the pieces an encoder remembers: a page's texts (the box holds 1 000 characters) never fill it
const PIECES = 1 << 16;

// BPETokenizer.encode, for the tokenizer truncated to `size`; each piece is merged once and remembered
// (the oldest piece forgotten past PIECES), for every text the encoder is given
export function encoder(data, size) {
  const regex = pattern(data);
  const pairRanks = ranks(data, size);
  const cache = new Map();
  return (text) => {
    const ids = [];
    for (const piece of preTokenize(text, regex)) {
      let merged = cache.get(piece);
      if (merged === undefined) {
        merged = mergeWord([...UTF8.encode(piece)].map((b) => data.byte_ids[b]), pairRanks);
        if (cache.size >= PIECES) cache.delete(cache.keys().next().value);
        cache.set(piece, merged);
      }
      for (const id of merged) ids.push(id);
    }
    return ids;
  };
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

// len(text.split()): the words a readout counts
export function countWords(text) {
  return text.split(PY_SPACE).filter(Boolean).length;
}
