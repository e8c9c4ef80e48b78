// Lesson 8's RoPE angles explorer: cos of RoPE's angle at every position (down) and pair (across),
// under sliders for base and the interpolation factor s, with the pairs that meet angles training
// never showed them marked. The JavaScript copy of course_lib.plots.long_context's angle_table and
// new_angle_pairs, tested equal to them in tests/browser/test_explorers_lesson8.py.

const TRAIN_BASE = 10000; // the base of training, as new_angle_pairs' default

// cos((p / s) · base^(-2i/headDim)) for p = 0 .. n-1 and the headDim/2 pairs: n x headDim/2, row after row
export function angleTable(headDim, n, base, scale) {
  const pairs = headDim / 2;
  const theta = new Float64Array(pairs);
  for (let i = 0; i < pairs; i++) theta[i] = base ** (-(2 * i) / headDim);
  const out = new Float64Array(n * pairs);
  for (let p = 0; p < n; p++) {
    const position = p / scale;
    for (let i = 0; i < pairs; i++) out[p * pairs + i] = Math.cos(position * theta[i]);
  }
  return out;
}

// Which pairs reach angles that training (positions 0 .. trainLen-1, base 10 000) never showed them:
// a pair that went all the way round (2π) in training knows every angle; any other meets new ones
// when (n - 1)/s · θ'_i >= trainLen · θ_i
export function newAnglePairs(headDim, n, trainLen, base, scale, trainBase = TRAIN_BASE) {
  const out = [];
  for (let twoI = 0; twoI < headDim; twoI += 2) {
    const trained = trainLen * trainBase ** (-twoI / headDim);
    const reached = ((n - 1) / scale) * base ** (-twoI / headDim);
    out.push(trained < 2 * Math.PI && reached >= trained);
  }
  return out;
}

// how far the slowest pair turns over positions 0 .. last, divided by s, with base
function slowestTurn(last, headDim, base, scale) {
  const slowest = (2 * (headDim / 2 - 1)) / headDim;
  return (last / scale) * base ** -slowest;
}

function count(flags) {
  return flags.filter(Boolean).length;
}

// the readout, as RopeAnglesExplorer.readout() writes it in Python
export function readout({ head_dim: d, num_positions: n, train_len: trainLen, base, scale }, labels, lang) {
  return fill(labels.readout, {
    last_train: trainLen - 1,
    last: n - 1,
    scale: formatNumber(scale, ".6g", lang),
    base: formatNumber(base, ",.0f", lang),
    new: count(newAnglePairs(d, n, trainLen, base, scale)),
    pairs: d / 2,
    slow_now: formatNumber(slowestTurn(n - 1, d, base, scale), ".2g", lang),
    slow_train: formatNumber(slowestTurn(trainLen - 1, d, TRAIN_BASE, 1), ".2g", lang),
  });
}

// the figure's title, as course_lib.plots.update_rope_angles writes it (two lines)
export function title({ head_dim: d, num_positions: n, train_len: trainLen, base, scale }, labels, lang) {
  return fill(labels.title, {
    base: formatNumber(base, ".0f", lang),
    scale: formatNumber(scale, ".6g", lang),
    new: count(newAnglePairs(d, n, trainLen, base, scale)),
    pairs: d / 2,
  });
}

// "rrggbb" x 256 (matplotlib's colormap, from Python) -> [r, g, b] x 256
function parseColormap(hex) {
  const lut = new Uint8ClampedArray(256 * 3);
  for (let k = 0; k < 256 * 3; k++) lut[k] = parseInt(hex.substr(2 * k, 2), 16);
  return lut;
}

const WIDTH = 520;
const HEIGHT = 360;
const MARGIN = { left: 56, right: 92, top: 58, bottom: 40 };
const STRIP = 12; // above the first row: the marks of the pairs that meet new angles

// The heatmap as pixels: one column per pair, one row per pixel of the plot's height, each row the
// mean of the positions it covers (matplotlib's antialiased image, more simply: a position a pixel
// of the fast pairs would alias into stripes that are not there)
function heatmap(table, n, pairs, rows, lut) {
  rows = Math.min(rows, n);
  const image = new ImageData(pairs, rows);
  for (let r = 0; r < rows; r++) {
    const from = Math.floor((r * n) / rows);
    const to = Math.max(from + 1, Math.floor(((r + 1) * n) / rows));
    for (let i = 0; i < pairs; i++) {
      let sum = 0;
      for (let p = from; p < to; p++) sum += table[p * pairs + i];
      const v = sum / (to - from);
      // matplotlib: (v - vmin) / (vmax - vmin) * N, clipped to the N = 256 colours, on -1 .. 1
      const idx = 3 * Math.min(255, Math.max(0, Math.floor(((v + 1) / 2) * 256)));
      image.data.set([lut[idx], lut[idx + 1], lut[idx + 2], 255], 4 * (r * pairs + i));
    }
  }
  const canvas = new OffscreenCanvas(pairs, rows);
  canvas.getContext("2d").putImageData(image, 0, 0);
  return canvas;
}

function colourBar(lut) {
  const bar = new OffscreenCanvas(1, 256);
  const pixels = new ImageData(1, 256);
  for (let k = 0; k < 256; k++) pixels.data.set([lut[3 * k], lut[3 * k + 1], lut[3 * k + 2], 255], 4 * (255 - k));
  bar.getContext("2d").putImageData(pixels, 0, 0);
  return bar;
}

function drawAngles(ctx, values, images, labels, font, colours) {
  const { head_dim: d, num_positions: n, train_len: trainLen, base, scale } = values;
  const lang = labels.lang;
  const pairs = d / 2;
  const w = WIDTH - MARGIN.left - MARGIN.right;
  const h = HEIGHT - MARGIN.top - MARGIN.bottom;
  const top = MARGIN.top;
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(heatmap(angleTable(d, n, base, scale), n, pairs, h, images.lut), MARGIN.left, top, w, h);

  ctx.fillStyle = colours.text;
  ctx.strokeStyle = colours.text;
  ctx.lineWidth = 1;
  ctx.strokeRect(MARGIN.left + 0.5, top - STRIP + 0.5, w - 1, h + STRIP - 1);
  ctx.font = `11px ${font}`;
  ctx.textAlign = "center";
  ctx.textBaseline = "top";
  for (const t of ticks(pairs - 1)) {
    const x = MARGIN.left + ((t + 0.5) / pairs) * w;
    ctx.fillRect(x, top + h, 1, 4);
    ctx.fillText(String(t), x, top + h + 6);
  }
  ctx.textAlign = "right";
  ctx.textBaseline = "middle";
  for (const t of ticks(n - 1)) {
    const y = top + ((t + 0.5) / n) * h;
    ctx.fillRect(MARGIN.left - 4, y, 4, 1);
    ctx.fillText(String(t), MARGIN.left - 6, y);
  }

  // the pairs that meet angles not seen in training: a triangle above each
  const marks = newAnglePairs(d, n, trainLen, base, scale);
  marks.forEach((marked, i) => {
    if (!marked) return;
    const x = MARGIN.left + ((i + 0.5) / pairs) * w;
    ctx.beginPath();
    ctx.moveTo(x - 4, top - STRIP + 3);
    ctx.lineTo(x + 4, top - STRIP + 3);
    ctx.lineTo(x, top - 2);
    ctx.closePath();
    ctx.fill();
  });

  // the training length: a dashed line between its last position and the next, and its label
  if (trainLen < n) {
    const y = top + (trainLen / n) * h;
    ctx.save();
    ctx.strokeStyle = "#000000";
    ctx.lineWidth = 1.2;
    ctx.setLineDash([5, 3]);
    ctx.beginPath();
    ctx.moveTo(MARGIN.left, y);
    ctx.lineTo(MARGIN.left + w, y);
    ctx.stroke();
    ctx.restore();
    ctx.font = `11px ${font}`;
    const text = fill(labels.train, { train_len: trainLen });
    const width = ctx.measureText(text).width;
    ctx.fillStyle = "rgba(255, 255, 255, 0.8)";
    ctx.fillRect(MARGIN.left + w - width - 4, y + 2, width + 3, 14);
    ctx.fillStyle = "#000000";
    ctx.textAlign = "right";
    ctx.textBaseline = "top";
    ctx.fillText(text, MARGIN.left + w - 2, y + 3);
    ctx.fillStyle = colours.text;
  }

  ctx.font = `12px ${font}`;
  ctx.textAlign = "center";
  ctx.textBaseline = "bottom";
  ctx.fillText(labels.xlabel, MARGIN.left + w / 2, HEIGHT - 2);
  ctx.save();
  ctx.translate(11, top + h / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.textBaseline = "middle";
  ctx.fillText(labels.ylabel, 0, 0);
  ctx.restore();
  ctx.font = `13px ${font}`;
  ctx.textBaseline = "top";
  title(values, labels, lang)
    .split("\n")
    .forEach((line, row) => ctx.fillText(line, MARGIN.left + w / 2, 4 + row * 17, WIDTH - 8));

  // the colour bar, -1 .. 1
  const bx = MARGIN.left + w + 12;
  ctx.drawImage(images.bar, bx, top, 12, h);
  ctx.strokeRect(bx + 0.5, top + 0.5, 11, h - 1);
  ctx.font = `11px ${font}`;
  ctx.textAlign = "left";
  ctx.textBaseline = "middle";
  for (const v of [-1, -0.5, 0, 0.5, 1]) {
    const y = top + ((1 - v) / 2) * h;
    ctx.fillRect(bx + 12, y, 3, 1);
    ctx.fillText(formatNumber(v, ".1f", lang), bx + 17, y);
  }
  ctx.save();
  ctx.translate(WIDTH - 8, top + h / 2);
  ctx.rotate(Math.PI / 2);
  ctx.textAlign = "center";
  ctx.fillText(labels.colorbar, 0, 0);
  ctx.restore();
}

async function render({ model, el }) {
  const lang = model.get("lang");
  const labels = { ...model.get("labels"), lang };
  const { controls, canvas, readout: line } = frame(el, lang, "rope-angles-explorer");
  const font = await courseFont(el);
  const limits = model.get("limits");
  const sliders = {
    // a log scale in steps of 10^0.1, as the Python slider had
    base: slider(controls, {
      name: "base",
      label: labels.base,
      min: limits.base_exponent_min,
      max: limits.base_exponent_max,
      step: 0.1,
      value: model.get("base"),
      format: (b) => formatNumber(b, ",.0f", lang),
      toValue: (e) => 10 ** e,
      fromValue: (b) => Math.log10(b),
    }),
    scale: slider(controls, {
      name: "scale",
      label: labels.scale,
      min: 1,
      max: limits.scale,
      step: 0.5,
      value: model.get("scale"),
      format: (s) => formatNumber(s, ".6g", lang),
    }),
  };
  const lut = parseColormap(model.get("colormap"));
  const images = { lut, bar: colourBar(lut) };
  const colours = pageColours(el, () => draw());
  const draw = () => {
    const values = {
      head_dim: model.get("head_dim"),
      num_positions: model.get("num_positions"),
      train_len: model.get("train_len"),
      base: model.get("base"),
      scale: model.get("scale"),
    };
    drawAngles(sizeCanvas(canvas, WIDTH, HEIGHT), values, images, labels, font, colours());
    line.textContent = readout(values, labels, lang);
    canvas.setAttribute("aria-label", title(values, labels, lang).replace("\n", " "));
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
