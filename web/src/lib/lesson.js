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

/**
 * The `changed` a lesson's update(state, changed) is given: changed(...keys)
 * is true on the first draw (no state drawn before) and when one of the
 * fields differs from the state drawn last (lists compare by value: a
 * change makes new ones); changed() with no keys: the first draw only.
 */
export function changedSince(previous, state) {
  return (...keys) => !previous || keys.some((k) => previous[k] !== state[k] && String(previous[k]) !== String(state[k]));
}
