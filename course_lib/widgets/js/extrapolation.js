// Lesson 7's extrapolation explorer: the accuracy at each position of test sequences of n tokens,
// a curve per variant, from the counts Python sends (data: per variant and position, how many test
// sequences have a target there and how many the model got right). The JavaScript copy of
// ExtrapolationExplorer.by_position and .readout, tested equal to them in
// tests/browser/test_explorers_data.py.

// right / targets over the positions from .. to - 1 (NaN without a target): what torch's nanmean
// of the 0/1 hits computes in float64, the sums being exact integers
export function share(variant, from, to) {
  let right = 0;
  let targets = 0;
  for (let p = from; p < to; p++) {
    right += variant.right[p];
    targets += variant.targets[p];
  }
  return targets ? right / targets : NaN;
}

// the accuracy at each of the first n positions
export function byPosition(variant, n) {
  return Array.from({ length: n }, (_, p) => share(variant, p, p + 1));
}

// course_lib.widgets.extrapolation.percent: whole percent, Python's round
export function percent(x) {
  return roundHalfEven(100 * x);
}

// the readout's lines, a line per variant shown, as ExtrapolationExplorer.readout() writes them
export function readout({ length: n, shown }, data, labels) {
  const L = data.train_len;
  const text = (x) => (Number.isNaN(x) ? labels.no_target : String(percent(x)));
  return data.variants
    .filter((v) => shown.includes(v.name))
    .map((v) =>
      fill(labels.readout, {
        variant: v.label,
        total: text(share(v, 0, n)),
        n,
        seen: text(share(v, 0, Math.min(L, n))),
        train_len: L,
        unseen: n > L ? fill(labels.unseen_share, { share: text(share(v, L, n)) }) : labels.no_unseen,
      }),
    );
}

const WIDTH = 512;
const HEIGHT = 348;
const MARGIN = { left: 44, right: 12, top: 40, bottom: 92 };
const Y_MAX = 1.05; // the static figure's y axis, 0 .. 1.05
// the positions training never showed: the static figure's grey "0.92" on a white page, and a grey as
// faint on a dark one (an opaque light grey would glare there)
const BAND = "rgba(128, 128, 128, 0.16)";

function drawAccuracy(ctx, { length: n, shown }, data, labels, font, colours) {
  const numbers = labels.numbers;
  const w = WIDTH - MARGIN.left - MARGIN.right;
  const h = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = (p) => MARGIN.left + (p / data.test_len) * w;
  const y = (a) => MARGIN.top + (1 - a / Y_MAX) * h;

  // grey: the positions training never showed (from train_len - 0.5), as draw_training_range
  ctx.fillStyle = BAND;
  ctx.fillRect(x(data.train_len - 0.5), MARGIN.top, x(data.test_len) - x(data.train_len - 0.5), h);
  // chance: dotted
  ctx.strokeStyle = colours.text;
  ctx.lineWidth = 1;
  ctx.setLineDash([1.5, 2.5]);
  ctx.beginPath();
  ctx.moveTo(MARGIN.left, y(data.chance));
  ctx.lineTo(MARGIN.left + w, y(data.chance));
  ctx.stroke();

  ctx.save();
  ctx.beginPath();
  ctx.rect(MARGIN.left, MARGIN.top, w, h);
  ctx.clip();
  for (const v of data.variants) {
    if (!shown.includes(v.name)) continue;
    ctx.strokeStyle = v.colour;
    // the curve, broken where a position has no target
    ctx.setLineDash([]);
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    let pen = false;
    byPosition(v, n).forEach((a, p) => {
      if (Number.isNaN(a)) pen = false;
      else if (pen) ctx.lineTo(x(p), y(a));
      else {
        ctx.moveTo(x(p), y(a));
        pen = true;
      }
    });
    ctx.stroke();
    // dashed: the accuracy over the whole sequence
    const total = share(v, 0, n);
    if (!Number.isNaN(total)) {
      ctx.setLineDash([5, 3]);
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.moveTo(x(0), y(total));
      ctx.lineTo(x(n - 1), y(total));
      ctx.stroke();
    }
  }
  ctx.restore();
  ctx.setLineDash([]);

  // axes, ticks, labels
  const box = { x: MARGIN.left, y: MARGIN.top, w, h };
  outline(ctx, box, colours);
  ticksAlong(ctx, box, "bottom", ticks(data.test_len).map((t) => [x(t), String(t)]), font);
  ticksAlong(ctx, box, "left", [0, 0.2, 0.4, 0.6, 0.8, 1].map((t) => [y(t), formatNumber(t, ".1f", numbers)]), font);
  ctx.font = `12px ${font}`;
  ctx.textAlign = "center";
  ctx.textBaseline = "top";
  ctx.fillText(labels.xlabel, MARGIN.left + w / 2, MARGIN.top + h + 20);
  axisTitle(ctx, labels.ylabel, 11, MARGIN.top + h / 2, -Math.PI / 2);
  ctx.font = `13px ${font}`;
  fill(labels.title, { n })
    .split("\n")
    .forEach((line, row) => ctx.fillText(line, WIDTH / 2, 3 + row * 17, WIDTH - 8));

  // the legend under the axes, as the static figure's: each variant shown, the grey band, chance
  const entries = [
    ...data.variants.filter((v) => shown.includes(v.name)).map((v) => ({ label: v.label, colour: v.colour })),
    { label: labels.unseen, band: true },
    { label: labels.chance, dotted: true },
  ];
  ctx.font = `11px ${font}`;
  ctx.textAlign = "left";
  ctx.textBaseline = "middle";
  let [lx, ly] = [MARGIN.left, MARGIN.top + h + 40];
  for (const e of entries) {
    const width = 24 + ctx.measureText(e.label).width + 14;
    if (lx + width > WIDTH && lx > MARGIN.left) [lx, ly] = [MARGIN.left, ly + 16];
    if (e.band) {
      ctx.fillStyle = BAND;
      ctx.fillRect(lx, ly - 5, 18, 10);
    } else {
      ctx.strokeStyle = e.colour || colours.text;
      ctx.setLineDash(e.dotted ? [1.5, 2.5] : []);
      ctx.lineWidth = e.dotted ? 1 : 1.5;
      ctx.beginPath();
      ctx.moveTo(lx, ly);
      ctx.lineTo(lx + 18, ly);
      ctx.stroke();
      ctx.setLineDash([]);
    }
    ctx.fillStyle = colours.text;
    ctx.fillText(e.label, lx + 24, ly);
    lx += width;
  }
}

// a checkbox per variant: one control for the trait `shown` (the ticked names); a tick's input
// event bubbles up to the group, which live() listens to
function checkboxes(parent, { label, options, value }) {
  const group = document.createElement("div");
  group.className = "course-explorer-checks";
  group.setAttribute("role", "group");
  group.setAttribute("aria-label", label);
  group.style.cssText = "display: flex; flex-wrap: wrap; gap: 0.2em 1em; flex: 1 1 100%;";
  const boxes = options.map(({ name, label: text }) => {
    const box = document.createElement("label");
    box.className = "course-explorer-option"; // 24 px tall at least (common.js)
    box.style.whiteSpace = "nowrap";
    const input = document.createElement("input");
    input.type = "checkbox";
    input.name = name;
    input.setAttribute("aria-label", text);
    box.append(input, " ", text);
    group.append(box);
    return input;
  });
  parent.append(group);
  const show = (ticked) => {
    for (const b of boxes) b.checked = ticked.includes(b.name);
  };
  show(value);
  return { input: group, show, read: () => boxes.filter((b) => b.checked).map((b) => b.name) };
}

// the length runs from 2 to the test length, and no further than the counts sent
function lengthRange(data) {
  const counts = (data.variants || []).flatMap((v) => [v.right, v.targets]).map((c) => (Array.isArray(c) ? c.length : 0));
  const high = Math.min(Number.isInteger(data.test_len) ? data.test_len : 2, ...counts);
  return { low: 2, high: Math.max(2, high) };
}
const RULES = { length: (get) => lengthRange(get("data")) };

async function render({ model: saved, el }) {
  // the saved values within their bounds, and a notice naming any replaced (js/common.js)
  const model = guard(saved, el, BOUNDS, RULES);
  const numbers = model.get("numbers");
  const labels = { ...model.get("labels"), numbers };
  const data = model.get("data");
  const { controls, canvas, readout: line } = frame(el, model.get("lang"), "extrapolation-explorer");
  let font = await courseFont(el); // read again once the explorer is in the page (pageColours)
  const sliders = {
    shown: checkboxes(controls, {
      label: labels.variants,
      options: data.variants.map((v) => ({ name: v.name, label: v.label })),
      value: model.get("shown"),
    }),
    length: slider(controls, { name: "length", label: labels.length, min: 2, max: lengthRange(data).high, value: model.get("length") }),
  };
  const colours = pageColours(el, async () => {
    font = await courseFont(el);
    draw();
  });
  const draw = () => {
    const values = { length: model.get("length"), shown: model.get("shown") };
    drawAccuracy(sizeCanvas(canvas, WIDTH, HEIGHT), values, data, labels, font, colours());
    const lines = readout(values, data, labels);
    line.replaceChildren(...lines.flatMap((l, k) => (k ? [document.createElement("br"), l] : [l])));
    canvas.setAttribute("aria-label", fill(labels.title, { n: values.length }).replace("\n", ". "));
  };
  return live(model, draw, sliders);
}

export default { render };
