// The sinusoidal positional encoding, for the explorers that add or show its rows (lessons 3, 4, 6):
// the JavaScript copy of course_lib.sinusoidal_table, row by row, tested equal to it in
// tests/browser/test_explorers_more.py. (Lesson 5's table explorer, which draws up to 1024 x 512
// cells per frame, has its own faster copy in table.js.)

// PE[pos, 2i] = sin(pos · base^(-2i/d)), PE[pos, 2i + 1] = cos(pos · base^(-2i/d)), in float64;
// an odd d ends with a sine
export function positionalRow(pos, d, base = 10000) {
  const row = new Float64Array(d);
  for (let c = 0; c < d; c++) {
    const angle = pos * inverseFrequency(Math.floor(c / 2), d, base);
    row[c] = c % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
  }
  return row;
}

// the rows of `positions`, one after the other: (positions.length x d) row-major
export function positionalRows(positions, d, base = 10000) {
  const out = new Float64Array(positions.length * d);
  positions.forEach((pos, r) => out.set(positionalRow(pos, d, base), r * d));
  return out;
}
