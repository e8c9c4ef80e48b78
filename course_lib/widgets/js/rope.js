// Lesson 8's RoPE explorer: a query at position m and a key at position n, both turned by RoPE. Left,
// one pair of each as arrows in its plane; right, the score q_m · k_n at every offset m − n, a dot at
// (m, n). The JavaScript copy of course_lib.plots.rotary.rope_rotate and rope_score (the interleaved layout,
// pair i = coordinates 2i and 2i + 1, as course_lib.RotaryEmbedding's default) and of the readout's
// check, tested equal to them in tests/browser/test_explorers_lesson8.py. q and k come from Python
// (course_lib.plots.rotary.rope_vectors: torch's generator, which no browser has).

// θ_i = base^(-2i/headDim), the angle per position of pair i: frequencies.js's
export const theta = inverseFrequency;

// x turned to position p: pair (2i, 2i + 1) turned by p·θ_i, as the complex number x_2i + j·x_2i+1
// times e^(j·p·θ_i)
export function ropeRotate(x, p, base) {
  const out = new Float64Array(x.length);
  for (let i = 0; i < x.length / 2; i++) {
    const angle = p * theta(i, x.length, base);
    const [c, s] = [Math.cos(angle), Math.sin(angle)];
    out[2 * i] = x[2 * i] * c - x[2 * i + 1] * s;
    out[2 * i + 1] = x[2 * i] * s + x[2 * i + 1] * c;
  }
  return out;
}

function dot(a, b) {
  let sum = 0;
  for (let c = 0; c < a.length; c++) sum += a[c] * b[c];
  return sum;
}

// q_m · k_n: the dot product of q turned to position m and k turned to position n
export function ropeScore(q, k, m, n, base) {
  return dot(ropeRotate(q, m, base), ropeRotate(k, n, base));
}

// the score at every offset o = -maxOffset .. maxOffset, computed at positions (maxOffset + o, maxOffset)
export function scoreCurve(q, k, maxOffset, base) {
  const kn = ropeRotate(k, maxOffset, base);
  const out = [];
  for (let o = -maxOffset; o <= maxOffset; o++) out.push(dot(ropeRotate(q, maxOffset + o, base), kn));
  return out;
}

// the readout's check: the score at (m, n), and its largest difference from the score after shifting
// both positions by every s that keeps them in 0 .. last
export function shiftCheck(q, k, m, n, last, base) {
  const score = ropeScore(q, k, m, n, base);
  let error = 0;
  let shifts = 0;
  for (let s = -Math.min(m, n); s <= last - Math.max(m, n); s++) {
    error = Math.max(error, Math.abs(ropeScore(q, k, m + s, n + s, base) - score));
    shifts++;
  }
  return { score, shifts, error };
}

// the readout, as RopeExplorer.readout() writes it in Python (its last number, the error, ~1e-16, is
// libm's last bits: the browser test compares it as a number)
// and, second, how far each vector of the pair shown turned (the legend's texts)
export function readout({ q, k, m, n, pair, base, last }, labels, numbers) {
  const { score, shifts, error } = shiftCheck(q, k, m, n, last, base);
  const check = fill(labels.readout, {
    offset: formatNumber(m - n, ".0f", numbers),
    score: formatNumber(score, ".4f", numbers),
    last,
    shifts,
    err: formatNumber(Math.max(error, 1e-16), ".0e", numbers),
  });
  const th = theta(pair, q.length, base);
  const turned = [
    fill(labels.q, { m, angle: formatNumber(m * th, ".2f", numbers) }),
    fill(labels.k, { n, angle: formatNumber(n * th, ".2f", numbers) }),
  ];
  return [check, turned.join("; ")];
}

const WIDTH = 680;
const HEIGHT = 340;
const PLANE = { left: 40, top: 52, size: 200 };
const CURVE = { left: 360, top: 52, width: 300, height: 200 };
// matplotlib's tab:blue, tab:orange and tab:red, as the static figure, and its grey "0.4" for the curve
const Q_COLOUR = "#1f77b4";
const K_COLOUR = "#ff7f0e";
const DOT = "#d62728";
const CURVE_COLOUR = "#666666";
// the colours a reader must tell apart (tests/browser/test_explorer_colours.py)
export const CATEGORIES = { "q and k": [Q_COLOUR, K_COLOUR], "the score's dot on its curve": [DOT, CURVE_COLOUR] };

// ticks for an axis from lo to hi: at most `count` round numbers (1, 2 or 5 times a power of ten)
function niceTicks(lo, hi, count = 5) {
  const raw = (hi - lo) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((f) => f * power).find((s) => s >= raw);
  const out = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + 1e-9 * step; t += step) out.push(t);
  return { values: out, digits: Math.max(0, -Math.floor(Math.log10(step) + 1e-9)) };
}

function drawRope(ctx, values, curve, labels, font, colours) {
  const { q, k, m, n, pair, base, max_position: maxOffset } = values;
  const numbers = labels.numbers;
  const d = q.length;
  const qm = ropeRotate(q, m, base);
  const kn = ropeRotate(k, n, base);
  const score = dot(qm, kn);
  const th = theta(pair, d, base);

  // the plane of pair i: each arrow stays on its own circle (a rotation keeps the length)
  const { left, top, size } = PLANE;
  const radius = 1.15 * Math.max(Math.hypot(q[2 * pair], q[2 * pair + 1]), Math.hypot(k[2 * pair], k[2 * pair + 1]));
  const view = plane(ctx, PLANE, size / 2 / radius, colours);
  const { cx, cy } = view;
  ctx.strokeStyle = "#d9d9d9";
  ctx.beginPath();
  ctx.moveTo(left, cy);
  ctx.lineTo(left + size, cy);
  ctx.moveTo(cx, top);
  ctx.lineTo(cx, top + size);
  ctx.stroke();
  for (const [v, colour] of [
    [qm, Q_COLOUR],
    [kn, K_COLOUR],
  ]) {
    const [x, y] = [v[2 * pair], v[2 * pair + 1]];
    ctx.save();
    ctx.globalAlpha = 0.35;
    ring(ctx, view, Math.hypot(x, y), colour);
    ctx.restore();
    arrow(ctx, [cx, cy], view.at(x, y), colour);
  }
  ctx.fillStyle = colours.text;
  ctx.font = `12px ${font}`;
  axisTitle(ctx, fill(labels.coordinate, { c: 2 * pair }), cx, top + size + 10);
  axisTitle(ctx, fill(labels.coordinate, { c: 2 * pair + 1 }), left - 12, cy, -Math.PI / 2);
  ctx.font = `13px ${font}`;
  ctx.textAlign = "center";
  ctx.textBaseline = "bottom";
  ctx.fillText(fill(labels.pair_title, { i: pair, theta: formatNumber(th, ".4g", numbers) }), cx + 20, top - 4, 300);
  // the legend, under the plane
  ctx.font = `12px ${font}`;
  ctx.textAlign = "left";
  ctx.textBaseline = "middle";
  const legend = [
    [Q_COLOUR, fill(labels.q, { m, angle: formatNumber(m * th, ".2f", numbers) })],
    [K_COLOUR, fill(labels.k, { n, angle: formatNumber(n * th, ".2f", numbers) })],
  ];
  legend.forEach(([colour, text], row) => {
    const y = top + size + 30 + row * 18;
    ctx.fillStyle = colour;
    ctx.fillRect(8, y - 1, 18, 3);
    ctx.fillStyle = colours.text;
    ctx.fillText(text, 32, y, WIDTH / 2 - 20);
  });

  // the score at every offset, the dot at m − n
  const c = CURVE;
  const lo = Math.min(...curve, score);
  const hi = Math.max(...curve, score);
  const pad = 0.05 * (hi - lo || 1);
  const [ymin, ymax] = [lo - pad, hi + pad];
  const at = (o, s) => [
    c.left + ((o + maxOffset) / (2 * maxOffset || 1)) * c.width,
    c.top + c.height - ((s - ymin) / (ymax - ymin)) * c.height,
  ];
  ctx.strokeStyle = colours.text;
  ctx.lineWidth = 1;
  ctx.strokeRect(c.left + 0.5, c.top + 0.5, c.width, c.height);
  if (ymin < 0 && ymax > 0) {
    ctx.strokeStyle = "#d9d9d9";
    ctx.beginPath();
    ctx.moveTo(c.left, at(0, 0)[1]);
    ctx.lineTo(c.left + c.width, at(0, 0)[1]);
    ctx.stroke();
  }
  ctx.strokeStyle = CURVE_COLOUR;
  ctx.fillStyle = CURVE_COLOUR;
  ctx.lineWidth = 0.6;
  ctx.beginPath();
  curve.forEach((s, j) => (j ? ctx.lineTo(...at(j - maxOffset, s)) : ctx.moveTo(...at(j - maxOffset, s))));
  ctx.stroke();
  curve.forEach((s, j) => {
    const [x, y] = at(j - maxOffset, s);
    ctx.fillRect(x - 1.5, y - 1.5, 3, 3);
  });
  if (Math.abs(m - n) <= maxOffset) {
    const [x, y] = at(m - n, score);
    ctx.fillStyle = DOT;
    ctx.beginPath();
    ctx.arc(x, y, 5, 0, 2 * Math.PI);
    ctx.fill();
  }
  ctx.fillStyle = colours.text;
  const box = { x: c.left, y: c.top, w: c.width, h: c.height };
  ticksAlong(ctx, box, "bottom", niceTicks(-maxOffset, maxOffset).values.map((o) => [at(o, 0)[0], formatNumber(o, ".0f", numbers)]), font);
  const yticks = niceTicks(ymin, ymax);
  ticksAlong(ctx, box, "left", yticks.values.map((s) => [at(0, s)[1], formatNumber(s, `.${yticks.digits}f`, numbers)]), font);
  ctx.font = `12px ${font}`;
  axisTitle(ctx, labels.offset, c.left + c.width / 2, c.top + c.height + 30);
  axisTitle(ctx, "q_m · k_n", c.left - 44, c.top + c.height / 2, -Math.PI / 2);
  ctx.font = `13px ${font}`;
  ctx.textAlign = "center";
  ctx.textBaseline = "bottom";
  ctx.fillText(labels.curve_title, c.left + c.width / 2, c.top - 4, c.width + 20);
  // the figure's title
  ctx.textBaseline = "top";
  const heading = fill(labels.title, {
    head_dim: d,
    m,
    n,
    offset: formatNumber(m - n, ".0f", numbers),
    score: formatNumber(score, ".3f", numbers),
  });
  ctx.fillText(heading, WIDTH / 2, 4, WIDTH - 8);
}

// a labelled checkbox, operable from the keyboard (Space), as the sliders' boxes
function checkbox(parent, { name, label, value }) {
  const box = document.createElement("div");
  box.className = "course-explorer-control";
  const input = document.createElement("input");
  input.type = "checkbox";
  input.id = `${name}-${Math.random().toString(36).slice(2)}`;
  input.name = name;
  input.checked = value;
  input.style.flex = "0 0 auto"; // not stretched as the sliders are
  input.style.minWidth = "0";
  const text = document.createElement("label");
  text.htmlFor = input.id;
  text.textContent = label;
  box.append(input, text);
  parent.append(box);
  return input;
}

// the pair is one of the head's pairs (BOUNDS, from Python, bound the other settings)
const RULES = {
  pair: (get) => {
    const q = get("q");
    return { low: 0, high: Math.floor(Math.min(get("head_dim"), Array.isArray(q) ? q.length : 0) / 2) - 1 };
  },
};

async function render({ model: saved, el }) {
  // the saved values within their bounds, and a notice naming any replaced (js/common.js)
  const model = guard(saved, el, BOUNDS, RULES);
  const numbers = model.get("numbers");
  const labels = { ...model.get("labels"), numbers };
  const { controls, canvas, readout: line } = frame(el, model.get("lang"), "rope-explorer");
  let font = await courseFont(el); // read again once the explorer is in the page (pageColours)
  const sliders = {};
  for (const name of ["m", "n", "pair"]) {
    sliders[name] = slider(controls, { name, label: labels[name], min: 0, max: model.get("limits")[name], value: model.get(name) });
    // the labels are long (Russian above all): a wider box, or the value would run into the next label
    sliders[name].input.parentElement.style.flexBasis = "22em";
  }
  // the sliders' ends move when Python sets another max_position, head_dim or a position beyond them
  // (before live's listeners: the ends are right when the sliders are redrawn)
  const widen = () => {
    for (const [name, max] of Object.entries(model.get("limits"))) if (sliders[name]) sliders[name].input.max = String(max);
  };
  model.on("change:limits", widen);
  const together = checkbox(controls, { name: "together", label: labels.together, value: model.get("together") });
  together.addEventListener("change", () => {
    model.set("together", together.checked);
    model.save_changes();
  });
  const showTogether = () => {
    together.checked = model.get("together");
  };
  model.on("change:together", showTogether);
  // moving m or n with "together" ticked moves the other by as much; where the other stops at an
  // end of its slider, so does this one (a listener before live's, which then saves both)
  for (const [name, partner] of [
    ["m", "n"],
    ["n", "m"],
  ]) {
    sliders[name].input.addEventListener("input", () => {
      if (!model.get("together")) return;
      const moved = sliders[name].read();
      const target = model.get(partner) + moved - model.get(name);
      const reached = Math.min(Math.max(target, 0), model.get("limits")[partner]);
      // both in the model before live's listener saves them (a redraw shows the sliders the model's values)
      model.set(name, moved - (target - reached));
      model.set(partner, reached);
    });
  }
  // the curve changes only with q, k, base and max_position: computed again only then
  let curve = null;
  let curveOf = "";
  const curveFor = ({ q, k, base, max_position: maxOffset }) => {
    const key = [base, maxOffset, ...q, ...k].join(" ");
    if (key !== curveOf) [curve, curveOf] = [scoreCurve(q, k, maxOffset, base), key];
    return curve;
  };
  const colours = pageColours(el, async () => {
    font = await courseFont(el);
    draw();
  });
  const draw = () => {
    const values = {
      q: model.get("q"),
      k: model.get("k"),
      m: model.get("m"),
      n: model.get("n"),
      pair: model.get("pair"),
      base: model.get("base"),
      max_position: model.get("max_position"),
      last: Math.min(model.get("limits").m, model.get("limits").n),
    };
    drawRope(sizeCanvas(canvas, WIDTH, HEIGHT), values, curveFor(values), labels, font, colours());
    const lines = readout(values, labels, numbers);
    line.replaceChildren(lines[0], document.createElement("br"), lines[1]);
    canvas.setAttribute("aria-label", lines.join(" "));
  };
  // a trait with no control, set from Python, redraws too
  const fixed = ["q", "k", "base", "max_position", "limits"];
  for (const name of fixed) model.on(`change:${name}`, draw);
  const stop = live(model, draw, sliders);
  return () => {
    model.off("change:together", showTogether);
    model.off("change:limits", widen);
    for (const name of fixed) model.off(`change:${name}`, draw);
    stop();
  };
}

export default { render };
