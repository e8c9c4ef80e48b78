// Lesson 4's balance explorer: two sentences' attention weights under the slider for c in
// c · token vectors + PE, and what attention looks at. The reader's attention is a Python function,
// so Python runs it at each of the slider's stops and sends the weights; here, the rest: the
// JavaScript copy of course_lib.plots.attention_balance's RMS and effects, tested equal to it in
// tests/browser/test_explorers_more.py.

// the share of attention weight that moves from rows a to rows b (n x n each), averaged over rows:
// half the L1 distance of two rows, from 0 to 1
export function moved(a, b) {
  let total = 0;
  a.forEach((row, i) => row.forEach((v, j) => (total += Math.abs(v - b[i][j]))));
  return (0.5 * total) / a.length;
}

// w with its rows and columns taken in the order perm: w[perm][:, perm]
export function permuted(w, perm) {
  return perm.map((i) => perm.map((j) => w[i][j]));
}

function rmsOf(rows) {
  let sum = 0;
  let count = 0;
  for (const row of rows) for (const v of row) (sum += v * v), count++;
  return Math.sqrt(sum / count);
}

// the balance at stop k: the RMS of c · both sentences' token vectors, of PE (seq x d), the effects
export function balance({ stops, weights, vectors, perm }, k) {
  const scale = stops[k];
  const [wa, wb] = weights[k];
  const seq = vectors[0].length;
  const d = vectors[0][0].length;
  return {
    scale,
    tokenRms: scale * rmsOf([...vectors[0], ...vectors[1]]),
    positionRms: Math.sqrt(positionalRows([...Array(seq).keys()], d).reduce((s, v) => s + v * v, 0) / (seq * d)),
    positionEffect: moved(wb, permuted(wa, perm)),
    wordEffect: moved(wb, wa),
  };
}

// the stop shown for `scale`: itself, or the nearest on a log scale
export function stopOf(stops, scale) {
  let best = 0;
  stops.forEach((s, k) => {
    if (Math.abs(Math.log(s / scale)) < Math.abs(Math.log(stops[best] / scale))) best = k;
  });
  return best;
}

// the readout's two lines, as BalanceExplorer.readout() writes them in Python
export function readout(data, k, labels, numbers) {
  const b = balance(data, k);
  const number = (x) => formatNumber(x, ".2f", numbers);
  return [
    fill(labels.rms, {
      scale: number(b.scale),
      tokens: number(b.tokenRms),
      positions: number(b.positionRms),
      ratio: number(b.tokenRms / b.positionRms),
    }),
    fill(labels.effects, { positions: number(b.positionEffect), words: number(b.wordEffect) }),
  ];
}

const WIDTH = 600;
const HEIGHT = 290;

const RULES = {};

async function render({ model: saved, el }) {
  // the saved values within their bounds, and a notice naming any replaced (js/common.js)
  const model = guard(saved, el, BOUNDS, RULES);
  const numbers = model.get("numbers");
  const labels = { ...model.get("labels"), numbers };
  const { controls, canvas, readout: line } = frame(el, model.get("lang"), "balance-explorer");
  let font = await courseFont(el); // read again once the explorer is in the page (pageColours)
  const stops = () => model.get("stops");
  const sliders = {
    // the stops: on a log scale, 0.01 to 100 in steps of 10^0.1, and any scale Python set
    scale: slider(controls, {
      name: "scale",
      label: labels.scale,
      min: 0,
      max: stops().length - 1,
      value: model.get("scale"),
      format: (c) => formatNumber(c, ".2f", numbers),
      toValue: (k) => stops()[k],
      fromValue: (c) => stopOf(stops(), c),
    }),
  };
  const lut = parseColormap(model.get("colormap"));
  const colours = pageColours(el, async () => {
    font = await courseFont(el);
    draw();
  });
  const draw = () => {
    const data = { stops: stops(), weights: model.get("weights"), vectors: model.get("vectors"), perm: model.get("perm") };
    sliders.scale.input.max = String(data.stops.length - 1);
    const k = stopOf(data.stops, model.get("scale"));
    const tokens = model.get("tokens");
    const ctx = sizeCanvas(canvas, WIDTH, HEIGHT);
    const title = fill(labels.title, { scale: formatNumber(data.stops[k], ".2f", numbers) });
    ctx.fillStyle = colours().text;
    ctx.font = `13px ${font}`;
    ctx.textAlign = "center";
    ctx.textBaseline = "top";
    ctx.fillText(title, WIDTH / 2, 4, WIDTH - 8);
    const size = 170;
    data.weights[k].forEach((w, j) => {
      const seq = w.length;
      drawHeatmap(
        ctx,
        { x: 70 + j * (size + 84), y: 50, w: size, h: size },
        {
          values: w.flat(),
          rows: seq,
          cols: seq,
          lut,
          vmin: 0,
          vmax: 1,
          rowLabels: tokens[j],
          colTicks: tokens[j].map((t, c) => [c, t]),
          xlabel: labels.xlabel,
          ylabel: j === 0 ? labels.ylabel : "",
          ylabelX: 11,
          title: tokens[j].join(" "),
          colorbar: j === 1 ? { label: labels.colorbar, ticks: [0, 0.2, 0.4, 0.6, 0.8, 1], format: (v) => formatNumber(v, ".1f", numbers) } : null,
          cellText: seq <= 8 ? (v) => formatNumber(v, ".2f", numbers) : null,
        },
        font,
        colours(),
      );
    });
    const lines = readout(data, k, labels, numbers);
    line.replaceChildren(lines[0], document.createElement("br"), lines[1]);
    canvas.setAttribute("aria-label", `${title}. ${lines[1]}`);
  };
  return live(model, draw, sliders);
}

export default { render };
