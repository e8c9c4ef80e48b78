// The frequencies of the sinusoidal table and of RoPE, for every explorer that turns pairs of columns:
// the one JavaScript copy of course_lib.core.model.inverse_frequencies, tested equal to it in
// tests/browser/test_explorers_lesson8.py. (course_lib/widgets/live.py's module() puts this file
// before the explorer's own: no import needed.)

// ω_i = base^(-2i/d): the angle per position of the pair of columns (2i, 2i + 1), in float64,
// from 1 (a wavelength of 2π) down to nearly 1/base
export function inverseFrequency(i, d, base) {
  return base ** (-(2 * i) / d);
}

// ω_i for the ceil(d/2) pairs, i = 0 .. ceil(d/2) - 1 (an odd d ends with a lone sine)
export function inverseFrequencies(d, base) {
  const out = new Float64Array(Math.ceil(d / 2));
  for (let i = 0; i < out.length; i++) out[i] = inverseFrequency(i, d, base);
  return out;
}
