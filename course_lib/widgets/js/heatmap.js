// A heatmap on a canvas, as course_lib.plots draws one with imshow (course_lib/widgets/live.py puts
// this file after common.js for the explorers that draw one): row labels on the left, row 0 on top,
// the columns' ticks below, a title, a colour bar with its label, optionally a number in each cell.

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

// The cells of `values` (rows x cols, row-major) as an image, one pixel per cell
function cellImage(values, rows, cols, lut, vmin, vmax) {
  const cells = new ImageData(cols, rows);
  for (let k = 0; k < rows * cols; k++) {
    const idx = 3 * colourIndex(values[k], vmin, vmax);
    cells.data.set([lut[idx], lut[idx + 1], lut[idx + 2], 255], 4 * k);
  }
  const off = new OffscreenCanvas(cols, rows);
  off.getContext("2d").putImageData(cells, 0, 0);
  return off;
}

// Draws the heatmap in the box {x, y, w, h} of ctx (the plot area itself; labels go around it).
// spec: {values, rows, cols, lut, vmin, vmax, rowLabels, colTicks, xlabel, ylabel, title,
//        colorbar: {label, ticks, format} or null, cellText: (v) => string or null, lang}
export function drawHeatmap(ctx, box, spec, font, colours) {
  const { x, y, w, h } = box;
  const { values, rows, cols, lut, vmin, vmax } = spec;
  ctx.imageSmoothingEnabled = !(rows < h && cols < w);
  ctx.drawImage(cellImage(values, rows, cols, lut, vmin, vmax), x, y, w, h);
  ctx.fillStyle = colours.text;
  ctx.strokeStyle = colours.text;
  ctx.lineWidth = 1;
  ctx.strokeRect(x + 0.5, y + 0.5, w - 1, h - 1);
  ctx.font = `11px ${font}`;
  ctx.textAlign = "right";
  ctx.textBaseline = "middle";
  spec.rowLabels.forEach((label, r) => {
    const cy = y + ((r + 0.5) / rows) * h;
    ctx.fillRect(x - 4, cy, 4, 1);
    ctx.fillText(label, x - 6, cy);
  });
  ctx.textAlign = "center";
  ctx.textBaseline = "top";
  for (const [c, label] of spec.colTicks) {
    const cx = x + ((c + 0.5) / cols) * w;
    ctx.fillRect(cx, y + h, 1, 4);
    ctx.fillText(label, cx, y + h + 6);
  }
  if (spec.cellText) {
    // the number in each cell, in white or black, whichever stands out more from the cell, as
    // course_lib.plots.draw_attention writes it (plots.attention.text_colour)
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
  if (spec.ylabel) {
    ctx.save();
    ctx.translate(spec.ylabelX ?? 11, y + h / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.textBaseline = "middle";
    ctx.fillText(spec.ylabel, 0, 0);
    ctx.restore();
  }
  if (spec.title) {
    ctx.font = `13px ${font}`;
    ctx.textBaseline = "bottom";
    ctx.fillText(spec.title, x + w / 2, y - 5, spec.titleWidth ?? w + 40);
  }
  if (spec.colorbar) drawColorbar(ctx, { x: x + w + 12, y, w: 12, h }, spec, font, colours);
}

// the colour bar right of the plot: vmin at the bottom, vmax on top, its ticks and its label
function drawColorbar(ctx, { x, y, w, h }, spec, font, colours) {
  const { lut, vmin, vmax } = spec;
  const bar = new ImageData(1, 256);
  for (let k = 0; k < 256; k++) bar.data.set([lut[3 * k], lut[3 * k + 1], lut[3 * k + 2], 255], 4 * (255 - k));
  const off = new OffscreenCanvas(1, 256);
  off.getContext("2d").putImageData(bar, 0, 0);
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(off, x, y, w, h);
  ctx.fillStyle = colours.text;
  ctx.font = `11px ${font}`;
  ctx.textAlign = "left";
  ctx.textBaseline = "middle";
  for (const v of spec.colorbar.ticks) {
    const ty = y + ((vmax - v) / (vmax - vmin)) * h;
    ctx.fillRect(x + w, ty, 3, 1);
    ctx.fillText(spec.colorbar.format(v), x + w + 5, ty);
  }
  if (spec.colorbar.label) {
    ctx.save();
    ctx.translate(x + w + 52, y + h / 2);
    ctx.rotate(Math.PI / 2);
    ctx.textAlign = "center";
    ctx.fillText(spec.colorbar.label, 0, 0);
    ctx.restore();
  }
}

// The colour bar's ticks on [-vmax, vmax]: at most five multiples of 1, 2 or 5 times a power of ten
export function symmetricTicks(vmax) {
  const power = 10 ** Math.floor(Math.log10(vmax / 2));
  const step = [1, 2, 5, 10].map((f) => f * power).find((s) => vmax / s <= 2);
  const out = [];
  for (let k = -Math.floor(vmax / step); k <= Math.floor(vmax / step); k++) out.push(k * step);
  return out;
}
