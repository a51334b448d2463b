// Where each frequency's sin and cos sit in a row, for the three layouts of
// the vaswani family (h = ⌊d/2⌋ frequencies; an odd d leaves column d − 1
// outside every pair).

/**
 * Which frequency k and which function column j holds: { kind: 'sin'|'cos', k },
 * or { kind: 'none' } for a column outside every pair.
 */
export function columnInfo(j, d, layout) {
  const half = Math.floor(d / 2);
  if (j >= 2 * half) return { kind: 'none', k: -1 };
  if (layout === 'interleaved') return { kind: j % 2 === 0 ? 'sin' : 'cos', k: Math.floor(j / 2) };
  const first = j < half;
  const k = first ? j : j - half;
  if (layout === 'concat') return { kind: first ? 'sin' : 'cos', k };
  return { kind: first ? 'cos' : 'sin', k };
}

/** The column holding function `kind` of frequency k. */
export function columnOf(kind, k, d, layout) {
  const half = Math.floor(d / 2);
  if (layout === 'interleaved') return 2 * k + (kind === 'sin' ? 0 : 1);
  const sinFirst = layout === 'concat';
  return (kind === 'sin') === sinFirst ? k : half + k;
}
