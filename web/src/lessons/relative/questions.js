// The relative lesson's predict-then-reveal questions (lib/questions.js says
// how a question is built and placed): each answer computed for the current
// state from the package, each question naming what in the lesson states its answer.
import { fmt } from '../../lib/dom.js';
import { choices, by, point } from '../../lib/questions.js';

export function questions(ctx, view) {
  const { t, pe } = ctx;
  const q = (id, values, rest) => ({ id, prompt: t(`questions.relative.${id}.prompt`), choices: choices(ctx, 'relative', id, values), ...rest });
  const dotAt = (s, p, k) => {
    const rows = pe.encode([p, p + k], s.d, { base: s.base });
    let sum = 0;
    for (let c = 0; c < s.d; c++) sum += rows[c] * rows[s.d + c];
    return sum;
  };
  return [
    q('onlyK', ['depends', 'onlyK'], {
      answeredBy: by(ctx, 'lessons.relative.dotTitle'),
      answer: () => 'onlyK',
      explain: (s) => {
        const p2 = s.pos + 10;
        return t('questions.relative.onlyK.explain', { k: s.k, p1: s.pos, q1: s.pos + s.k, v1: fmt(dotAt(s, s.pos, s.k), 5), p2, q2: p2 + s.k, v2: fmt(dotAt(s, p2, s.k), 5) });
      },
      show: (s) => point(view.figures().map, Math.min(s.len - 1, Math.max(0, s.pos + s.k)), Math.min(s.len - 1, s.pos)),
    }),
    q('diagonal', ['diagonal', 'far', 'corner'], {
      answeredBy: by(ctx, 'lessons.relative.dotTitle'),
      answer: () => 'diagonal',
      explain: (s) => t('questions.relative.diagonal.explain', { half: s.d / 2, value: fmt(dotAt(s, 3, 0), 4), next: fmt(dotAt(s, 3, 1), 4) }),
      show: () => point(view.figures().map, 3, 3),
    }),
  ];
}
