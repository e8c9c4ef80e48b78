// A heatmap on a canvas, as course_lib.plots draws one with imshow (course_lib/widgets/live.py puts
// this file after common.js and axes.js for the explorers that draw one): the cells, one pixel each,
// scaled to the plot area, and a colour bar with its ticks. drawHeatmap puts them together with row
// labels on the left (row 0 on top), the columns' ticks below, a title, optionally a number in each cell.

// "rrggbb" x 256 (matplotlib's colormap, from Python: live.colormap_hex) -> [r, g, b] x 256
export function parseColormap(hex) {
  const lut = new Uint8ClampedArray(256 * 3);
  for (let k = 0; k < 256 * 3; k++) lut[k] = parseInt(hex.substr(2 * k, 2), 16);
  return lut;
}

// matplotlib's colour index of v on [vmin, vmax]: (v - vmin) / (vmax - vmin) * N, clipped to 0 .. N - 1
export function colourIndex(v, vmin, vmax) {
  return Math.min(255, Math.max(0, Math.floor(((v - vmin) / (vmax - vmin)) * 256)));
}

// "#ffffff" or "#000000", whichever has the higher WCAG 2.2 contrast ratio with the colour lut[at .. at + 2]
export function textColour(lut, at) {
  const linear = [0, 1, 2].map((c) => {
    const x = lut[at + c] / 255;
    return x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2];
  return 1.05 / (luminance + 0.05) > (luminance + 0.05) / 0.05 ? "#ffffff" : "#000000";
}

// paint(values, rows, cols, lut, vmin, vmax): the cells of `values` (rows x cols, row-major) as an
// image, one pixel per cell. A painter keeps its pixels from one drawing to the next while the shape
// stays: lesson 5's table repaints up to 1024 x 512 cells at every move of a slider.
export function cellPainter() {
  let cells = null;
  let image = null;
  return (values, rows, cols, lut, vmin, vmax) => {
    if (!cells || cells.width !== cols || cells.height !== rows) {
      cells = new ImageData(cols, rows);
      image = new OffscreenCanvas(cols, rows);
    }
    const px = cells.data;
    for (let k = 0; k < rows * cols; k++) {
      const idx = 3 * colourIndex(values[k], vmin, vmax);
      const at = 4 * k;
      px[at] = lut[idx];
      px[at + 1] = lut[idx + 1];
      px[at + 2] = lut[idx + 2];
      px[at + 3] = 255;
    }
    image.getContext("2d").putImageData(cells, 0, 0);
    return image;
  };
}

// The cells' image scaled to the box: smoothed when its cells are smaller than the screen's pixels
// both ways (as matplotlib's antialiased imshow), sharp when they are larger either way
export function drawCells(ctx, image, { x, y, w, h }) {
  ctx.imageSmoothingEnabled = !(image.height < h || image.width < w);
  ctx.drawImage(image, x, y, w, h);
}

// The colour bar in the box {x, y, w, h}: vmin at the bottom, vmax on top, its ticks on the right
// (a mark `mark` pixels long, none if 0), outlined or not, and its label turned downwards at labelX
// spec: {lut, vmin, vmax}; bar: {ticks, format, label, labelX, mark, outline}
export function drawColourBar(ctx, box, { lut, vmin, vmax }, bar, font, colours) {
  const { x, y, w, h } = box;
  const pixels = new ImageData(1, 256);
  for (let k = 0; k < 256; k++) pixels.data.set([lut[3 * k], lut[3 * k + 1], lut[3 * k + 2], 255], 4 * (255 - k));
  const image = new OffscreenCanvas(1, 256);
  image.getContext("2d").putImageData(pixels, 0, 0);
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(image, x, y, w, h);
  ctx.fillStyle = colours.text;
  ctx.strokeStyle = colours.text;
  if (bar.outline) ctx.strokeRect(x + 0.5, y + 0.5, w - 1, h - 1);
  const span = vmax - vmin || 1; // one value: every tick at vmax, on top
  const marks = bar.ticks.map((v) => [y + ((vmax - v) / span) * h, bar.format(v)]);
  ticksAlong(ctx, box, "right", marks, font, bar.mark ?? 3);
  if (bar.label) axisTitle(ctx, bar.label, bar.labelX ?? x + w + 52, y + h / 2, Math.PI / 2);
}

// Draws the heatmap in the box {x, y, w, h} of ctx (the plot area itself; labels go around it).
// spec: {values, rows, cols, lut, vmin, vmax, rowLabels, colTicks, xlabel, ylabel, title,
//        colorbar: {label, ticks, format} or null, cellText: (v) => string or null}
export function drawHeatmap(ctx, box, spec, font, colours) {
  const { x, y, w, h } = box;
  const { values, rows, cols, lut, vmin, vmax } = spec;
  drawCells(ctx, cellPainter()(values, rows, cols, lut, vmin, vmax), box);
  outline(ctx, box, colours);
  ticksAlong(ctx, box, "left", spec.rowLabels.map((label, r) => [y + ((r + 0.5) / rows) * h, label]), font);
  ticksAlong(ctx, box, "bottom", spec.colTicks.map(([c, label]) => [x + ((c + 0.5) / cols) * w, label]), font);
  if (spec.cellText) {
    // the number in each cell, in white or black, whichever stands out more from the cell, as
    // course_lib.plots.attention.draw_attention writes it (plots.attention.text_colour)
    ctx.font = `11px ${font}`;
    ctx.textBaseline = "middle";
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const v = values[r * cols + c];
        ctx.fillStyle = textColour(lut, 3 * colourIndex(v, vmin, vmax));
        ctx.fillText(spec.cellText(v), x + ((c + 0.5) / cols) * w, y + ((r + 0.5) / rows) * h);
      }
    }
    ctx.fillStyle = colours.text;
  }
  ctx.font = `12px ${font}`;
  ctx.textBaseline = "bottom";
  if (spec.xlabel) ctx.fillText(spec.xlabel, x + w / 2, y + h + 34);
  if (spec.ylabel) axisTitle(ctx, spec.ylabel, spec.ylabelX ?? 11, y + h / 2, -Math.PI / 2);
  if (spec.title) {
    ctx.font = `13px ${font}`;
    ctx.textBaseline = "bottom";
    ctx.fillText(spec.title, x + w / 2, y - 5, spec.titleWidth ?? w + 40);
  }
  if (spec.colorbar) drawColourBar(ctx, { x: x + w + 12, y, w: 12, h }, spec, spec.colorbar, font, colours);
}

// The colour bar's ticks on [-vmax, vmax]: at most five multiples of 1, 2 or 5 times a power of ten
export function symmetricTicks(vmax) {
  const power = 10 ** Math.floor(Math.log10(vmax / 2));
  const step = [1, 2, 5, 10].map((f) => f * power).find((s) => vmax / s <= 2);
  const out = [];
  for (let k = -Math.floor(vmax / step); k <= Math.floor(vmax / step); k++) out.push(k * step);
  return out;
}
