// Building blocks shared by the lessons: header, sections, readouts.
import { h, paragraphs } from './dom.js';

/** The lesson's title and introduction, from lessons.<id>.title / .intro. */
export function lessonHeader(app, id) {
  return [h('h1', { class: 'lesson-title' }, app.t(`lessons.${id}.title`)), ...paragraphs(app.t(`lessons.${id}.intro`))];
}

export function section(title, ...children) {
  return h('section', { class: 'lesson-section' }, title ? h('h2', {}, title) : null, ...children);
}

/**
 * Code text whose «name» markers become the comment code.<block>.<name> in
 * the reader's language (vars fill the comment's {placeholders}).
 */
export function commented(app, block, template, vars) {
  return template.replace(/«(\w+)»/g, (m, key) => app.t(`code.${block}.${key}`, vars));
}

/** A live text readout (the text alternative of a figure's cursor). */
export function readout(className = '') {
  return h('output', { class: `readout ${className}`, 'aria-live': 'polite' });
}
