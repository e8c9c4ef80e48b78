// What a plot on a canvas has around it (course_lib/widgets/live.py puts this file after common.js for
// the explorers that draw one): round ticks, the outline of the plot area, ticks and their labels along
// its sides, axis titles. A plot area is a box {x, y, w, h} of CSS pixels.

// Ticks for an axis from 0 to `last`: at most `count` round numbers (1, 2 or 5 times a power of ten)
export function ticks(last, count = 5) {
  if (last <= 0) return [0];
  const raw = last / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((f) => f * power).find((s) => s >= raw);
  const out = [];
  for (let t = 0; t <= last + 1e-9; t += step) out.push(Math.round(t));
  return out;
}

// The plot area's outline, and the page's text colour for what is drawn around it next
export function outline(ctx, { x, y, w, h }, colours) {
  ctx.fillStyle = colours.text;
  ctx.strokeStyle = colours.text;
  ctx.lineWidth = 1;
  ctx.strokeRect(x + 0.5, y + 0.5, w - 1, h - 1);
}

// Ticks along one side of the box ("bottom", "left" or "right"), in the current fill colour: each
// [at, text] or [at, text, bold] at the pixel `at` along that side, a mark `mark` pixels long across
// it, and the text 2 pixels beyond the mark (4 from the side when there is none), in 11px `font`
export function ticksAlong(ctx, { x, y, w, h }, side, marks, font, mark = 4) {
  const gap = mark ? mark + 2 : 4;
  ctx.textAlign = { bottom: "center", left: "right", right: "left" }[side];
  ctx.textBaseline = side === "bottom" ? "top" : "middle";
  for (const [at, text, bold] of marks) {
    ctx.font = `${bold ? "bold " : ""}11px ${font}`;
    if (side === "bottom") {
      if (mark) ctx.fillRect(at, y + h, 1, mark);
      ctx.fillText(text, at, y + h + gap);
    } else if (side === "left") {
      if (mark) ctx.fillRect(x - mark, at, mark, 1);
      ctx.fillText(text, x - gap, at);
    } else {
      if (mark) ctx.fillRect(x + w, at, mark, 1);
      ctx.fillText(text, x + w + gap, at);
    }
  }
}

// `text` centred on (x, y) in the current font and fill colour, turned by `angle` (-π/2: read
// upwards, as a y axis's title; π/2: downwards, as a title on the right). With `key`, the title of a
// series drawn in its own colour: the title moves 10 pixels on, and key(x) draws the series' mark
// centred at x, before the title, on its line (the turned frame's y = 0); the title stays in the
// page's colour, which reads on a dark page where a series' colour may not
export function axisTitle(ctx, text, x, y, angle = 0, key = null) {
  ctx.save();
  ctx.translate(x, y);
  if (angle) ctx.rotate(angle);
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  if (key) {
    const width = ctx.measureText(text).width;
    ctx.fillText(text, 10, 0);
    key(10 - width / 2 - 14);
  } else {
    ctx.fillText(text, 0, 0);
  }
  ctx.restore();
}
