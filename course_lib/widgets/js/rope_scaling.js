// Lesson 9's RoPE scaling explorer: how many turns each pair makes within a context of C positions,
// before and after a rope_scaling method (none, linear, dynamic, yarn, llama3), beside the turns it
// made within the training length L. ω_i = base^(-2i/headDim) comes from frequencies.js (inverseFrequencies);
// this file is the JavaScript copy of course_lib.core.model's linear_frequencies, dynamic_frequencies, yarn_frequencies,
// yarn_attention_factor and llama3_frequencies, and of course_lib.widgets.scaling's counts, tested
// equal to them in tests/browser/test_explorers_lesson9.py.

// two numbers closer than this relatively are equal (course_lib.widgets.scaling.RELATIVE)
const RELATIVE = 1e-9;

// Llama 3 (Meta's apply_scaling): wavelengths above L/low divided by s, below L/high kept, a ramp between
function llama3Frequencies(theta, s, L, low, high) {
  return theta.map((t) => {
    const wavelength = (2 * Math.PI) / t;
    if (wavelength < L / high) return t;
    if (wavelength > L / low) return t / s;
    const smooth = (L / wavelength - low) / (high - low);
    return (1 - smooth) * (t / s) + smooth * t;
  });
}

// YaRN's NTK-by-parts (Peng et al. 2023): pairs making more than beta_fast (32) turns within L kept,
// fewer than beta_slow (1) divided by s, a ramp linear in i between (truncated to whole pairs)
function yarnFrequencies(theta, base, s, L, betaFast = 32, betaSlow = 1) {
  const d = 2 * theta.length;
  const pairMaking = (turns) => (d * Math.log(L / (turns * 2 * Math.PI))) / (2 * Math.log(base));
  let low = Math.max(Math.floor(pairMaking(betaFast)), 0);
  let high = Math.min(Math.ceil(pairMaking(betaSlow)), d - 1);
  if (low === high) high += 0.001;
  return theta.map((t, i) => {
    const gamma = 1 - Math.min(Math.max((i - low) / (high - low), 0), 1);
    return (1 - gamma) * (t / s) + gamma * t;
  });
}

// YaRN's factor for cos and sin: 0.1 ln s + 1
export function yarnAttentionFactor(s) {
  return s > 1 ? 0.1 * Math.log(s) + 1 : 1;
}

// κ_ℓ, the factor "dynamic" runs with at the length C (1 up to L): course_lib.core.model.dynamic_factor
const dynamicFactor = (s, L, C) => (s * Math.max(C, L)) / L - (s - 1);

// ω'_i of `method` ("none", "linear", "dynamic", "yarn", "llama3") and the factor for cos and sin;
// "dynamic" at the length `seqLen` (its base raised once seqLen passes L)
export function scaledFrequencies(v) {
  const { head_dim: d, base, method, factor: s, original_len: L } = v;
  const theta = inverseFrequencies(d, base);
  if (method === "none") return { theta, attention: 1 };
  if (method === "linear") return { theta: theta.map((t) => t / s), attention: 1 };
  if (method === "dynamic") {
    const st = dynamicFactor(s, L, v.context);
    return { theta: inverseFrequencies(d, base * st ** (d / (d - 2))), attention: 1 };
  }
  if (method === "llama3") {
    return { theta: llama3Frequencies(theta, s, L, v.low_freq_factor, v.high_freq_factor), attention: 1 };
  }
  return { theta: yarnFrequencies(theta, base, s, L), attention: yarnAttentionFactor(s) };
}

// turns within C before and after scaling, within L before (training): RopeScalingExplorer.turns()
export function turns(v) {
  const before = inverseFrequencies(v.head_dim, v.base);
  const { theta: after } = scaledFrequencies(v);
  const per = (n, theta) => theta.map((t) => (n * t) / (2 * Math.PI));
  return { before: per(v.context, before), after: per(v.context, after), trained: per(v.original_len, before) };
}

// the pairs that meet angles never seen in training, without and with scaling: RopeScalingExplorer.unseen()
export function unseen(v) {
  const { before, after, trained } = turns(v);
  const partial = (i) => trained[i] < 1 - RELATIVE;
  const past = (x, i) => partial(i) && x > trained[i] * (1 + RELATIVE);
  return { before: Array.from(before, past), after: Array.from(after, past) };
}

// pairs that keep their frequency, are divided by s, or lie between, and of those between the ones
// slowed more than s times ("dynamic" past κ L): RopeScalingExplorer.counts()
export function counts(v) {
  const before = inverseFrequencies(v.head_dim, v.base);
  const { theta: after } = scaledFrequencies(v);
  const found = { kept: 0, divided: 0, between: 0, beyond: 0 };
  after.forEach((t, i) => {
    const ratio = t / before[i];
    if (Math.abs(ratio - 1) <= RELATIVE) found.kept += 1;
    else if (Math.abs(ratio * v.factor - 1) <= RELATIVE) found.divided += 1;
    else {
      found.between += 1;
      if (ratio * v.factor < 1 - RELATIVE) found.beyond += 1;
    }
  });
  return found;
}

// a length or a base as course_lib.i18n.format_positions writes it: 6.3, 2048 and 131 072
const formatPositions = (x, numbers) => formatNumber(x, x < 100 ? ".1f" : x < 10000 ? ".0f" : ",.0f", numbers);

const sum = (flags) => flags.filter(Boolean).length;

// the readout, as RopeScalingExplorer.readout() writes it in Python
export function readout(v, labels, numbers) {
  const { attention } = scaledFrequencies(v);
  const marks = unseen(v);
  const found = counts(v);
  const kl = formatNumber(dynamicFactor(v.factor, v.original_len, v.context), ".6g", numbers);
  // past L the pairs between are slowed up to κ_ℓ times, which may exceed κ
  const range = found.between ? fill(labels.dynamic_range, { kl, beyond: found.beyond }) : "";
  return fill(labels.readout, {
    method: labels[`method_${v.method}`],
    base: formatPositions(v.base, numbers),
    factor: formatNumber(v.factor, ".6g", numbers),
    original: formatPositions(v.original_len, numbers),
    context: formatPositions(v.context, numbers),
    pairs: v.head_dim / 2,
    attention: v.method === "yarn" ? fill(labels.attention, { value: formatNumber(attention, ".4f", numbers) }) : "",
    llama3:
      v.method === "llama3"
        ? fill(labels.llama3, {
            short: formatPositions(v.original_len / v.high_freq_factor, numbers),
            long: formatPositions(v.original_len / v.low_freq_factor, numbers),
          })
        : "",
    dynamic: v.method === "dynamic" ? fill(labels.dynamic, { kl }) + range : "",
    unseen: sum(marks.after),
    unseen_before: sum(marks.before),
    ...found,
  });
}

// the picture's title, as RopeScalingExplorer.title() writes it
export function title(v, labels, numbers) {
  return fill(labels.title, { context: formatPositions(v.context, numbers), method: labels[`method_${v.method}`] });
}

const AFTER = "#d55e00"; // after scaling: vermillion (Okabe and Ito's palette)
const TRAINED = "#0072b2"; // in training: blue
export const CATEGORIES = { "after scaling and in training": [AFTER, TRAINED] };

const WIDTH = 600;
const HEIGHT = 396;
// the plot area: the title above, the marks of unseen angles, the axes' labels left, right and below, the key
const BOX = { x: 62, y: 46, w: WIDTH - 62 - 78, h: 252 };
const STRIP = 12;

// 10ⁿ as a tick label: 1, 10, 10², 10⁻³
function power(n, numbers) {
  if (n === 0) return "1";
  if (n === 1) return "10";
  return `10${String(n).replace("-", "⁻").replace(/\d/g, (c) => SUPERSCRIPT[c])}`;
}

// every `step`-th integer of lo .. hi, at most about seven
function decades(lo, hi) {
  const step = Math.max(1, Math.ceil((hi - lo) / 7));
  const out = [];
  for (let k = Math.ceil(lo / step) * step; k <= hi; k += step) out.push(k);
  return out;
}

function drawScaling(ctx, v, labels, font, colours) {
  const numbers = labels.numbers;
  const { before, after, trained } = turns(v);
  const pairs = before.length;
  const { x, y, w, h } = BOX;
  const all = [...before, ...after, ...trained];
  let lo = Math.floor(Math.log10(Math.min(...all)));
  let hi = Math.ceil(Math.log10(Math.max(...all)));
  if (hi <= lo) hi = lo + 1;
  const px = (i) => x + ((i + 0.5) / pairs) * w;
  const py = (value) => y + h - ((Math.log10(value) - lo) / (hi - lo)) * h;

  outline(ctx, { x, y: y - STRIP, w, h: h + STRIP }, colours);
  ticksAlong(ctx, BOX, "bottom", ticks(pairs - 1).map((t) => [px(t), String(t)]), font);
  ticksAlong(ctx, BOX, "left", decades(lo, hi).map((k) => [py(10 ** k), power(k, numbers), k === 0]), font);
  // the right axis: the same curves read as ω_i = turns · 2π / C
  const scale = v.context / (2 * Math.PI);
  const thetaLo = Math.ceil(lo - Math.log10(scale));
  const thetaHi = Math.floor(hi - Math.log10(scale));
  const right = decades(thetaLo, thetaHi).map((k) => [y + h - ((k + Math.log10(scale) - lo) / (hi - lo)) * h, power(k, numbers)]);
  ticksAlong(ctx, BOX, "right", right, font);

  // one turn: a pair that reaches it in training has seen every angle
  if (lo < 0 && hi > 0) {
    ctx.save();
    ctx.strokeStyle = colours.text;
    ctx.globalAlpha = 0.5;
    ctx.setLineDash([2, 3]);
    ctx.beginPath();
    ctx.moveTo(x, py(1));
    ctx.lineTo(x + w, py(1));
    ctx.stroke();
    ctx.restore();
  }
  const curve = (values, colour, dash, width) => {
    ctx.save();
    ctx.strokeStyle = colour;
    ctx.lineWidth = width;
    ctx.setLineDash(dash);
    ctx.beginPath();
    values.forEach((value, i) => (i ? ctx.lineTo(px(i), py(value)) : ctx.moveTo(px(i), py(value))));
    ctx.stroke();
    ctx.restore();
  };
  curve(trained, TRAINED, [1.5, 2.5], 2);
  curve(before, colours.text, [6, 4], 1.5);
  curve(after, AFTER, [], 2.5);

  // the pairs that meet angles not seen in training after scaling: a triangle above each
  ctx.fillStyle = colours.text;
  unseen(v).after.forEach((marked, i) => {
    if (!marked) return;
    ctx.beginPath();
    ctx.moveTo(px(i) - 3.5, y - STRIP + 3);
    ctx.lineTo(px(i) + 3.5, y - STRIP + 3);
    ctx.lineTo(px(i), y - 2);
    ctx.closePath();
    ctx.fill();
  });

  ctx.font = `12px ${font}`;
  ctx.textAlign = "center";
  ctx.textBaseline = "top";
  ctx.fillText(labels.xlabel, x + w / 2, y + h + 20);
  axisTitle(ctx, labels.ylabel, 12, y + h / 2, -Math.PI / 2);
  axisTitle(ctx, labels.ylabel_right, WIDTH - 10, y + h / 2, Math.PI / 2);
  ctx.font = `13px ${font}`;
  ctx.textAlign = "center";
  ctx.textBaseline = "top";
  ctx.fillText(title(v, labels, numbers), WIDTH / 2, 6, WIDTH - 8);

  // the key, under the axis: each series' line, then its name in the page's colour
  ctx.font = `12px ${font}`;
  ctx.textAlign = "left";
  ctx.textBaseline = "middle";
  const keys = [
    [labels.before, colours.text, [6, 4], 1.5],
    [labels.after, AFTER, [], 2.5],
    [labels.trained, TRAINED, [1.5, 2.5], 2],
  ];
  let at = x;
  let row = y + h + 52;
  for (const [text, colour, dash, width] of keys) {
    if (at > x && at + 27 + ctx.measureText(text).width > WIDTH - 4) {
      at = x; // the next line: a long key (Russian's) does not run off the canvas
      row += 18;
    }
    ctx.save();
    ctx.strokeStyle = colour;
    ctx.lineWidth = width;
    ctx.setLineDash(dash);
    ctx.beginPath();
    ctx.moveTo(at, row);
    ctx.lineTo(at + 22, row);
    ctx.stroke();
    ctx.restore();
    ctx.fillStyle = colours.text;
    ctx.fillText(text, at + 27, row);
    at += 27 + ctx.measureText(text).width + 16;
  }
}

// settings whose range depends on another: low_freq_factor below high_freq_factor
const RULES = {
  low_freq_factor: (get) => ({ low: BOUNDS.low_freq_factor.low, high: get("high_freq_factor") * (1 - RELATIVE) }),
};
// the settings a preset sets (course_lib.widgets.scaling.preset_settings)
const SETTINGS = ["head_dim", "base", "context", "method", "factor", "original_len", "low_freq_factor", "high_freq_factor"];
const STEP = 0.5; // of the factor sliders

// A saved preset is input too: only names with every setting within its bounds become buttons
function checkedPresets(raw) {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return [];
  return Object.entries(raw).filter(
    ([, p]) =>
      p && typeof p === "object" && SETTINGS.every((name) => name in p && clampValue(p[name], BOUNDS[name]) === p[name]) &&
      p.low_freq_factor < p.high_freq_factor,
  );
}

function presetButtons(parent, label, presets, apply) {
  const box = document.createElement("div");
  box.className = "course-explorer-control course-explorer-choice";
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", label);
  box.style.maxWidth = "none";
  box.style.flexBasis = "100%";
  const text = document.createElement("span");
  text.textContent = label;
  box.append(text);
  for (const [name, settings] of presets) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = name;
    button.dataset.preset = name;
    button.style.minHeight = "24px";
    button.addEventListener("click", () => apply(settings));
    box.append(button);
  }
  parent.append(box);
}

async function render({ model: saved, el }) {
  // the saved values within their bounds, and a notice naming any replaced (js/common.js)
  const model = guard(saved, el, BOUNDS, RULES);
  const numbers = model.get("numbers");
  const labels = { ...model.get("labels"), numbers };
  const { controls, canvas, readout: line } = frame(el, model.get("lang"), "rope-scaling-explorer");
  // the preset buttons in the course's font (a button does not inherit it); on a slide (reveal.js, 700 px
  // tall) eight controls and the picture share one screen: the picture drawn smaller, its proportions
  // kept, and the sliders three to a row
  const compact = document.createElement("style");
  compact.textContent = `
.rope-scaling-explorer button { font: inherit; }
.reveal .rope-scaling-explorer canvas { max-height: 230px; width: auto; }
.reveal .rope-scaling-explorer .course-explorer-control { flex-basis: 14em; }`;
  el.append(compact);
  let font = await courseFont(el);
  const limits = model.get("limits");
  const lengths = { min: Math.log2(BOUNDS.context.low), max: Math.log2(BOUNDS.context.high) };
  presetButtons(controls, labels.preset, checkedPresets(saved.get("presets")), (settings) => {
    for (const name of SETTINGS) model.set(name, settings[name]);
    model.save_changes();
  });
  const power2 = (name) =>
    slider(controls, {
      name,
      label: labels[name],
      min: lengths.min,
      max: lengths.max,
      step: 1,
      value: model.get(name),
      format: (n) => formatPositions(n, numbers),
      toValue: (e) => 2 ** e,
      fromValue: (n) => Math.log2(n),
    });
  const factor = (name, min, value) =>
    slider(controls, {
      name,
      label: labels[name],
      min,
      max: BOUNDS[name].high,
      step: STEP,
      value,
      format: (s) => formatNumber(s, ".6g", numbers),
    });
  const sliders = {
    method: radios(controls, {
      name: "method",
      label: labels.method,
      options: BOUNDS.method.allowed.map((m) => [m, labels[`method_${m}`]]),
      value: model.get("method"),
    }),
    base: baseSlider(controls, {
      label: labels.base,
      limits,
      step: 0.1,
      value: model.get("base"),
      format: (b) => formatPositions(b, numbers),
    }),
    factor: factor("factor", BOUNDS.factor.low, model.get("factor")),
    original_len: power2("original_len"),
    context: power2("context"),
    low_freq_factor: factor("low_freq_factor", BOUNDS.low_freq_factor.low, model.get("low_freq_factor")),
    high_freq_factor: factor("high_freq_factor", BOUNDS.high_freq_factor.low, model.get("high_freq_factor")),
  };
  // llama3's factors stay in order: moving one past the other pushes the other along, within its slider;
  // and they are llama3's alone: moving one under another method shows llama3, which reads them
  const ordered = (name, other, direction) => {
    const read = sliders[name].read;
    sliders[name].read = () => {
      let value = read(); // before any model.set: its redraw shows the model's values in the sliders
      if (model.get("method") !== "llama3") model.set("method", "llama3");
      const bound = BOUNDS[other];
      const current = model.get(other);
      if (direction * (value - current) >= 0) {
        const moved = Math.min(Math.max(value + direction * STEP, bound.low), bound.high);
        if (direction * (value - moved) >= 0) value = moved - direction * STEP;
        model.set(other, moved);
      }
      return value;
    };
  };
  ordered("low_freq_factor", "high_freq_factor", 1);
  ordered("high_freq_factor", "low_freq_factor", -1);
  const colours = pageColours(el, async () => {
    font = await courseFont(el);
    draw();
  });
  const draw = () => {
    const v = {};
    for (const name of SETTINGS) v[name] = model.get(name);
    v.head_dim = 2 * Math.floor(v.head_dim / 2); // a saved odd width: the pairs it has
    drawScaling(sizeCanvas(canvas, WIDTH, HEIGHT), v, labels, font, colours());
    line.textContent = readout(v, labels, numbers);
    canvas.setAttribute("aria-label", title(v, labels, numbers));
  };
  // a trait with no control, set from Python or by a preset, redraws too
  model.on("change:head_dim", draw);
  const stop = live(model, draw, sliders);
  return () => {
    model.off("change:head_dim", draw);
    stop();
  };
}

export default { render };
