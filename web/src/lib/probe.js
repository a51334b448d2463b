// How long each figure's draw took (the d3 or canvas work of one draw, not
// the computing of its values): read by the site benchmark (npm run
// bench:site) through window.sinpeSite.figures. Bounded, like the renders.
export const figureDraws = [];

/** Records one draw of the figure `name` that started at t0 (performance.now()); state: the fields it shows, if it says. */
export function recordDraw(name, t0, state = null) {
  figureDraws.push({ name, time: t0, ms: performance.now() - t0, state });
  if (figureDraws.length > 2000) figureDraws.splice(0, 1000);
}
