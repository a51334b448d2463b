// How long each figure's draw took (the d3 or canvas work of one draw, not
// the computing of its values): read by the site benchmark (npm run
// bench:site) through window.sinpeSite.figures. Bounded, like the renders.
export const figureDraws = [];

/** Records one draw of the figure `name` that started at t0 (performance.now()). */
export function recordDraw(name, t0) {
  figureDraws.push({ name, time: t0, ms: performance.now() - t0 });
  if (figureDraws.length > 2000) figureDraws.splice(0, 1000);
}

// The words a figure's PNG paints on its canvas itself (lib/figure/text-layer.js), each
// run as painted: the browser tests check that no label is drawn with a raw `_`.
export const paintedTexts = [];

export function recordPainted(texts) {
  paintedTexts.push(...texts);
  if (paintedTexts.length > 2000) paintedTexts.splice(0, paintedTexts.length - 1000);
}
