// Lesson 5's table explorer: the sinusoidal table as a heatmap under three sliders, computed here.
// The JavaScript copy of course_lib.sinusoidal_table, course_lib.plots.wavelength and
// course_lib.plots.slow_columns, tested equal to them in tests/browser/test_explorers.py.

// PE[pos, 2i] = sin(pos · base^(-2i/d)), PE[pos, 2i + 1] = cos(the same angle), in float64,
// row after row (n x d); an odd d_model ends with a sine
export function sinusoidalTable(n, d, base) {
  const out = new Float64Array(n * d);
  const pairs = Math.ceil(d / 2);
  const freq = new Float64Array(pairs);
  for (let i = 0; i < pairs; i++) freq[i] = base ** (-(2 * i) / d);
  for (let pos = 0; pos < n; pos++) {
    const row = pos * d;
    for (let i = 0; i < pairs; i++) {
      const angle = pos * freq[i];
      out[row + 2 * i] = Math.sin(angle);
      if (2 * i + 1 < d) out[row + 2 * i + 1] = Math.cos(angle);
    }
  }
  return out;
}

export function wavelength(i, d, base) {
  return 2 * Math.PI * base ** ((2 * i) / d);
}

export function slowColumns(n, d, base) {
  let slow = 0;
  for (let c = 0; c < d; c++) if (wavelength(Math.floor(c / 2), d, base) > n) slow++;
  return slow;
}

// wavelengths as course_lib.widgets.base.format_length writes them: 6.3 and 35 333
function formatLength(x, lang) {
  return formatNumber(x, x < 100 ? ".1f" : ",.0f", lang);
}

// the readout's lines, as TableExplorer.readout() writes them in Python
export function readout({ d_model: d, num_positions: n, base }, labels, lang) {
  const lastI = Math.floor((d - 1) / 2);
  const slow = slowColumns(n, d, base);
  return [
    fill(labels.readout, {
      d_model: d,
      num_positions: n,
      base: formatLength(base, lang),
      shortest: formatLength(wavelength(0, d, base), lang),
      longest: formatLength(wavelength(lastI, d, base), lang),
      last_i: lastI,
    }),
    fill(labels.slow, { slow, d_model: d, percent: roundHalfEven((100 * slow) / d), num_positions: n }),
  ];
}

// "rrggbb" x 256 (matplotlib's colormap, from Python) -> [r, g, b] x 256
function parseColormap(hex) {
  const lut = new Uint8ClampedArray(256 * 3);
  for (let k = 0; k < 256 * 3; k++) lut[k] = parseInt(hex.substr(2 * k, 2), 16);
  return lut;
}

const WIDTH = 512;
const HEIGHT = 300;
const MARGIN = { left: 46, right: 78, top: 26, bottom: 38 };

function drawTable(ctx, table, n, d, lut, labels, font, colours) {
  const w = WIDTH - MARGIN.left - MARGIN.right;
  const h = HEIGHT - MARGIN.top - MARGIN.bottom;
  // one pixel per cell, scaled to the plot area (smoothed, as matplotlib's antialiased imshow)
  const cells = new ImageData(d, n);
  const px = cells.data;
  for (let k = 0; k < n * d; k++) {
    // matplotlib: (v - vmin) / (vmax - vmin) * N, clipped to the last of the N = 256 colours
    const idx = Math.min(255, Math.max(0, Math.floor(((table[k] + 1) / 2) * 256)));
    px[4 * k] = lut[3 * idx];
    px[4 * k + 1] = lut[3 * idx + 1];
    px[4 * k + 2] = lut[3 * idx + 2];
    px[4 * k + 3] = 255;
  }
  const off = new OffscreenCanvas(d, n);
  off.getContext("2d").putImageData(cells, 0, 0);
  ctx.imageSmoothingEnabled = n < h || d < w ? false : true;
  ctx.drawImage(off, MARGIN.left, MARGIN.top, w, h);

  ctx.fillStyle = colours.text;
  ctx.strokeStyle = colours.text;
  ctx.lineWidth = 1;
  ctx.strokeRect(MARGIN.left + 0.5, MARGIN.top + 0.5, w - 1, h - 1);
  ctx.font = `11px ${font}`;
  // x: dimensions, cell centres; y: positions, row 0 on top
  ctx.textAlign = "center";
  ctx.textBaseline = "top";
  for (const t of ticks(d - 1)) {
    const x = MARGIN.left + ((t + 0.5) / d) * w;
    ctx.fillRect(x, MARGIN.top + h, 1, 4);
    ctx.fillText(String(t), x, MARGIN.top + h + 6);
  }
  ctx.textAlign = "right";
  ctx.textBaseline = "middle";
  for (const t of ticks(n - 1)) {
    const y = MARGIN.top + ((t + 0.5) / n) * h;
    ctx.fillRect(MARGIN.left - 4, y, 4, 1);
    ctx.fillText(String(t), MARGIN.left - 6, y);
  }
  ctx.font = `12px ${font}`;
  ctx.textAlign = "center";
  ctx.textBaseline = "bottom";
  ctx.fillText(labels.xlabel, MARGIN.left + w / 2, HEIGHT - 2);
  ctx.save();
  ctx.translate(11, MARGIN.top + h / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.textBaseline = "middle";
  ctx.fillText(labels.ylabel, 0, 0);
  ctx.restore();
  ctx.font = `13px ${font}`;
  ctx.textBaseline = "top";
  const title = fill(labels.title, { num_positions: n, d_model: d });
  ctx.fillText(title, WIDTH / 2, 4, WIDTH - 8);

  // the colour bar: -1 at the bottom, 1 on top
  const bx = MARGIN.left + w + 12;
  for (let k = 0; k < 256; k++) {
    ctx.fillStyle = `rgb(${lut[3 * k]},${lut[3 * k + 1]},${lut[3 * k + 2]})`;
    ctx.fillRect(bx, MARGIN.top + h - ((k + 1) / 256) * h, 12, h / 256 + 0.5);
  }
  ctx.fillStyle = colours.text;
  ctx.font = `11px ${font}`;
  ctx.textAlign = "left";
  ctx.textBaseline = "middle";
  for (const v of [-1, -0.5, 0, 0.5, 1]) {
    const y = MARGIN.top + ((1 - v) / 2) * h;
    ctx.fillText(formatNumber(v, ".1f", labels.lang), bx + 16, y);
  }
  ctx.save();
  ctx.translate(WIDTH - 6, MARGIN.top + h / 2);
  ctx.rotate(Math.PI / 2);
  ctx.textAlign = "center";
  ctx.fillText(labels.colorbar, 0, 0);
  ctx.restore();
}

async function render({ model, el }) {
  const lang = model.get("lang");
  const labels = { ...model.get("labels"), lang };
  const { controls, canvas, readout: line } = frame(el, lang, "table-explorer");
  const font = await courseFont(el);
  const limits = model.get("limits");
  const sliders = {
    d_model: slider(controls, { name: "d_model", label: labels.d_model, min: 1, max: limits.d_model, value: model.get("d_model") }),
    num_positions: slider(controls, {
      name: "num_positions",
      label: labels.num_positions,
      min: 1,
      max: limits.num_positions,
      value: model.get("num_positions"),
    }),
    // a log scale in steps of 10^0.05, as the Python slider had
    base: slider(controls, {
      name: "base",
      label: labels.base,
      min: limits.base_exponent_min,
      max: limits.base_exponent_max,
      step: 0.05,
      value: model.get("base"),
      format: (b) => formatNumber(b, ",.0f", lang),
      toValue: (e) => 10 ** e,
      fromValue: (b) => Math.log10(b),
    }),
  };
  const lut = parseColormap(model.get("colormap"));
  const draw = () => {
    const d = model.get("d_model");
    const n = model.get("num_positions");
    const base = model.get("base");
    const ctx = sizeCanvas(canvas, WIDTH, HEIGHT);
    drawTable(ctx, sinusoidalTable(n, d, base), n, d, lut, labels, font, pageColours(el));
    const lines = readout({ d_model: d, num_positions: n, base }, labels, lang);
    line.replaceChildren(lines[0], document.createElement("br"), lines[1]);
    canvas.setAttribute("aria-label", fill(labels.title, { num_positions: n, d_model: d }));
  };
  return live(model, draw, sliders);
}

export default { render };
