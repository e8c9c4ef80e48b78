// Lesson 6's left-padding explorer: the rows of the positional table a text's tokens receive once
// padded on the left, numbered 0 .. seq-1 or from the mask. The JavaScript copy of
// course_lib.plots.positions.left_padded_positions and LeftPaddingExplorer's readout, tested equal
// to them in tests/browser/test_explorers_more.py.

const PAD = "<pad>";

// the positions of `padding` pads followed by `length` tokens: 0 .. seq-1 ("default"), or from
// the mask, (mask.cumsum(-1) - 1).clamp(min=0) ("mask": the pads 0, the text 0, 1, ...)
export function leftPaddedPositions(length, padding, mode) {
  const seq = padding + length;
  if (mode === "default") return Array.from({ length: seq }, (_, p) => p);
  return Array.from({ length: seq }, (_, p) => Math.max(0, p - padding));
}

// whether the text's tokens get the rows they get alone, 0 .. length - 1
export function sameAsAlone(positions, length) {
  return positions.slice(-length).every((p, t) => p === t);
}

// the rows drawn: PE at each position, (padding + length) x d, row-major
export function paddedRows(length, padding, mode, d) {
  return positionalRows(leftPaddedPositions(length, padding, mode), d);
}

export function readout({ tokens, padding, positions: mode }, labels) {
  const positions = leftPaddedPositions(tokens.length, padding, mode);
  const text = positions.slice(padding);
  return fill(labels.readout, {
    padding,
    positions: text.join(", "),
    verdict: sameAsAlone(positions, tokens.length) ? labels.same : labels.differ,
  });
}

const WIDTH = 512;
const ROW = 22; // pixels per row of the heatmap
const TOP = 30;
const BOTTOM = 44;
const RIGHT = 92; // the colour bar, its ticks and its label

function drawPadding(ctx, values, labels, font, colours, lut) {
  const { tokens, padding, positions: mode, d_model: d } = values;
  const positions = leftPaddedPositions(tokens.length, padding, mode);
  const rowLabels = [...Array(padding).fill(PAD), ...tokens].map((t, r) => `${t} · ${positions[r]}`);
  ctx.font = `11px ${font}`;
  const left = 26 + Math.max(...rowLabels.map((t) => ctx.measureText(t).width)) + 8;
  const rows = positions.length;
  const box = { x: left, y: TOP, w: WIDTH - left - RIGHT, h: rows * ROW };
  drawHeatmap(
    ctx,
    box,
    {
      values: positionalRows(positions, d),
      rows,
      cols: d,
      lut,
      vmin: -1,
      vmax: 1,
      rowLabels,
      colTicks: ticks(d - 1).map((c) => [c, String(c)]),
      xlabel: labels.xlabel,
      ylabel: labels.ylabel,
      title: fill(labels[mode], { padding }),
      titleWidth: WIDTH - 8,
      colorbar: { label: labels.colorbar, ticks: [-1, -0.5, 0, 0.5, 1], format: (v) => formatNumber(v, ".1f", labels.numbers) },
    },
    font,
    colours,
  );
}

// the padding is at most max_padding (BOUNDS, from Python, bound the other settings)
const RULES = { padding: (get) => ({ low: 0, high: get("max_padding") }) };

async function render({ model: saved, el }) {
  // the saved values within their bounds, and a notice naming any replaced (js/common.js)
  const model = guard(saved, el, BOUNDS, RULES);
  const numbers = model.get("numbers");
  const labels = { ...model.get("labels"), numbers };
  const { controls, canvas, readout: line } = frame(el, model.get("lang"), "left-padding-explorer");
  let font = await courseFont(el); // read again once the explorer is in the page (pageColours)
  const sliders = {
    padding: slider(controls, { name: "padding", label: labels.padding, min: 0, max: model.get("max_padding"), value: model.get("padding") }),
    positions: radios(controls, {
      name: "positions",
      label: labels.positions,
      options: [
        ["default", labels.mode_default],
        ["mask", labels.mode_mask],
      ],
      value: model.get("positions"),
    }),
  };
  const lut = parseColormap(model.get("colormap"));
  const colours = pageColours(el, async () => {
    font = await courseFont(el);
    draw();
  });
  const draw = () => {
    const tokens = model.get("tokens");
    // one height for every setting, with room for the most pads: the page does not jump
    const height = TOP + BOTTOM + ROW * (tokens.length + model.get("max_padding"));
    const values = { tokens, padding: model.get("padding"), positions: model.get("positions"), d_model: model.get("d_model"), height };
    drawPadding(sizeCanvas(canvas, WIDTH, height), values, labels, font, colours(), lut);
    line.textContent = readout(values, labels);
    canvas.setAttribute("aria-label", `${fill(labels[values.positions], { padding: values.padding })}. ${line.textContent}`);
  };
  return live(model, draw, sliders);
}

export default { render };
