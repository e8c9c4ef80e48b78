// Lesson 5's table explorer: the sinusoidal table as a heatmap under three sliders, computed here.
// The JavaScript copy of course_lib.sinusoidal_table, course_lib.maths.wavelength and
// course_lib.maths.slow_columns, tested equal to them in tests/browser/test_explorers.py.

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
    omega[i] = inverseFrequency(i, d, base);
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

// 2π / ω_i, as course_lib.maths.wavelength
export function wavelength(i, d, base) {
  return (2 * Math.PI) / inverseFrequency(i, d, base);
}

export function slowColumns(n, d, base) {
  let slow = 0;
  for (let c = 0; c < d; c++) if (wavelength(Math.floor(c / 2), d, base) > n) slow++;
  return slow;
}

// wavelengths as course_lib.widgets.live.format_length writes them: 6.3 and 35 333
function formatLength(x, numbers) {
  return formatNumber(x, x < 100 ? ".1f" : ",.0f", numbers);
}

// the readout's lines, as TableExplorer.readout() writes them in Python
export function readout({ d_model: d, num_positions: n, base }, labels, numbers) {
  const lastI = Math.floor((d - 1) / 2);
  const slow = slowColumns(n, d, base);
  return [
    fill(labels.readout, {
      d_model: d,
      num_positions: n,
      base: formatLength(base, numbers),
      shortest: formatLength(wavelength(0, d, base), numbers),
      longest: formatLength(wavelength(lastI, d, base), numbers),
      last_i: lastI,
    }),
    fill(labels.slow, { slow, d_model: d, percent: roundHalfEven((100 * slow) / d), num_positions: n }),
  ];
}

const WIDTH = 512;
const HEIGHT = 300;
// a title of several lines ("\n") as one
const oneLine = (text) => text.replaceAll("\n", " ");
// the plot area: the axes' labels on the left and below, the title above, the colour bar on the right
const BOX = { x: 46, y: 26, w: WIDTH - 46 - 78, h: HEIGHT - 26 - 38 };

function drawTable(ctx, cells, n, d, labels, lut, font, colours) {
  const { x, y, w, h } = BOX;
  drawCells(ctx, cells, BOX);
  outline(ctx, BOX, colours);
  // x: dimensions, cell centres; y: positions, row 0 on top
  ticksAlong(ctx, BOX, "bottom", ticks(d - 1).map((t) => [x + ((t + 0.5) / d) * w, String(t)]), font);
  ticksAlong(ctx, BOX, "left", ticks(n - 1).map((t) => [y + ((t + 0.5) / n) * h, String(t)]), font);
  ctx.font = `12px ${font}`;
  ctx.textAlign = "center";
  ctx.textBaseline = "bottom";
  ctx.fillText(labels.xlabel, x + w / 2, HEIGHT - 2);
  axisTitle(ctx, labels.ylabel, 11, y + h / 2, -Math.PI / 2);
  ctx.font = `13px ${font}`;
  ctx.textBaseline = "top";
  // the static figure's title has two lines (its heatmap is narrower than the title); here one line over the canvas
  ctx.fillText(oneLine(fill(labels.title, { num_positions: n, d_model: d })), WIDTH / 2, 4, WIDTH - 8);
  const bar = {
    ticks: [-1, -0.5, 0, 0.5, 1],
    format: (v) => formatNumber(v, ".1f", labels.numbers),
    label: labels.colorbar,
    labelX: WIDTH - 6,
    mark: 0,
  };
  drawColourBar(ctx, { x: x + w + 12, y, w: 12, h }, { lut, vmin: -1, vmax: 1 }, bar, font, colours);
}

const RULES = {};

async function render({ model: saved, el }) {
  // the saved values within their bounds, and a notice naming any replaced (js/common.js)
  const model = guard(saved, el, BOUNDS, RULES);
  const numbers = model.get("numbers");
  const labels = { ...model.get("labels"), numbers };
  const { controls, canvas, readout: line } = frame(el, model.get("lang"), "table-explorer");
  let font = await courseFont(el); // read again once the explorer is in the page (pageColours)
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
    base: baseSlider(controls, {
      label: labels.base,
      limits,
      step: 0.05,
      value: model.get("base"),
      format: (b) => formatNumber(b, ",.0f", numbers),
    }),
  };
  const lut = parseColormap(model.get("colormap"));
  const paint = cellPainter();
  const colours = pageColours(el, async () => {
    font = await courseFont(el);
    draw();
  });
  const draw = () => {
    const d = model.get("d_model");
    const n = model.get("num_positions");
    const base = model.get("base");
    const ctx = sizeCanvas(canvas, WIDTH, HEIGHT);
    drawTable(ctx, paint(sinusoidalTable(n, d, base), n, d, lut, -1, 1), n, d, labels, lut, font, colours());
    const lines = readout({ d_model: d, num_positions: n, base }, labels, numbers);
    line.replaceChildren(lines[0], document.createElement("br"), lines[1]);
    canvas.setAttribute("aria-label", oneLine(fill(labels.title, { num_positions: n, d_model: d })));
  };
  return live(model, draw, sliders);
}

export default { render };
