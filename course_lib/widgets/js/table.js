// Lesson 5's table explorer: the sinusoidal table as a heatmap under three sliders, computed here.
// The JavaScript copy of course_lib.sinusoidal_table, course_lib.plots.wavelength and
// course_lib.plots.slow_columns, tested equal to them in tests/browser/test_explorers.py.

// PE[pos, 2i] = sin(pos · ω_i), PE[pos, 2i + 1] = cos(pos · ω_i) with ω_i = base^(-2i/d), in float64,
// row after row (n x d); an odd d_model ends with a sine. Two calls of sin and cos per cell would
// take most of a frame at 1024 x 512, so each pair turns from one row to the next by the rotation
// of angle ω_i (sin(a + ω) = sin a cos ω + cos a sin ω), from the exact values every ANCHOR rows:
// the rounding of at most ANCHOR turns stays below 1e-13 (the browser test holds it to 1e-12).
const ANCHOR = 32;

export function sinusoidalTable(n, d, base) {
  const out = new Float64Array(n * d);
  const pairs = Math.ceil(d / 2);
  const omega = new Float64Array(pairs);
  const [c, s, sin, cos] = [0, 0, 0, 0].map(() => new Float64Array(pairs));
  for (let i = 0; i < pairs; i++) {
    omega[i] = base ** (-(2 * i) / d);
    c[i] = Math.cos(omega[i]);
    s[i] = Math.sin(omega[i]);
  }
  const odd = d % 2 === 1;
  for (let pos = 0; pos < n; pos++) {
    const row = pos * d;
    const exact = pos % ANCHOR === 0;
    for (let i = 0; i < pairs; i++) {
      if (exact) {
        sin[i] = Math.sin(pos * omega[i]);
        cos[i] = Math.cos(pos * omega[i]);
      } else {
        const turned = sin[i] * c[i] + cos[i] * s[i];
        cos[i] = cos[i] * c[i] - sin[i] * s[i];
        sin[i] = turned;
      }
      out[row + 2 * i] = sin[i];
    }
    const cosines = odd ? pairs - 1 : pairs;
    for (let i = 0; i < cosines; i++) out[row + 2 * i + 1] = cos[i];
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

// wavelengths as course_lib.widgets.live.format_length writes them: 6.3 and 35 333
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

// what stays from one drawing to the next: the cells' pixels (while the shape stays) and the colour bar
function painter(lut) {
  let cells = null;
  let off = null;
  const bar = new OffscreenCanvas(1, 256);
  const barPixels = new ImageData(1, 256);
  for (let k = 0; k < 256; k++) {
    // -1 at the bottom, 1 on top
    barPixels.data.set([lut[3 * k], lut[3 * k + 1], lut[3 * k + 2], 255], 4 * (255 - k));
  }
  bar.getContext("2d").putImageData(barPixels, 0, 0);
  return (table, n, d) => {
    if (!cells || cells.width !== d || cells.height !== n) {
      cells = new ImageData(d, n);
      off = new OffscreenCanvas(d, n);
    }
    const px = cells.data;
    for (let k = 0; k < n * d; k++) {
      // matplotlib: (v - vmin) / (vmax - vmin) * N, clipped to the last of the N = 256 colours
      const idx = 3 * Math.min(255, Math.max(0, Math.floor(((table[k] + 1) / 2) * 256)));
      const at = 4 * k;
      px[at] = lut[idx];
      px[at + 1] = lut[idx + 1];
      px[at + 2] = lut[idx + 2];
      px[at + 3] = 255;
    }
    off.getContext("2d").putImageData(cells, 0, 0);
    return { cells: off, bar };
  };
}

function drawTable(ctx, images, n, d, labels, font, colours) {
  const w = WIDTH - MARGIN.left - MARGIN.right;
  const h = HEIGHT - MARGIN.top - MARGIN.bottom;
  // one pixel per cell, scaled to the plot area: smoothed when cells are smaller than pixels
  // (as matplotlib's antialiased imshow), sharp when larger
  ctx.imageSmoothingEnabled = !(n < h || d < w);
  ctx.drawImage(images.cells, MARGIN.left, MARGIN.top, w, h);

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

  // the colour bar
  const bx = MARGIN.left + w + 12;
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(images.bar, bx, MARGIN.top, 12, h);
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
  const paint = painter(parseColormap(model.get("colormap")));
  const colours = pageColours(el, () => draw());
  const draw = () => {
    const d = model.get("d_model");
    const n = model.get("num_positions");
    const base = model.get("base");
    const ctx = sizeCanvas(canvas, WIDTH, HEIGHT);
    drawTable(ctx, paint(sinusoidalTable(n, d, base), n, d), n, d, labels, font, colours());
    const lines = readout({ d_model: d, num_positions: n, base }, labels, lang);
    line.replaceChildren(lines[0], document.createElement("br"), lines[1]);
    canvas.setAttribute("aria-label", fill(labels.title, { num_positions: n, d_model: d }));
  };
  return live(model, draw, sliders);
}

export default { render };
