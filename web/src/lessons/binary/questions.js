// The binary lesson's predict-then-reveal questions (lib/questions.js says
// how a question is built and placed): each answer computed for the current
// state from the package, each question naming what in the lesson states its answer.
import { fmt } from '../../lib/dom.js';
import { choices, by, point } from '../../lib/questions.js';

export function questions(ctx, view) {
  const { t, pe } = ctx;
  const q = (id, values, rest) => ({ id, prompt: t(`questions.binary.${id}.prompt`), choices: choices(ctx, 'binary', id, values), ...rest });
  return [
    q('fastest', ['first', 'last', 'middle'], {
      // the encoding's map beside the bits shows it: asked before the two maps
      answeredBy: (root) => [view.figures().peMap.element.closest('.side-by-side') ?? view.figures().peMap.element, ...by(ctx, '.binary-explain')(root)],
      answer: () => 'first',
      explain: (s) => {
        const omega = pe.frequencies(s.d, { base: s.base });
        return t('questions.binary.fastest.explain', { wavelength: fmt((2 * Math.PI) / omega[0], 2), last: s.d - 1, slow: fmt((2 * Math.PI) / omega.at(-1), 0) });
      },
      show: () => point(view.figures().peMap, 0, 1),
    }),
    q('smooth', ['jumps', 'smooth'], {
      answeredBy: by(ctx, 'lessons.binary.chartTitle', 'lessons.binary.diffTitle'),
      answer: () => 'smooth',
      explain: (s) => {
        const half = pe.encode([0.5], s.d, { base: s.base });
        return t('questions.binary.smooth.explain', { value: fmt(half[0], 4), expected: fmt(Math.sin(0.5), 4) });
      },
      show: () => point(view.figures().chart, 0.5, true),
    }),
  ];
}
