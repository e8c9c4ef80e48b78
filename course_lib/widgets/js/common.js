// What every live explorer shares (course_lib/widgets/live.py puts this file in front of each
// explorer's own module): numbers written as the lesson's language writes them, the controls,
// the canvas, the course's font and the page's colours. No imports: the module is one string in
// the notebook's saved widget state, and it must run from there with no network.

// ----------------------------------------------------------------------------- numbers

const SUPERSCRIPT = { "-": "⁻", 0: "⁰", 1: "¹", 2: "²", 3: "³", 4: "⁴", 5: "⁵", 6: "⁶", 7: "⁷", 8: "⁸", 9: "⁹" };

// Python's rounding of a float to an integer: half to even (round(12.5) == 12)
export function roundHalfEven(x) {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

// x in the Python format spec (".1f", ",.0f", " .3f", ".4g", ".1e"), as course_lib.i18n.format_number
// writes it: Python's digits, then the language's symbols from Python (the widget's `numbers` trait,
// course_lib.i18n.number_symbols): {decimal, group, minus, power_of_ten}, power_of_ten writing
// e-notation as 2·10⁻¹⁶
export function formatNumber(x, spec, numbers) {
  const m = /^( ?)(,?)\.(\d+)([feg])$/.exec(spec);
  if (!m) throw new Error(`formatNumber: unsupported spec ${spec}`);
  const [, sign, group, digits, kind] = m;
  const p = Number(digits);
  let text;
  if (kind === "f") text = toFixed(x, p);
  else if (kind === "e") text = pythonExponent(x.toExponential(p));
  else text = formatG(x, p);
  if (group) text = text.replace(/^(-?)(\d+)/, (_, s, int) => s + int.replace(/\B(?=(\d{3})+(?!\d))/g, ","));
  if (sign && !text.startsWith("-")) text = " " + text;
  const symbol = { ",": numbers.group, ".": numbers.decimal, "-": numbers.minus };
  text = text.replace(/[,.-]/g, (c) => symbol[c]);
  const [mantissa, exponent] = text.split("e");
  if (!numbers.power_of_ten || exponent === undefined) return text;
  const power = String(Number(exponent.replace(numbers.minus, "-"))).replace(/[-0-9]/g, (c) => SUPERSCRIPT[c]);
  return `${mantissa}·10${power}`;
}

// x.toFixed(p), but an exact tie rounds to even as Python does (0.5 -> "0", 2.5 -> "2", not "1" and "3")
function toFixed(x, p) {
  const away = x.toFixed(p);
  const exact = Math.abs(x).toFixed(100); // every digit of the double, up to the 100th decimal
  const point = exact.indexOf(".");
  const rest = exact.slice(point + 1 + p);
  if (!/^50*$/.test(rest)) return away;
  const toward = exact.slice(0, p ? point + 1 + p : point);
  if (Number(toward.at(-1)) % 2 === 1) return away;
  return (x < 0 ? "-" : "") + toward;
}

function pythonExponent(text) {
  // JavaScript writes 1.0e-5 where Python writes 1.0e-05
  return text.replace(/e([+-])(\d)$/, "e$10$2");
}

function formatG(x, p) {
  if (x === 0) return "0";
  const precision = Math.max(p, 1);
  const exponent = Number(x.toExponential(precision - 1).split("e")[1]);
  if (exponent < -4 || exponent >= precision) {
    const [mantissa, e] = x.toExponential(precision - 1).split("e");
    return pythonExponent(`${stripZeros(mantissa)}e${e}`);
  }
  return stripZeros(x.toFixed(precision - 1 - exponent));
}

function stripZeros(text) {
  return text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text;
}

// "{name}" in a catalogue's template replaced by values[name] (the catalogues are Python's str.format)
export function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

// ----------------------------------------------------------------------------- page

// The explorer's box: controls that wrap on a narrow screen, a canvas, a readout read aloud on change.
export function frame(el, lang, className) {
  el.classList.add("course-explorer", className);
  el.lang = lang;
  // class names of our own: reveal.js styles .controls (its arrows) and .reveal p (40px text)
  const style = document.createElement("style");
  style.textContent = `
.jupyter-widgets.course-explorer, .course-explorer { font-family: var(--course-sans, sans-serif); font-size: 1rem; line-height: 1.4; max-width: 100%;
  /* the host's text colour, light or dark: the site's theme, else JupyterLab's (the widget renderer fixes its own) */
  color: var(--pst-color-text-base, var(--jp-content-font-color1, inherit)); }
.course-explorer-controls { display: flex; flex-wrap: wrap; gap: 0.3em 1.2em; margin: 0.3em 0; }
.course-explorer-control { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5em; flex: 1 1 16em; min-width: 0; max-width: 30em; }
.course-explorer-control label { white-space: nowrap; }
.course-explorer-control input { flex: 1 1 auto; min-width: 6em; }
.course-explorer-control output { font-variant-numeric: tabular-nums; min-width: 3.5em; text-align: right; }
.course-explorer .course-explorer-readout { font-size: 1rem; line-height: 1.4; margin: 0.3em 0; max-width: 46em; }
.course-explorer canvas { display: block; max-width: 100%; height: auto; }
/* a canvas the explorer does not draw on (lesson 2's tokens are text) stays hidden: the rule above would show
   an empty, unlabelled picture wherever the host does not enforce [hidden] (JupyterLab, the decks) */
.course-explorer canvas[hidden] { display: none; }
/* what a pointer must hit is at least 24 x 24 px (WCAG 2.2, 2.5.8), in JupyterLab, on the site and in the decks:
   a slider, a list, a text box, a tick box of its own, and the label around a choice or a tick box (a click
   on it is a click on its button) */
.course-explorer input[type=range], .course-explorer select, .course-explorer input[type=text] { min-height: 24px; }
.course-explorer .course-explorer-control > input[type=checkbox] { width: 24px; height: 24px; margin: 0; }
.course-explorer .course-explorer-option { display: inline-flex; align-items: center; gap: 0.3em; min-height: 24px; }
.course-explorer .course-explorer-notice { border-left: 3px solid #d62728; padding-left: 0.5em; margin: 0.3em 0; max-width: 46em; }
.course-explorer .course-explorer-status { font-size: 0.9rem; font-style: italic; margin: 0.3em 0; max-width: 46em; }
/* kernelStatus says it in words, or there is no kernel to connect (the site, the decks) */
.course-explorer-kernel-aware.jupyter-widgets-disconnected::before { display: none; }`;
  const controls = document.createElement("div");
  controls.className = "course-explorer-controls";
  const canvas = document.createElement("canvas");
  canvas.setAttribute("role", "img");
  const readout = document.createElement("p");
  readout.className = "course-explorer-readout";
  readout.setAttribute("aria-live", "polite");
  el.replaceChildren(style, controls, readout, canvas);
  // the arrow keys move a focused slider: not JupyterLab's cell selection nor reveal.js's slides
  controls.dataset.lmSuppressShortcuts = "true";
  controls.addEventListener("keydown", (event) => event.stopPropagation());
  return { controls, canvas, readout };
}

// A labelled range input; `toValue`/`fromValue` map between the slider's position and the value
// (a log scale for base); `format` writes the value beside it. Keyboard: the arrows, Page Up/Down,
// Home/End, as every range input.
export function slider(parent, { name, label, min, max, step = 1, value, format = String, toValue = (x) => x, fromValue = (x) => x }) {
  const box = document.createElement("div");
  box.className = "course-explorer-control";
  const input = document.createElement("input");
  input.type = "range";
  input.id = `${name}-${Math.random().toString(36).slice(2)}`;
  input.name = name;
  input.min = String(min);
  input.max = String(max);
  input.step = String(step);
  input.setAttribute("aria-label", label);
  const text = document.createElement("label");
  text.htmlFor = input.id;
  text.textContent = label;
  const out = document.createElement("output");
  out.htmlFor = input.id;
  box.append(text, input, out);
  parent.append(box);
  const show = (v) => {
    input.value = String(fromValue(v));
    out.textContent = format(v);
    input.setAttribute("aria-valuetext", format(v));
  };
  show(value);
  return {
    input,
    show,
    read: () => toValue(Number(input.value)),
  };
}

// RoPE's base on a log scale: the slider moves the exponent in steps of 10^step between the limits
// base_exponent_min and base_exponent_max (the Python side's), and shows and returns the base itself.
export function baseSlider(parent, { label, limits, value, step, format }) {
  return slider(parent, {
    name: "base",
    label,
    min: limits.base_exponent_min,
    max: limits.base_exponent_max,
    step,
    value,
    format,
    toValue: (e) => 10 ** e,
    fromValue: (b) => Math.log10(b),
  });
}

// The course's font, as the page defines it (--course-sans, or --course-mono for code), loaded
// before any text is drawn on a canvas. Read from the explorer's element: before the page attaches it
// (the widget renderers call render first), the page's properties are unknown and this is the
// fallback; pageColours reads it again once the explorer is in the page.
export async function courseFont(el, property = "--course-sans", fallback = "sans-serif") {
  const family = (el.isConnected && getComputedStyle(el).getPropertyValue(property).trim()) || fallback;
  try {
    await document.fonts.load(`12px ${family}`);
  } catch {
    // a family the page does not define: the browser's own is drawn instead
  }
  return family;
}

// A promise kept once `el` is in the document (at once if it already is)
export function attached(el) {
  return new Promise((resolve) => {
    if (el.isConnected) return resolve();
    const watch = new MutationObserver(() => {
      if (!el.isConnected) return;
      watch.disconnect();
      resolve();
    });
    watch.observe(document, { childList: true, subtree: true });
  });
}

// The page's text colour (the host's, see frame's CSS), read when the explorer is in the page, and
// `changed` (which reads the course's font again and redraws) called whenever either may have changed:
// once the explorer is attached and the page's fonts are loaded (a widget renderer calls render on a
// detached element, whose colour and properties are not the page's: a dark page once got black
// labels), when a font finishes loading, when the page switches between light and dark (the site's
// switch sets data-theme on <html>, JupyterLab's theme a class or data attribute on <body>) and when
// the system's colour scheme changes (the site's "auto" theme follows it). Reading computed style on
// every drawing would make the browser recompute the page's style inside the input handler.
export function pageColours(el, changed) {
  let current = null;
  const refresh = () => {
    current = null;
    changed();
  };
  const watch = new MutationObserver(refresh);
  for (const node of [document.documentElement, document.body]) {
    watch.observe(node, { attributes: true, attributeFilter: ["data-theme", "data-jp-theme-light", "data-jp-theme-name"] });
  }
  window.matchMedia?.("(prefers-color-scheme: dark)").addEventListener?.("change", refresh);
  document.fonts.addEventListener?.("loadingdone", refresh);
  attached(el)
    .then(() => document.fonts.ready)
    .then(refresh);
  return () => {
    if (current) return current;
    const text = el.isConnected ? getComputedStyle(el).color : "";
    if (!text) return { text: "#000" }; // not in the page yet: drawn again when it is
    current = { text };
    return current;
  };
}

// A canvas of `width` x `height` CSS pixels, sharp on a high-density screen
export function sizeCanvas(canvas, width, height) {
  const ratio = window.devicePixelRatio || 1;
  if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    canvas.style.width = `${width}px`;
  }
  const ctx = canvas.getContext("2d");
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, width, height);
  return ctx;
}

// Every explorer's life cycle: draw now and whenever a synced trait changes (a slider moved here,
// Python setting it, another view of the same model); `controls` are the sliders by trait name.
// Drawing is synchronous (the font is loaded before this is called): the input event returns
// with the picture and the readout drawn.
export function live(model, draw, controls) {
  const redraw = () => {
    for (const [name, c] of Object.entries(controls)) c.show(model.get(name));
    draw();
  };
  for (const [name, c] of Object.entries(controls)) {
    c.input.addEventListener("input", () => {
      model.set(name, c.read()); // the change event below redraws
      model.save_changes();
    });
    model.on(`change:${name}`, redraw);
  }
  redraw();
  return () => {
    for (const name of Object.keys(controls)) model.off(`change:${name}`, redraw);
  };
}

// ----------------------------------------------------------------------------- kernel

// The widget renderers mark a widget whose kernel is not connected (the class jupyter-widgets-disconnected,
// which JupyterLab shows as a red broken-chain icon before the lesson's cells run, and after the kernel
// stops). An explorer needs no kernel: in a notebook it says so instead, in the lesson's language, in a line
// under it while the mark is there (`labels.no_kernel`); in a static page (the site, a deck), where there
// is never a kernel to connect, it shows neither. Saved labels without the text keep the icon.
export function kernelStatus(el, labels) {
  const text = labels && typeof labels.no_kernel === "string" ? labels.no_kernel : null;
  if (!text) return;
  el.classList.add("course-explorer-kernel-aware");
  const line = document.createElement("p");
  line.className = "course-explorer-status";
  line.setAttribute("role", "status");
  line.textContent = text;
  let inNotebook = false;
  // the mark comes and goes with the kernel; the explorer's frame replaces its children once drawn
  const update = () => {
    const show = inNotebook && el.classList.contains("jupyter-widgets-disconnected");
    if (show && el.lastElementChild !== line) el.append(line);
    else if (!show && line.parentNode) line.remove();
  };
  new MutationObserver(update).observe(el, { attributes: true, attributeFilter: ["class"], childList: true });
  attached(el).then(() => {
    inNotebook = el.closest(".jp-NotebookPanel") !== null; // JupyterLab's notebook, not a page made from one
    update();
  });
}

// ----------------------------------------------------------------------------- saved values

// A saved notebook is input: a classmate's copy, or one edited by hand, may hold any value of a
// setting (10⁹ positions to draw, NaN, a string). Python refuses such values where each trait is
// declared (course_lib/widgets/live.py, Checked); the same bounds end this module as BOUNDS
// ({default, low, high, integer}, {default, allowed} or {default, longest}). `guard` gives the explorer a model whose get()
// returns each bounded setting within its bounds, before anything is computed from it; `rules`
// bound the settings whose range depends on another one (a pair within d_model): name -> (get) =>
// {low, high}. Every value replaced is named in a notice in the lesson's language.
export function clampValue(raw, bound) {
  if (bound.allowed) return bound.allowed.includes(raw) ? raw : bound.default;
  if (bound.longest !== undefined) return typeof raw === "string" ? raw.slice(0, bound.longest) : bound.default;
  const within = (x) => Math.min(Math.max(x, bound.low), bound.high);
  if (typeof raw !== "number" || !Number.isFinite(raw)) return within(bound.default);
  return within(bound.integer ? Math.round(raw) : raw);
}

function shownValue(x, numbers) {
  if (typeof x === "number" && Number.isFinite(x) && !Number.isInteger(x)) return formatNumber(x, ".6g", numbers);
  const text = typeof x === "string" ? JSON.stringify(x) : x === undefined ? "undefined" : JSON.stringify(x) ?? String(x);
  const shown = typeof x === "number" && !Number.isFinite(x) ? String(x) : text;
  return shown.length > 40 ? `${shown.slice(0, 39)}…` : shown;
}

export function guard(model, el, bounds, rules = {}) {
  const numbers = model.get("numbers") || { decimal: ".", group: ",", minus: "-" };
  // the message in the lesson's language (Python's labels); saved labels without it: the values alone
  const labels = model.get("labels");
  kernelStatus(el, labels);
  const clamped = labels && typeof labels.clamped === "string" ? labels.clamped : "{changes}";
  const replaced = new Map(); // "name" -> "name = saved → shown", in the order met
  const notice = document.createElement("p");
  notice.className = "course-explorer-notice";
  notice.setAttribute("role", "status");
  const record = (name, raw, value) => {
    const line = `${name} = ${shownValue(raw, numbers)} → ${shownValue(value, numbers)}`;
    if (replaced.get(name) === line) return;
    replaced.set(name, line);
    notice.textContent = fill(clamped, { changes: [...replaced.values()].join("; ") });
    if (notice.parentNode !== el) el.insertBefore(notice, el.querySelector(".course-explorer-controls"));
  };
  const boundOf = (name) => {
    const rule = rules[name];
    if (!rule) return bounds[name];
    const found = rule(get);
    if (found.allowed) return { default: found.allowed.at(-1), ...found };
    const { low, high } = found;
    const base = bounds[name] || { default: low, integer: true };
    return { ...base, low: Math.max(low, base.low ?? low), high: Math.max(low, Math.min(high, base.high ?? high)) };
  };
  const limits = () => {
    const raw = model.get("limits");
    const saved = raw && typeof raw === "object" && !Array.isArray(raw) ? raw : {};
    const out = {};
    const put = (key, bound) => {
      const value = clampValue(key in saved ? saved[key] : bound.high, { ...bound, default: bound.high });
      if (key in saved && value !== saved[key]) record(`limits.${key}`, saved[key], value);
      out[key] = value;
    };
    for (const name of new Set([...Object.keys(bounds), ...Object.keys(rules)])) {
      const bound = boundOf(name);
      if (bound.high !== undefined) put(name, bound);
    }
    if (bounds.base && bounds.base.high !== undefined) {
      const exponents = { low: Math.log10(bounds.base.low), high: Math.log10(bounds.base.high), integer: false };
      for (const key of ["base_exponent_min", "base_exponent_max"]) {
        const value = clampValue(key in saved ? saved[key] : NaN, { ...exponents, default: key.endsWith("min") ? exponents.low : exponents.high });
        if (key in saved && value !== saved[key]) record(`limits.${key}`, saved[key], value);
        out[key] = value;
      }
    }
    return out;
  };
  function get(name) {
    if (name === "limits") return limits();
    const bound = boundOf(name);
    const raw = model.get(name);
    if (!bound) return raw;
    const value = clampValue(raw, bound);
    if (value !== raw) record(name, raw, value);
    return value;
  }
  return {
    get,
    set: (name, value) => model.set(name, value),
    save_changes: () => model.save_changes(),
    on: (...args) => model.on(...args),
    off: (...args) => model.off(...args),
    notice,
  };
}
