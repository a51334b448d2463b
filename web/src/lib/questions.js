// How a lesson's predict-then-reveal questions are built. Each lesson's
// questions live in its folder (lessons/<id>/questions.js, exported by the
// lesson module as `questions(app, view)`); each answer is computed for the
// current state from the package (never written down as a number), and
// revealing points the lesson's live figure at the cell or curve that
// settles it. `view` is what the lesson's mount returned: its figures()
// hold the heatmaps and charts to point at.
//
// Each question also names what in the lesson states its answer,
// answeredBy(root, view) → elements (a section whole, its title included);
// the question is asked before the first of them (lib/guide.js).
//
// questions(app, view) → [{ id, prompt, choices, answer(s), explain(s), show(s), answeredBy(root, view) }]

/** The labelled choices of question q of a lesson, from questions.<lesson>.<q>.choices. */
export const choices = (app, lesson, q, values) => values.map((value) => ({ value, label: app.t(`questions.${lesson}.${q}.choices.${value}`) }));

/** The lesson's section under the title at key `key` (undefined if there is none). */
export const titled = (app, key) => (root) => [...root.querySelectorAll('section.lesson-section')].find((sec) => sec.querySelector(':scope > h2')?.textContent === app.t(key));

/** answeredBy from section title keys and CSS selectors. */
export const by =
  (app, ...where) =>
  (root) =>
    where.flatMap((w) => (w.startsWith('lessons.') ? [titled(app, w)(root)] : [...root.querySelectorAll(w)]));

// Moves a figure's cursor to the answer. Revealing never changes the
// learner's settings nor scrolls away from the feedback being read.
export function point(figure, ...args) {
  figure?.setCursor?.(...args);
}
