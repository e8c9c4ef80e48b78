// Lesson 2's token explorer: the typed text's tokens coloured, for the vocabulary size on the slider.
// The tokenizer itself is js/bpe.js (course_lib/widgets/live.py puts it in front of this module).

// the line over the tokens, as TokenExplorer.readout() writes it
export function readout(text, nTokens, labels, numbers) {
  const nWords = countWords(text);
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
