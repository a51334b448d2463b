// The heatmap lesson's predict-then-reveal questions (lib/questions.js says
// how a question is built and placed): each answer computed for the current
// state from the package, each question naming what in the lesson states its answer.
import { fmt } from '../../lib/dom.js';
import { columnOf } from '../../model/layout.js';
import { choices, by, point } from '../../lib/questions.js';

export function questions(ctx, view) {
  const { t, pe } = ctx;
  const q = (id, values, rest) => ({ id, prompt: t(`questions.heatmap.${id}.prompt`), choices: choices(ctx, 'heatmap', id, values), ...rest });
  // row 0 is pointed at only when the map shows it (the learner's start is kept)
  const showsRow0 = (s) => s.start === 0;
  // the map shows row 0 and the fastest sine column repeating: both are asked before it
  const andTheMap = (key) => (root) => [view.figures().map.element, ...by(ctx, key)(root)];
  return [
    q('cosRow0', ['plusOne', 'zero', 'minusOne'], {
      answeredBy: andTheMap('lessons.heatmap.row0Title'),
      answer: () => 'plusOne',
      explain: (s) => {
        const col = columnOf('cos', 0, s.d, s.layout);
        const value = pe.rows(0, 1, s.d, { base: s.base, layout: s.layout })[col];
        return t('questions.heatmap.cosRow0.explain', { column: col, value: fmt(value, 4), layout: t(`layout.${s.layout}`) });
      },
      show: (s) => showsRow0(s) && point(view.figures().map, columnOf('cos', 0, s.d, s.layout), 0),
    }),
    q('repeat', ['six', 'hundred', 'huge'], {
      answeredBy: andTheMap('lessons.heatmap.flatTitle'),
      answer: () => 'six',
      explain: (s) => {
        const col = columnOf('sin', 0, s.d, s.layout);
        const rows = pe.rows(0, 8, s.d, { base: s.base, layout: s.layout });
        const omega = pe.frequencies(s.d, { base: s.base })[0];
        return t('questions.heatmap.repeat.explain', {
          column: col,
          omega: fmt(omega, 4),
          wavelength: fmt((2 * Math.PI) / omega, 2),
          v0: fmt(rows[col], 3),
          v6: fmt(rows[6 * s.d + col], 3),
          v7: fmt(rows[7 * s.d + col], 3),
        });
      },
      show: (s) => showsRow0(s) && point(view.figures().map, columnOf('sin', 0, s.d, s.layout), Math.min(6, s.len - 1)),
    }),
  ];
}
