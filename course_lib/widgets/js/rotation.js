// Lesson 5's rotation explorer: the pair of columns (2i, 2i + 1) of the sinusoidal table as a point on
// the unit circle, at pos and at pos + k. The JavaScript copy of course_lib.plots.table.draw_rotation's
// maths and RotationExplorer.readout's check, tested equal to them in tests/browser/test_explorers.py.

// the angle per position of the pair i: ω = base^(-2i/d_model), frequencies.js's
const omega = inverseFrequency;

// the pair (sin, cos) of P[pos] for the pair i
export function pair(pos, i, d, base) {
  const angle = pos * omega(i, d, base);
  return [Math.sin(angle), Math.cos(angle)];
}

// R(k) applied to the pair of P[pos]: [[c, s], [-s, c]] @ (sin, cos), and its largest
// difference from the pair of P[pos + k]
export function rotationCheck(pos, k, i, d, base) {
  const phi = k * omega(i, d, base);
  const [c, s] = [Math.cos(phi), Math.sin(phi)];
  const [a, b] = pair(pos, i, d, base);
  const turned = [c * a + s * b, -s * a + c * b];
  const later = pair(pos + k, i, d, base);
  return Math.max(Math.abs(turned[0] - later[0]), Math.abs(turned[1] - later[1]));
}

// the check's largest difference: 0 when exact (not 0.0e+00, «0,0·10⁰»), as table.py's error_text
export function errorText(error, numbers) {
  return error === 0 ? "0" : formatNumber(error, ".1e", numbers);
}

export function readout({ pos, k, i, d_model: d, base }, labels, numbers) {
  const w = omega(i, d, base);
  return fill(labels.readout, {
    omega: formatNumber(w, ".4g", numbers),
    angle: formatNumber(k * w, ".4f", numbers),
    pos,
    pos_k: pos + k,
    err: errorText(rotationCheck(pos, k, i, d, base), numbers),
  });
}

const WIDTH = 512;
const HEIGHT = 300;
// matplotlib's tab:blue and tab:orange, as the static figure, and its grey "0.6" for the other positions
const BLUE = "#1f77b4";
const ORANGE = "#ff7f0e";
const GREY = "#999999";
// the colours a reader must tell apart (tests/browser/test_explorer_colours.py)
export const CATEGORIES = { "pos, pos + k and the other positions": [BLUE, ORANGE, GREY] };
const PLANE = { left: 50, top: 34, size: 230 };
const ARROW = { head: 9, spread: 0.4, inset: 0 }; // a slimmer head than RoPE's, the shaft up to the tip

function drawRotation(ctx, { pos, k, i, d_model: d, base }, labels, font, colours) {
  const numbers = labels.numbers;
  const w = omega(i, d, base);
  const { left, top, size } = PLANE;
  const view = plane(ctx, PLANE, size / 2.6, colours); // the axes run from -1.3 to 1.3, as the static figure's
  const { cx, cy, at } = view;
  ring(ctx, view, 1, "#d9d9d9");
  // every position on the circle: a fixed step of ω
  ctx.fillStyle = GREY;
  for (let p = 0; p <= pos + k; p++) {
    const [x, y] = at(Math.sin(p * w), Math.cos(p * w));
    ctx.fillRect(x - 1.5, y - 1.5, 3, 3);
  }
  const shown = [
    [pos, BLUE, labels.at_pos],
    [pos + k, ORANGE, labels.at_pos_k],
  ];
  for (const [p, colour] of shown) {
    const [x, y] = at(Math.sin(p * w), Math.cos(p * w));
    arrow(ctx, [cx, cy], [x, y], colour, ARROW);
    ctx.beginPath();
    ctx.arc(x, y, 4, 0, 2 * Math.PI);
    ctx.fill();
  }

  ctx.fillStyle = colours.text;
  const box = { x: left, y: top, w: size, h: size };
  ticksAlong(ctx, box, "bottom", [-1, 0, 1].map((t) => [at(t, 0)[0], formatNumber(t, ".0f", numbers)]), font, 0);
  ticksAlong(ctx, box, "left", [-1, 0, 1].map((t) => [at(0, t)[1], formatNumber(t, ".0f", numbers)]), font, 0);
  ctx.font = `12px ${font}`;
  ctx.textAlign = "center";
  ctx.textBaseline = "bottom";
  ctx.fillText(`P[pos, ${2 * i}] = sin`, cx, HEIGHT - 2);
  axisTitle(ctx, `P[pos, ${2 * i + 1}] = cos`, 14, cy, -Math.PI / 2);
  const angle = k * w;
  ctx.font = `13px ${font}`;
  ctx.textBaseline = "top";
  ctx.fillText(fill(labels.title, { i, k, angle: formatNumber(angle, ".3f", numbers) }), WIDTH / 2, 4, WIDTH - 8);

  // the legend and the matrix, right of the circle
  const x0 = left + size + 16;
  ctx.textAlign = "left";
  ctx.font = `12px ${font}`;
  shown.forEach(([p, colour, label], row) => {
    const y = top + 10 + row * 20;
    ctx.fillStyle = colour;
    ctx.beginPath();
    ctx.arc(x0 + 6, y, 4, 0, 2 * Math.PI);
    ctx.fill();
    ctx.fillStyle = colours.text;
    ctx.textBaseline = "middle";
    ctx.fillText(fill(label, { pos: p }), x0 + 16, y);
  });
  ctx.textBaseline = "top";
  labels.matrix.split("\n").forEach((line, row) => ctx.fillText(line, x0, top + 70 + row * 16));
  const [c, s] = [Math.cos(angle), Math.sin(angle)];
  const [fc, fs, fms] = [c, s, -s].map((x) => formatNumber(x, " .3f", numbers));
  ctx.font = `12px ${labels.mono}`;
  [`φ = k·ω = ${formatNumber(angle, ".3f", numbers)}`, `[${fc} ${fs}]`, `[${fms} ${fc}]`].forEach((line, row) =>
    ctx.fillText(line, x0, top + 116 + row * 16),
  );
}

// the pair i is one of d_model's pairs (BOUNDS, from Python, bound the other settings)
const RULES = { i: (get) => ({ low: 0, high: Math.floor(get("d_model") / 2) - 1 }) };

async function render({ model: saved, el }) {
  // the saved values within their bounds, and a notice naming any replaced (js/common.js)
  const model = guard(saved, el, BOUNDS, RULES);
  const numbers = model.get("numbers");
  const labels = { ...model.get("labels"), numbers };
  const { controls, canvas, readout: line } = frame(el, model.get("lang"), "rotation-explorer");
  let font = await courseFont(el); // read again once the explorer is in the page (pageColours)
  labels.mono = await courseFont(el, "--course-mono", "monospace");
  const limits = model.get("limits");
  const sliders = {};
  for (const name of ["pos", "k", "i"]) {
    sliders[name] = slider(controls, { name, label: labels[name], min: 0, max: limits[name], value: model.get(name) });
  }
  const colours = pageColours(el, async () => {
    font = await courseFont(el);
    labels.mono = await courseFont(el, "--course-mono", "monospace");
    draw();
  });
  const draw = () => {
    const values = {
      pos: model.get("pos"),
      k: model.get("k"),
      i: model.get("i"),
      d_model: model.get("d_model"),
      base: model.get("base"),
    };
    drawRotation(sizeCanvas(canvas, WIDTH, HEIGHT), values, labels, font, colours());
    line.textContent = readout(values, labels, numbers);
    canvas.setAttribute("aria-label", line.textContent);
  };
  return live(model, draw, sliders);
}

export default { render };
