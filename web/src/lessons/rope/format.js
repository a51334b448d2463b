// Number forms shared by the sections of the RoPE lesson.
export const DEG = 180 / Math.PI;
export const wrapAngle = (a) => ((a % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
export const sci = (v) => (v === 0 ? '0' : v.toExponential(1).replace(/-/g, '−'));
// wavelengths: one decimal below 1000 positions, whole positions above (never exponent notation)
export const wavelengthText = (v) => (v < 1000 ? v.toFixed(1) : String(Math.round(v)));

/** The lesson's strings: lessons.rope.<key>. */
export const strings = (ctx) => (key, vars) => ctx.t(`lessons.rope.${key}`, vars);

/** A chart's figure export: title, caption naming the parameters, file name. */
export const figure = (L, key, caption, name) => ({ title: () => L(`${key}Title`), caption, name });
