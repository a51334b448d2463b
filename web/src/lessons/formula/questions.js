// The formula lesson's predict-then-reveal questions (lib/questions.js says
// how a question is built and placed): each answer computed for the current
// state from the package, each question naming what in the lesson states its answer.
import { fmt } from '../../lib/dom.js';
import { choices, by, point } from '../../lib/questions.js';

export function questions(ctx, view) {
  const { t, pe } = ctx;
  const q = (id, values, rest) => ({ id, prompt: t(`questions.formula.${id}.prompt`), choices: choices(ctx, 'formula', id, values), ...rest });
  return [
    q('row0cos', ['zero', 'one', 'minusOne', 'varies'], {
      answeredBy: by(ctx, 'lessons.formula.step4', 'lessons.formula.heatmapTitle'),
      answer: () => 'one',
      explain: (s) => {
        const row = pe.table(1, s.d, { base: s.base });
        const cosValues = Array.from({ length: s.d / 2 }, (_, i) => fmt(row[2 * i + 1], 4));
        return t('questions.formula.row0cos.explain', { values: cosValues.join(', ') });
      },
      show: () => point(view.figures().map, 1, 0),
    }),
    q('slowest', ['first', 'last', 'same'], {
      answeredBy: by(ctx, 'lessons.formula.step2', 'lessons.formula.step3'),
      answer: () => 'last',
      explain: (s) => {
        const omega = pe.frequencies(s.d, { base: s.base });
        const last = omega.length - 1;
        return t('questions.formula.slowest.explain', { last, c0: 2 * last, c1: 2 * last + 1, omega: fmt(omega[last], 6), fast: fmt(omega[0], 4) });
      },
      show: (s) => point(view.figures().map, s.d - 1, s.len - 1),
    }),
  ];
}
