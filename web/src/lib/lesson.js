// Building blocks shared by the lessons: header, sections, readouts, and the
// sin/cos structure of a column for a layout.
import { h, paragraphs } from './dom.js';

/** The lesson's title and introduction, from lessons.<id>.title / .intro. */
export function lessonHeader(app, id) {
  return [h('h1', { class: 'lesson-title' }, app.t(`lessons.${id}.title`)), ...paragraphs(app.t(`lessons.${id}.intro`))];
}

export function section(title, ...children) {
  return h('section', { class: 'lesson-section' }, title ? h('h2', {}, title) : null, ...children);
}

/** A live text readout (the text alternative of a figure's cursor). */
export function readout(className = '') {
  return h('output', { class: `readout ${className}`, 'aria-live': 'polite' });
}

/**
 * Which frequency k and which function (sin/cos) column j of a d-wide
 * encoding holds, for the three layouts (d even).
 */
export function columnInfo(j, d, layout) {
  const half = d / 2;
  if (layout === 'interleaved') return { kind: j % 2 === 0 ? 'sin' : 'cos', k: Math.floor(j / 2) };
  const first = j < half;
  const k = first ? j : j - half;
  if (layout === 'concat') return { kind: first ? 'sin' : 'cos', k };
  return { kind: first ? 'cos' : 'sin', k };
}

/** The column holding function `kind` of frequency k. */
export function columnOf(kind, k, d, layout) {
  if (layout === 'interleaved') return 2 * k + (kind === 'sin' ? 0 : 1);
  const sinFirst = layout === 'concat';
  return (kind === 'sin') === sinFirst ? k : d / 2 + k;
}
