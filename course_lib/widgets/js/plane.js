// A pair of numbers drawn as a vector in its plane (course_lib/widgets/live.py puts this file after
// common.js and axes.js for lesson 5's rotation and lesson 8's RoPE pair): the square plane with the
// origin in its centre, circles about the origin, arrows from it.

// The square {left, top, size} outlined in the page's text colour, `scale` pixels per unit of the
// plane: its centre on the canvas, and where the point (x, y) of the plane is drawn (y up)
export function plane(ctx, { left, top, size }, scale, colours) {
  ctx.strokeStyle = colours.text;
  ctx.lineWidth = 1;
  ctx.strokeRect(left + 0.5, top + 0.5, size, size);
  const cx = left + size / 2;
  const cy = top + size / 2;
  return { cx, cy, scale, at: (x, y) => [cx + x * scale, cy - y * scale] };
}

// The circle of radius r (in the plane's units) about the origin, in `colour`
export function ring(ctx, { cx, cy, scale }, r, colour) {
  ctx.strokeStyle = colour;
  ctx.beginPath();
  ctx.arc(cx, cy, r * scale, 0, 2 * Math.PI);
  ctx.stroke();
}

// An arrow from `from` to `to` ([x, y] on the canvas) in `colour`: a shaft 2 pixels wide that stops
// `inset` pixels before the tip (its square end hidden in the head), and a head `head` pixels long
// whose sides leave the shaft's line at ±`spread` radians
export function arrow(ctx, [x0, y0], [x1, y1], colour, { head = 10, spread = 0.35, inset = 6 } = {}) {
  ctx.strokeStyle = colour;
  ctx.fillStyle = colour;
  ctx.lineWidth = 2;
  const a = Math.atan2(y1 - y0, x1 - x0);
  ctx.beginPath();
  ctx.moveTo(x0, y0);
  ctx.lineTo(x1 - inset * Math.cos(a), y1 - inset * Math.sin(a));
  ctx.stroke();
  ctx.beginPath();
  ctx.moveTo(x1, y1);
  ctx.lineTo(x1 - head * Math.cos(a - spread), y1 - head * Math.sin(a - spread));
  ctx.lineTo(x1 - head * Math.cos(a + spread), y1 - head * Math.sin(a + spread));
  ctx.closePath();
  ctx.fill();
}
