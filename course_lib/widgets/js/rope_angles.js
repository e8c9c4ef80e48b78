// Lesson 8's RoPE angles explorer: cos of RoPE's angle at every position (down) and pair (across),
// under sliders for base and the interpolation factor κ, with the pairs that meet angles training
// never showed them marked. The JavaScript copy of course_lib.plots.long_context's angle_table and
// new_angle_pairs, tested equal to them in tests/browser/test_explorers_lesson8.py.

const TRAIN_BASE = 10000; // the base of training, as new_angle_pairs' default

// cos((m / κ) · base^(-2i/headDim)) for m = 0 .. n-1 and the headDim/2 pairs: n x headDim/2, row after row
export function angleTable(headDim, n, base, scale) {
  const pairs = headDim / 2;
  const theta = inverseFrequencies(headDim, base);
  const out = new Float64Array(n * pairs);
  for (let p = 0; p < n; p++) {
    const position = p / scale;
    for (let i = 0; i < pairs; i++) out[p * pairs + i] = Math.cos(position * theta[i]);
  }
  return out;
}

// Which pairs reach angles that training (positions 0 .. trainLen-1, base 10 000) never showed them:
// a pair that went all the way round (2π) in training knows every angle; any other meets new ones
// when (n - 1)/κ · θ'_i >= trainLen · θ_i
export function newAnglePairs(headDim, n, trainLen, base, scale, trainBase = TRAIN_BASE) {
  const out = [];
  for (let i = 0; i < headDim / 2; i++) {
    const trained = trainLen * inverseFrequency(i, headDim, trainBase);
    const reached = ((n - 1) / scale) * inverseFrequency(i, headDim, base);
    out.push(trained < 2 * Math.PI && reached >= trained);
  }
  return out;
}

// how far the slowest pair turns over positions 0 .. last, divided by κ, with base
function slowestTurn(last, headDim, base, scale) {
  return (last / scale) * inverseFrequency(headDim / 2 - 1, headDim, base);
}

function count(flags) {
  return flags.filter(Boolean).length;
}

// the readout, as RopeAnglesExplorer.readout() writes it in Python
export function readout({ head_dim: d, num_positions: n, train_len: trainLen, base, scale }, labels, numbers) {
  return fill(labels.readout, {
    last_train: trainLen - 1,
    last: n - 1,
    scale: formatNumber(scale, ".6g", numbers),
    base: formatNumber(base, ",.0f", numbers),
    new: count(newAnglePairs(d, n, trainLen, base, scale)),
    pairs: d / 2,
    slow_now: formatNumber(slowestTurn(n - 1, d, base, scale), ".2g", numbers),
    slow_train: formatNumber(slowestTurn(trainLen - 1, d, TRAIN_BASE, 1), ".2g", numbers),
  });
}

// the figure's title, as course_lib.plots.long_context.update_rope_angles writes it (two lines)
export function title({ head_dim: d, num_positions: n, train_len: trainLen, base, scale }, labels, numbers) {
  return fill(labels.title, {
    base: formatNumber(base, ",.0f", numbers),
    scale: formatNumber(scale, ".6g", numbers),
    new: count(newAnglePairs(d, n, trainLen, base, scale)),
    pairs: d / 2,
  });
}

const WIDTH = 520;
const HEIGHT = 360;
// the plot area: the axes' labels on the left and below, the title above, the colour bar on the right
const BOX = { x: 56, y: 58, w: WIDTH - 56 - 92, h: HEIGHT - 58 - 40 };
const STRIP = 12; // above the first row: the marks of the pairs that meet new angles

// The table's rows averaged down to at most `rows`: each row of the image the mean of the positions it
// covers (matplotlib's antialiased image, more simply: a position a pixel of the fast pairs would
// alias into stripes that are not there)
function rowMeans(table, n, pairs, rows) {
  rows = Math.min(rows, n);
  const out = new Float64Array(rows * pairs);
  for (let r = 0; r < rows; r++) {
    const from = Math.floor((r * n) / rows);
    const to = Math.max(from + 1, Math.floor(((r + 1) * n) / rows));
    for (let i = 0; i < pairs; i++) {
      let sum = 0;
      for (let p = from; p < to; p++) sum += table[p * pairs + i];
      out[r * pairs + i] = sum / (to - from);
    }
  }
  return out;
}

function drawAngles(ctx, values, paint, labels, lut, font, colours) {
  const { head_dim: d, num_positions: n, train_len: trainLen, base, scale } = values;
  const numbers = labels.numbers;
  const pairs = d / 2;
  const { x, y, w, h } = BOX;
  const rows = Math.min(h, n);
  drawCells(ctx, paint(rowMeans(angleTable(d, n, base, scale), n, pairs, h), rows, pairs, lut, -1, 1), BOX);
  outline(ctx, { x, y: y - STRIP, w, h: h + STRIP }, colours);
  ticksAlong(ctx, BOX, "bottom", ticks(pairs - 1).map((t) => [x + ((t + 0.5) / pairs) * w, String(t)]), font);
  ticksAlong(ctx, BOX, "left", ticks(n - 1).map((t) => [y + ((t + 0.5) / n) * h, String(t)]), font);

  // the pairs that meet angles not seen in training: a triangle above each
  const marks = newAnglePairs(d, n, trainLen, base, scale);
  marks.forEach((marked, i) => {
    if (!marked) return;
    const at = x + ((i + 0.5) / pairs) * w;
    ctx.beginPath();
    ctx.moveTo(at - 4, y - STRIP + 3);
    ctx.lineTo(at + 4, y - STRIP + 3);
    ctx.lineTo(at, y - 2);
    ctx.closePath();
    ctx.fill();
  });

  // the training length: a dashed line between its last position and the next, and its label
  if (trainLen < n) {
    const at = y + (trainLen / n) * h;
    ctx.save();
    ctx.strokeStyle = "#000000";
    ctx.lineWidth = 1.2;
    ctx.setLineDash([5, 3]);
    ctx.beginPath();
    ctx.moveTo(x, at);
    ctx.lineTo(x + w, at);
    ctx.stroke();
    ctx.restore();
    ctx.font = `11px ${font}`;
    const text = fill(labels.train, { train_len: trainLen });
    const width = ctx.measureText(text).width;
    ctx.fillStyle = "rgba(255, 255, 255, 0.8)";
    ctx.fillRect(x + w - width - 4, at + 2, width + 3, 14);
    ctx.fillStyle = "#000000";
    ctx.textAlign = "right";
    ctx.textBaseline = "top";
    ctx.fillText(text, x + w - 2, at + 3);
    ctx.fillStyle = colours.text;
  }

  ctx.font = `12px ${font}`;
  ctx.textAlign = "center";
  ctx.textBaseline = "bottom";
  ctx.fillText(labels.xlabel, x + w / 2, HEIGHT - 2);
  axisTitle(ctx, labels.ylabel, 11, y + h / 2, -Math.PI / 2);
  ctx.font = `13px ${font}`;
  ctx.textBaseline = "top";
  title(values, labels, numbers)
    .split("\n")
    .forEach((line, row) => ctx.fillText(line, x + w / 2, 4 + row * 17, WIDTH - 8));

  const bar = {
    ticks: [-1, -0.5, 0, 0.5, 1],
    format: (v) => formatNumber(v, ".1f", numbers),
    label: labels.colorbar,
    labelX: WIDTH - 8,
    outline: true,
  };
  drawColourBar(ctx, { x: x + w + 12, y, w: 12, h }, { lut, vmin: -1, vmax: 1 }, bar, font, colours);
}

const RULES = {};

async function render({ model: saved, el }) {
  // the saved values within their bounds, and a notice naming any replaced (js/common.js)
  const model = guard(saved, el, BOUNDS, RULES);
  const numbers = model.get("numbers");
  const labels = { ...model.get("labels"), numbers };
  const { controls, canvas, readout: line } = frame(el, model.get("lang"), "rope-angles-explorer");
  let font = await courseFont(el); // read again once the explorer is in the page (pageColours)
  const limits = model.get("limits");
  const sliders = {
    // a log scale in steps of 10^0.1, as the Python slider had
    base: baseSlider(controls, {
      label: labels.base,
      limits,
      step: 0.1,
      value: model.get("base"),
      format: (b) => formatNumber(b, ",.0f", numbers),
    }),
    scale: slider(controls, {
      name: "scale",
      label: labels.scale,
      min: 1,
      max: limits.scale,
      step: 0.5,
      value: model.get("scale"),
      format: (s) => formatNumber(s, ".6g", numbers),
    }),
  };
  const lut = parseColormap(model.get("colormap"));
  const paint = cellPainter();
  const colours = pageColours(el, async () => {
    font = await courseFont(el);
    draw();
  });
  const draw = () => {
    const values = {
      head_dim: model.get("head_dim"),
      num_positions: model.get("num_positions"),
      train_len: model.get("train_len"),
      base: model.get("base"),
      scale: model.get("scale"),
    };
    drawAngles(sizeCanvas(canvas, WIDTH, HEIGHT), values, paint, labels, lut, font, colours());
    line.textContent = readout(values, labels, numbers);
    canvas.setAttribute("aria-label", title(values, labels, numbers).replace("\n", " "));
  };
  // a trait with no control, set from Python, redraws too
  const fixed = ["head_dim", "num_positions", "train_len"];
  for (const name of fixed) model.on(`change:${name}`, draw);
  const stop = live(model, draw, sliders);
  return () => {
    for (const name of fixed) model.off(`change:${name}`, draw);
    stop();
  };
}

export default { render };
