// The waves lesson's predict-then-reveal questions (lib/questions.js says
// how a question is built and placed): each answer computed for the current
// state from the package, each question naming what in the lesson states its answer.
import { fmt } from '../../lib/dom.js';
import { choices, by, point } from '../../lib/questions.js';

export function questions(ctx, view) {
  const { t, pe } = ctx;
  const q = (id, values, rest) => ({ id, prompt: t(`questions.waves.${id}.prompt`), choices: choices(ctx, 'waves', id, values), ...rest });
  return [
    q('firstTurn', ['first', 'last', 'together'], {
      answeredBy: by(ctx, 'lessons.waves.curvesTitle', '.clock-section'),
      answer: () => 'first',
      explain: (s) => {
        const omega = pe.frequencies(s.d, { base: s.base });
        const last = omega.length - 1;
        return t('questions.waves.firstTurn.explain', { fast: fmt((2 * Math.PI) / omega[0], 2), last, slow: fmt(omega[last], 6), wavelength: fmt((2 * Math.PI) / omega[last], 0) });
      },
    }),
    q('ratio', ['rootBase', 'base2d', 'two'], {
      answeredBy: by(ctx, 'lessons.waves.lengthsTitle'),
      answer: () => 'base2d',
      explain: (s) => {
        const omega = pe.frequencies(s.d, { base: s.base });
        return t('questions.waves.ratio.explain', { ratio: fmt(s.base ** (2 / s.d), 4), measured: fmt(omega[0] / omega[1], 4), wrong: fmt(s.base ** (1 / s.d), 4), d: s.d, baseValue: s.base });
      },
      show: () => point(view.figures().lengths, 1, true),
    }),
  ];
}
