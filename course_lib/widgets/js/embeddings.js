// Lesson 3's embedding explorer: a sentence's vectors as a heatmap, the token embeddings × √d_model
// alone or with the positional encoding added. The table's rows come from Python (the explorer's
// TransformerEmbedding, seeded): the JavaScript copy of TokenEmbedding's scale and of the sum
// with PositionalEncoding, tested equal to course_lib in tests/browser/test_explorers_more.py.

// the rows the heatmap shows, (seq x d) row-major: weight[id] · √d_model ("tokens"), plus PE[pos] ("sum")
export function sentenceVectors(weight, ids, show) {
  const d = weight[0].length;
  const scale = Math.sqrt(d);
  const out = new Float64Array(ids.length * d);
  ids.forEach((id, pos) => {
    const pe = show === "sum" ? positionalRow(pos, d) : null;
    for (let c = 0; c < d; c++) out[pos * d + c] = weight[id][c] * scale + (pe ? pe[c] : 0);
  });
  return out;
}

// one colour scale for every sentence and both views, so they compare by eye: the largest |value|
export function colourScale(weight, ids) {
  let vmax = 0;
  for (const sentence of ids) {
    for (const show of ["tokens", "sum"]) {
      for (const v of sentenceVectors(weight, sentence, show)) vmax = Math.max(vmax, Math.abs(v));
    }
  }
  return vmax > 0 ? vmax : 1;
}

export function rms(values) {
  let sum = 0;
  for (const v of values) sum += v * v;
  return Math.sqrt(sum / values.length);
}

// the first token that comes again (its first two positions), or null
export function repeatedToken(tokens) {
  for (let second = 0; second < tokens.length; second++) {
    const first = tokens.indexOf(tokens[second]);
    if (first < second) return { token: tokens[second], first, second };
  }
  return null;
}

// the largest difference between rows a and b of `values` (rows of d)
export function rowDifference(values, d, a, b) {
  let most = 0;
  for (let c = 0; c < d; c++) most = Math.max(most, Math.abs(values[a * d + c] - values[b * d + c]));
  return most;
}

// the readout's lines, as EmbeddingExplorer.readout() writes them in Python
export function readout({ weight, ids, tokens, sentence, show }, labels, numbers) {
  const d = weight[0].length;
  const values = sentenceVectors(weight, ids[sentence], show);
  const words = tokens[sentence];
  const lines = [fill(labels.readout, { seq: words.length, d_model: d, rms: formatNumber(rms(values), ".2f", numbers) })];
  const repeat = repeatedToken(words);
  if (repeat === null) lines.push(labels.no_repeat);
  else {
    const diff = formatNumber(rowDifference(values, d, repeat.first, repeat.second), ".2f", numbers);
    lines.push(fill(labels.repeat, { token: repeat.token, first: repeat.first, second: repeat.second, diff }));
  }
  return lines;
}

const WIDTH = 512;
const ROW = 20;
const TOP = 30;
const BOTTOM = 44;
const RIGHT = 92;

// the sentence is one of the sentences (BOUNDS, from Python, bound the other settings)
const RULES = {
  sentence: (get) => {
    const lists = ["sentences", "ids", "tokens"].map((name) => get(name));
    return { low: 0, high: Math.min(...lists.map((list) => (Array.isArray(list) ? list.length : 0))) - 1 };
  },
};

async function render({ model: saved, el }) {
  // the saved values within their bounds, and a notice naming any replaced (js/common.js)
  const model = guard(saved, el, BOUNDS, RULES);
  const numbers = model.get("numbers");
  const labels = { ...model.get("labels"), numbers };
  const { controls, canvas, readout: line } = frame(el, model.get("lang"), "embedding-explorer");
  let font = await courseFont(el); // read again once the explorer is in the page (pageColours)
  const sentences = model.get("sentences");
  const controlsByName = {
    sentence: dropdown(controls, {
      name: "sentence",
      label: labels.sentence,
      options: sentences.map((s, j) => [j, s]),
      value: model.get("sentence"),
    }),
    show: radios(controls, {
      name: "show",
      label: labels.show,
      options: [
        ["tokens", labels.show_tokens],
        ["sum", labels.show_sum],
      ],
      value: model.get("show"),
    }),
  };
  const lut = parseColormap(model.get("colormap"));
  const colours = pageColours(el, async () => {
    font = await courseFont(el);
    draw();
  });
  let scaleOf = null; // the colour scale, for the weights it was computed from
  const draw = () => {
    const weight = model.get("weight");
    const ids = model.get("ids");
    const tokens = model.get("tokens");
    const sentence = model.get("sentence");
    const show = model.get("show");
    if (!scaleOf || scaleOf.weight !== weight) scaleOf = { weight, vmax: colourScale(weight, ids) };
    const d = weight[0].length;
    const words = tokens[sentence];
    const longest = Math.max(4, ...tokens.map((t) => t.length));
    // one height for every sentence: the page does not jump
    const height = TOP + BOTTOM + ROW * longest;
    const ctx = sizeCanvas(canvas, WIDTH, height);
    ctx.font = `11px ${font}`;
    const left = 26 + Math.max(...words.map((t) => ctx.measureText(t).width)) + 8;
    const title = labels[show === "sum" ? "title_sum" : "title_tokens"];
    const vmax = scaleOf.vmax;
    drawHeatmap(
      ctx,
      { x: left, y: TOP, w: WIDTH - left - RIGHT, h: ROW * words.length },
      {
        values: sentenceVectors(weight, ids[sentence], show),
        rows: words.length,
        cols: d,
        lut,
        vmin: -vmax,
        vmax,
        rowLabels: words,
        colTicks: ticks(d - 1).map((c) => [c, String(c)]),
        xlabel: labels.xlabel,
        ylabel: labels.ylabel,
        title,
        titleWidth: WIDTH - 8,
        colorbar: {
          label: labels.colorbar,
          ticks: symmetricTicks(vmax),
          format: (v) => formatNumber(v, Number.isInteger(v) ? ".0f" : ".1f", numbers),
        },
      },
      font,
      colours(),
    );
    const lines = readout({ weight, ids, tokens, sentence, show }, labels, numbers);
    line.replaceChildren(lines[0], document.createElement("br"), lines[1]);
    canvas.setAttribute("aria-label", `${title}: ${sentences[sentence]}`);
  };
  return live(model, draw, controlsByName);
}

export default { render };
