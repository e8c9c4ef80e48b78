// Lesson 8's ALiBi explorer: one head's bias on the scores, and the weights it gives the last query,
// under sliders for the number of heads and the head. The JavaScript copy of course_lib.alibi_slopes,
// course_lib.alibi_bias, course_lib.plots.alibi_weights and course_lib.plots.slope_label, tested
// equal to them in tests/browser/test_explorers_lesson8.py.

// ALiBi's slopes (Press et al., 2022): 2^(-8h/n') for h = 1 .. n', n' the largest power of two
// <= numHeads, then every other slope of 2n' (its 1st, 3rd, ...) until there are numHeads
export function alibiSlopes(numHeads) {
  const closest = 2 ** Math.floor(Math.log2(numHeads));
  const slopes = [];
  for (let h = 1; h <= closest; h++) slopes.push(2 ** ((-8 * h) / closest));
  for (let k = 0; k < numHeads - closest; k++) slopes.push(2 ** ((-8 * (2 * k + 1)) / (2 * closest)));
  return slopes;
}

// one head's bias, bias[m, n] = -s_h·|m - n| (query m, key n): seqLen x seqLen, row after row
export function headBias(slope, seqLen) {
  const out = new Float64Array(seqLen * seqLen);
  for (let i = 0; i < seqLen; i++) for (let j = 0; j < seqLen; j++) out[i * seqLen + j] = -slope * Math.abs(i - j);
  return out;
}

// softmax of the bias for the last query, by distance 0 .. seqLen-1: what the head attends to
// when every content score is the same
export function alibiWeights(slope, seqLen) {
  const weights = new Float64Array(seqLen);
  let sum = 0;
  for (let d = 0; d < seqLen; d++) {
    weights[d] = Math.exp(-slope * d); // the largest score, at distance 0, is 0
    sum += weights[d];
  }
  for (let d = 0; d < seqLen; d++) weights[d] /= sum;
  return weights;
}

// how many of the nearest keys receive half of the attention: numpy's searchsorted(cumsum, 0.5) + 1
export function halfKeys(weights) {
  let total = 0;
  for (let d = 0; d < weights.length; d++) {
    total += weights[d];
    if (total >= 0.5) return d + 1;
  }
  return weights.length + 1;
}

// a slope as the power of two it is: 2^-3, 2^-0.5 (Python's "g" is 6 significant digits)
export function slopeLabel(slope, numbers) {
  const exponent = Math.log2(slope);
  return `2^${formatNumber(exponent, exponent === Math.round(exponent) ? ".0f" : ".6g", numbers)}`;
}

// the readout's two lines, as AlibiExplorer.readout() writes them in Python
export function readout({ num_heads: heads, head, seq_len: seq }, labels, numbers) {
  const closest = 2 ** Math.floor(Math.log2(heads));
  let rule;
  if (heads === 1) rule = labels.one;
  else if (heads === closest) rule = fill(labels.power, { heads });
  else rule = fill(labels.other, { heads, closest, next: closest + 1, double: 2 * closest });
  const slope = alibiSlopes(heads)[head - 1];
  const detail = fill(labels.readout, {
    head,
    slope: slopeLabel(slope, numbers),
    value: formatNumber(slope, ".4f", numbers),
    half: halfKeys(alibiWeights(slope, seq)),
    seq,
  });
  return [rule, detail];
}

const WIDTH = 640;
const HEIGHT = 300;
// the heatmap (left, square, with its colour bar) and the weights (right)
const MAP = { left: 48, top: 30, size: 210 };
const BARS = { left: 404, top: 30, width: 222, height: 210 };
const BLUE = "#1f77b4"; // matplotlib's tab:blue, as the static figure

// the causal bias of one head as pixels, the keys after each query left blank (as NaN in matplotlib),
// on the scale -(seqLen - 1)/2 .. 0 of every head
function biasImage(bias, seqLen, lut) {
  const image = new ImageData(seqLen, seqLen);
  const low = -(seqLen - 1) / 2;
  const px = image.data;
  for (let i = 0; i < seqLen; i++) {
    for (let j = 0; j <= i; j++) {
      const v = bias[i * seqLen + j];
      const idx = 3 * (low < 0 ? colourIndex(v, low, 0) : 255); // one key: its bias 0, the top colour
      const at = 4 * (i * seqLen + j);
      px.set([lut[idx], lut[idx + 1], lut[idx + 2], 255], at);
    }
  }
  const canvas = new OffscreenCanvas(seqLen, seqLen);
  canvas.getContext("2d").putImageData(image, 0, 0);
  return canvas;
}

// each head's colour, as plot_alibi_weights colours its curve: viridis from 0 to 0.9, the steepest head darkest
export function headColours(lut, heads) {
  return Array.from({ length: heads }, (_, h) => {
    const k = 3 * Math.round((heads > 1 ? (0.9 * h) / (heads - 1) : 0) * 255);
    return `#${[0, 1, 2].map((c) => lut[k + c].toString(16).padStart(2, "0")).join("")}`;
  });
}

function drawAlibi(ctx, { num_heads: heads, head, seq_len: seq }, lut, labels, font, colours) {
  const numbers = labels.numbers;
  const slope = alibiSlopes(heads)[Math.min(head, heads) - 1];
  const { left, top, size } = MAP;
  const map = { x: left, y: top, w: size, h: size };
  ctx.imageSmoothingEnabled = false; // sharp at any length: the blank keys after each query stay blank
  ctx.drawImage(biasImage(headBias(slope, seq), seq, lut), left, top, size, size);
  outline(ctx, map, colours);
  const positions = ticks(seq - 1, 4);
  ticksAlong(ctx, map, "bottom", positions.map((t) => [left + ((t + 0.5) / seq) * size, String(t)]), font);
  ticksAlong(ctx, map, "left", positions.map((t) => [top + ((t + 0.5) / seq) * size, String(t)]), font);
  ctx.font = `12px ${font}`;
  axisTitle(ctx, labels.key, left + size / 2, top + size + 28);
  axisTitle(ctx, labels.query, 11, top + size / 2, -Math.PI / 2);
  ctx.font = `13px ${font}`;
  ctx.textAlign = "center";
  ctx.textBaseline = "top";
  ctx.fillText(fill(labels.title, { h: head, slope: slopeLabel(slope, numbers) }), left + size / 2, 6, size + 90);

  // the colour bar: every head on one scale, -(seq - 1)/2 .. 0
  const low = -(seq - 1) / 2;
  const bx = left + size + 12;
  const bar = { ticks: ticks(-low, 4).map((t) => -t), format: (v) => formatNumber(v, ".0f", numbers), outline: true };
  drawColourBar(ctx, { x: bx, y: top, w: 12, h: size }, { lut, vmin: low, vmax: 0 }, bar, font, colours);
  ctx.font = `12px ${font}`;
  axisTitle(ctx, labels.bias, bx + 52, top + size / 2, Math.PI / 2);

  // the last query's weights by distance, on one scale for every head (no slope reaches 1): the
  // head's as bars, every head's as a thin line behind them, coloured as plot_alibi_weights colours
  // them (viridis from 0 to 0.9, steep heads dark)
  const weights = alibiWeights(slope, seq);
  const high = 1.1 * alibiWeights(1.0, seq)[0];
  const b = BARS;
  const step = b.width / seq;
  const at = (d, w) => [b.left + (d + 0.5) * step, b.top + b.height - (w / high) * b.height];
  ctx.save();
  ctx.lineWidth = 1;
  const lines = headColours(lut, heads);
  alibiSlopes(heads).forEach((headSlope, h) => {
    ctx.strokeStyle = lines[h];
    ctx.globalAlpha = 0.6;
    ctx.beginPath();
    alibiWeights(headSlope, seq).forEach((w, d) => (d ? ctx.lineTo(...at(d, w)) : ctx.moveTo(...at(d, w))));
    ctx.stroke();
  });
  ctx.restore();
  ctx.globalAlpha = 0.75;
  ctx.fillStyle = BLUE;
  for (let d = 0; d < seq; d++) {
    const h = (weights[d] / high) * b.height;
    ctx.fillRect(b.left + d * step + 0.1 * step, b.top + b.height - h, 0.8 * step, h);
  }
  ctx.globalAlpha = 1;
  const plot = { x: b.left, y: b.top, w: b.width, h: b.height };
  outline(ctx, plot, colours);
  ticksAlong(ctx, plot, "bottom", ticks(seq - 1, 5).map((t) => [b.left + (t + 0.5) * step, String(t)]), font);
  const shares = [];
  for (let w = 0; w <= high + 1e-9; w += 0.1) shares.push([at(0, w)[1], formatNumber(w, ".1f", numbers)]);
  ticksAlong(ctx, plot, "left", shares, font);
  ctx.font = `12px ${font}`;
  axisTitle(ctx, labels.distance, b.left + b.width / 2, b.top + b.height + 28);
  axisTitle(ctx, labels.weight, b.left - 42, b.top + b.height / 2, -Math.PI / 2);
  ctx.font = `13px ${font}`;
  ctx.textAlign = "center";
  ctx.textBaseline = "top";
  ctx.fillText(labels.equal, b.left + b.width / 2, 6, b.width + 40);
}

// the head is one of the heads (BOUNDS, from Python, bound the other settings)
const RULES = { head: (get) => ({ low: 1, high: get("num_heads") }) };

async function render({ model: saved, el }) {
  // the saved values within their bounds, and a notice naming any replaced (js/common.js)
  const model = guard(saved, el, BOUNDS, RULES);
  const numbers = model.get("numbers");
  const labels = { ...model.get("labels"), numbers };
  const { controls, canvas, readout: line } = frame(el, model.get("lang"), "alibi-explorer");
  let font = await courseFont(el); // read again once the explorer is in the page (pageColours)
  const sliders = {
    num_heads: slider(controls, {
      name: "num_heads",
      label: labels.num_heads,
      min: 1,
      max: model.get("limits").num_heads,
      value: model.get("num_heads"),
    }),
    head: slider(controls, { name: "head", label: labels.head, min: 1, max: model.get("num_heads"), value: model.get("head") }),
  };
  // the head slider ends at the number of heads; fewer heads than the head shown show the last one
  // (before live's own listener: the head's range is right when it is redrawn)
  const clamp = () => {
    const heads = model.get("num_heads");
    sliders.head.input.max = String(heads);
    if (model.get("head") > heads) model.set("head", heads);
  };
  model.on("change:num_heads", clamp);
  const lut = parseColormap(model.get("colormap"));
  const colours = pageColours(el, async () => {
    font = await courseFont(el);
    draw();
  });
  const draw = () => {
    const values = { num_heads: model.get("num_heads"), head: model.get("head"), seq_len: model.get("seq_len") };
    drawAlibi(sizeCanvas(canvas, WIDTH, HEIGHT), values, lut, labels, font, colours());
    const lines = readout(values, labels, numbers);
    line.replaceChildren(lines[0], document.createElement("br"), lines[1]);
    canvas.setAttribute("aria-label", lines.join(" "));
  };
  // a trait with no control, set from Python, redraws too
  for (const name of ["seq_len"]) model.on(`change:${name}`, draw);
  const stop = live(model, draw, sliders);
  return () => {
    model.off("change:num_heads", clamp);
    for (const name of ["seq_len"]) model.off(`change:${name}`, draw);
    stop();
  };
}

export default { render };
