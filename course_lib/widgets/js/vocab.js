// Lesson 1's vocabulary explorer: the typed text's tokens, their IDs under the vocabulary cut at
// min_freq and what the IDs decode to, and, for every min_freq, the vocabulary's size and the share
// of the held-out text it loses. The JavaScript copy of course_lib.normalize, course_lib.tokenize,
// Vocab.with_min_freq's cut and VocabExplorer.readout, tested equal to them in
// tests/browser/test_explorers_data.py; the vocabulary and the counts come from Python (data).

// course_lib.normalize: Unicode NFC, without format characters (category Cf: zero-width spaces and
// joiners, the soft hyphen, the byte-order mark, the bidirectional controls), "İ" as "I", NFC again
const INVISIBLE = /\p{Cf}/gu;

export function normalize(text) {
  return text.normalize("NFC").replace(INVISIBLE, "").replace(/\u0130/g, "I").normalize("NFC");
}

// Python's \w on str is a letter, a number or "_"; its \s also takes the separators \x1c-\x1f and \x85
const WORD = String.raw`\p{L}\p{N}_`;
const SPACE = String.raw`\s\x1c-\x1f\x85`;
const TOKEN = new RegExp(`[${WORD}]+|[^${WORD}${SPACE}]`, "gu");

// course_lib.tokenize: lower-case words and punctuation marks, after normalize
export function tokenize(text) {
  return normalize(text).toLowerCase().match(TOKEN) || [];
}

// the vocabulary of data, cut at min_freq as Vocab.with_min_freq cuts it: the words come most
// frequent first, so the cut keeps a prefix of itos. Each cut's size and held-out loss are computed
// once: they depend on min_freq alone, and every move draws them for all ten
export function vocabulary(data) {
  const stoi = new Map(data.itos.map((t, i) => [t, i]));
  const specials = data.counts ? data.itos.length - data.counts.length : 0;
  const once = (compute) => {
    const known = new Map();
    return (minFreq) => {
      if (!known.has(minFreq)) known.set(minFreq, compute(minFreq));
      return known.get(minFreq);
    };
  };
  const size = once((minFreq) => (data.counts ? specials + data.counts.filter((c) => c >= minFreq).length : data.itos.length));
  const encode = (tokens, minFreq) => {
    const n = size(minFreq);
    return tokens.map((t) => {
      const id = stoi.get(t);
      return id !== undefined && id < n ? id : data.unk_id;
    });
  };
  // held-out tokens the vocabulary loses: [unknown, n]
  const heldout = once((minFreq) => {
    let unknown = 0;
    let n = 0;
    const known = size(minFreq);
    for (const [word, count] of Object.entries(data.heldout || {})) {
      const id = stoi.get(word);
      if (id === undefined || id >= known) unknown += count;
      n += count;
    }
    return [unknown, n];
  });
  return { size, encode, heldout };
}

// the lines above the table, as VocabExplorer.readout() writes them
export function readout({ text, min_freq: minFreq }, data, labels, numbers, vocab = vocabulary(data)) {
  const lines = [];
  if (data.heldout) {
    const [unknown, n] = vocab.heldout(minFreq);
    lines.push(
      fill(labels.readout, {
        size: vocab.size(minFreq),
        min_freq: minFreq,
        unknown,
        n,
        share: formatNumber((100 * unknown) / n, ".1f", numbers),
      }),
    );
  }
  const ids = vocab.encode(tokenize(text), minFreq);
  const unknown = ids.filter((i) => i === data.unk_id).length;
  lines.push(fill(labels.summary, { n: ids.length, unknown, size: vocab.size(minFreq) }));
  return lines;
}

// a word the model will never see, marked as course_lib.plots.vocab.WordTable marks its row
const UNKNOWN = "#fde0dc";

// WordTable's rows turned into columns that wrap, so that a long sentence stays on one slide:
// a first column naming the three lines (token, ID, decodes to), then one column per token
function table(view, tokens, ids, data, labels) {
  const column = (cells, lost, head) => {
    const box = document.createElement("div");
    box.className = "course-explorer-token";
    if (lost) box.style.cssText = `background: ${UNKNOWN}; color: #000`;
    cells.forEach((c, k) => {
      const cell = document.createElement(head ? "span" : ["code", "span", lost ? "b" : "span"][k]);
      cell.textContent = c;
      if (head) cell.style.fontStyle = "italic";
      box.append(cell);
    });
    return box;
  };
  view.replaceChildren(
    column([labels.token, labels.id, labels.decoded], false, true),
    ...tokens.map((token, k) => column([token, String(ids[k]), data.itos[ids[k]]], ids[k] === data.unk_id, false)),
  );
}

const WIDTH = 512;
const HEIGHT = 200;
const MARGIN = { left: 52, right: 52, top: 26, bottom: 36 };
// matplotlib's tab:blue (the size) and tab:red (what is lost)
const BLUE = "#1f77b4";
const RED = "#d62728";
// the colours a reader must tell apart (tests/browser/test_explorer_colours.py)
export const CATEGORIES = { "the sizes' bars, the lost share's line": [BLUE, RED] };

function drawSizes(ctx, minFreq, data, vocab, labels, font, colours, last) {
  const numbers = labels.numbers;
  const w = WIDTH - MARGIN.left - MARGIN.right;
  const h = HEIGHT - MARGIN.top - MARGIN.bottom;
  const values = Array.from({ length: last }, (_, k) => k + 1);
  const sizes = values.map((m) => vocab.size(m));
  const top = Math.max(...sizes);
  const x = (m) => MARGIN.left + ((m - 0.5) / last) * w;
  const barWidth = (0.6 * w) / last;
  values.forEach((m, k) => {
    ctx.fillStyle = BLUE;
    ctx.globalAlpha = m === minFreq ? 1 : 0.35;
    const bh = (sizes[k] / top) * h;
    ctx.fillRect(x(m) - barWidth / 2, MARGIN.top + h - bh, barWidth, bh);
  });
  ctx.globalAlpha = 1;
  const box = { x: MARGIN.left, y: MARGIN.top, w, h };
  outline(ctx, box, colours);
  // every min_freq below, the one chosen in bold; the sizes on the left
  ticksAlong(ctx, box, "bottom", values.map((m) => [x(m), String(m), m === minFreq]), font, 0);
  const sizeTicks = ticks(top, 4).map((t) => [MARGIN.top + h - (t / top) * h, formatNumber(t, ",.0f", numbers)]);
  ticksAlong(ctx, box, "left", sizeTicks, font, 0);
  ctx.font = `12px ${font}`;
  ctx.textAlign = "center";
  ctx.textBaseline = "bottom";
  ctx.fillText("min_freq", MARGIN.left + w / 2, HEIGHT - 2);
  axisTitle(ctx, labels.size, 11, MARGIN.top + h / 2, -Math.PI / 2, (x) => {
    ctx.fillStyle = BLUE;
    ctx.fillRect(x - 4, -4, 8, 8);
  });
  ctx.font = `13px ${font}`;
  ctx.textBaseline = "top";
  ctx.fillStyle = colours.text;
  ctx.fillText(labels.title, WIDTH / 2, 4, WIDTH - 8);
  if (!data.heldout) return;
  // the share of the held-out text lost, 0 .. 100 % on the right axis
  const y = (p) => MARGIN.top + h - (p / 100) * h;
  const shares = values.map((m) => {
    const [unknown, n] = vocab.heldout(m);
    return (100 * unknown) / n;
  });
  ctx.save();
  ctx.strokeStyle = RED;
  ctx.fillStyle = RED;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  values.forEach((m, k) => (k ? ctx.lineTo(x(m), y(shares[k])) : ctx.moveTo(x(m), y(shares[k]))));
  ctx.stroke();
  values.forEach((m, k) => {
    ctx.beginPath();
    ctx.arc(x(m), y(shares[k]), m === minFreq ? 5 : 2.5, 0, 2 * Math.PI);
    ctx.fill();
  });
  ctx.restore();
  ticksAlong(ctx, box, "right", [0, 25, 50, 75, 100].map((t) => [y(t), String(t)]), font, 0);
  ctx.font = `12px ${font}`;
  axisTitle(ctx, labels.share, WIDTH - 8, MARGIN.top + h / 2, Math.PI / 2, (x) => {
    ctx.strokeStyle = RED;
    ctx.fillStyle = RED;
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.moveTo(x - 8, 0);
    ctx.lineTo(x + 8, 0);
    ctx.stroke();
    ctx.beginPath();
    ctx.arc(x, 0, 2.5, 0, 2 * Math.PI);
    ctx.fill();
  });
}

const RULES = {};

async function render({ model: saved, el }) {
  // the saved values within their bounds, and a notice naming any replaced (js/common.js)
  const model = guard(saved, el, BOUNDS, RULES);
  const numbers = model.get("numbers");
  const labels = { ...model.get("labels"), numbers };
  const data = model.get("data");
  const vocab = vocabulary(data);
  const { controls, canvas, readout: line } = frame(el, model.get("lang"), "vocab-explorer");
  const view = document.createElement("div");
  view.className = "course-explorer-view";
  const style = document.createElement("style");
  style.textContent = `
.vocab-explorer .course-explorer-view { display: flex; flex-wrap: wrap; gap: 0.3em; margin: 0.3em 0 0.6em; }
.vocab-explorer .course-explorer-token { display: flex; flex-direction: column; padding: 0.1em 0.5em; line-height: 1.3;
  border: 1px solid rgba(128, 128, 128, 0.4); border-radius: 3px; }
.vocab-explorer .course-explorer-token code { color: inherit; } /* not the site's pink for code: a lost word's box is pink */`;
  line.after(view);
  el.append(style);
  let font = await courseFont(el); // read again once the explorer is in the page (pageColours)
  const last = model.get("limits").min_freq;
  const inputs = { text: textBox(controls, { name: "text", label: labels.text, value: model.get("text"), longest: BOUNDS.text.longest }) };
  if (data.counts) {
    inputs.min_freq = slider(controls, { name: "min_freq", label: labels.min_freq, min: 1, max: last, value: model.get("min_freq") });
  } else {
    canvas.hidden = true; // nothing to cut: no sizes to draw
  }
  const colours = pageColours(el, async () => {
    font = await courseFont(el);
    draw();
  });
  let drawn = {}; // what the chart shows: typing changes the table, not the chart
  const draw = () => {
    const values = { text: model.get("text"), min_freq: model.get("min_freq") };
    const tokens = tokenize(values.text);
    table(view, tokens, vocab.encode(tokens, values.min_freq), data, labels);
    const lines = readout(values, data, labels, numbers, vocab);
    line.replaceChildren(...lines.flatMap((l, k) => (k ? [document.createElement("br"), l] : [l])));
    if (!data.counts || (drawn.minFreq === values.min_freq && drawn.colours === colours())) return;
    drawn = { minFreq: values.min_freq, colours: colours() };
    drawSizes(sizeCanvas(canvas, WIDTH, HEIGHT), values.min_freq, data, vocab, labels, font, drawn.colours, last);
    canvas.setAttribute("aria-label", lines[0]);
  };
  return live(model, draw, inputs);
}

export default { render };
