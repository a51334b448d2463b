// How long each figure's draw took (the d3 or canvas work of one draw, not
// the computing of its values): read by the site benchmark (npm run
// bench:site) through window.sinpeSite.figures. Bounded, like the renders.
export const figureDraws = [];

// The computations a figure started (one per state it was asked to show), each with the slices
// it ran and whether it finished: a newer state's drops an older one's at its next slice.
export const computations = [];

/**
 * Records a computation of the figure `name` for `state`; returns its record, in which the figure
 * counts its slices (.slices, the start of the last in .lastSlice) and sets .finished.
 */
export function recordComputation(name, state) {
  const record = { name, time: performance.now(), state, slices: 0, lastSlice: null, finished: false };
  computations.push(record);
  if (computations.length > 2000) computations.splice(0, 1000);
  return record;
}

/** Records one draw of the figure `name` that started at t0 (performance.now()); state: the fields it shows, if it says. */
export function recordDraw(name, t0, state = null) {
  figureDraws.push({ name, time: t0, ms: performance.now() - t0, state });
  if (figureDraws.length > 2000) figureDraws.splice(0, 1000);
}

// The words a figure's PNG paints on its canvas itself (lib/figure/text-layer.js), each
// run as painted: the browser tests check that no label is drawn with a raw `_`.
export const paintedTexts = [];

export function recordPainted(texts) {
  paintedTexts.push(...texts);
  if (paintedTexts.length > 2000) paintedTexts.splice(0, paintedTexts.length - 1000);
}
