// The pitfalls lesson's predict-then-reveal questions (lib/questions.js says
// how a question is built and placed): each answer computed for the current
// state from the package, each question naming what in the lesson states its answer.
import { fmt } from '../../lib/dom.js';
import { buggyTable } from '../../model/pitfalls.js';
import { choices, by, point } from '../../lib/questions.js';

export function questions(ctx, view) {
  const { t, pe } = ctx;
  const q = (id, values, rest) => ({ id, prompt: t(`questions.pitfalls.${id}.prompt`), choices: choices(ctx, 'pitfalls', id, values), ...rest });
  return [
    // "find the bug": the seed notebook's lines
    q('findBug', ['pos', 'sin', 'cos', 'both'], {
      answeredBy: by(ctx, 'lessons.pitfalls.bugTitle'),
      kind: 'code',
      answer: () => 'both',
      explain: (s) => {
        const d = s.d;
        const buggy = buggyTable(2, d);
        const correct = pe.table(2, d);
        return t('questions.pitfalls.findBug.explain', { buggy1: fmt(buggy[d + 1], 5), correct1: fmt(correct[d + 1], 5), buggy2: fmt(buggy[d + 2], 5), correct2: fmt(correct[d + 2], 5) });
      },
      show: () => point(view.figures().difference, 1, 1),
    }),
    q('howMany', ['all', 'half', 'minusOne'], {
      answeredBy: by(ctx, 'lessons.pitfalls.bugTitle'),
      answer: () => 'half',
      explain: (s) => t('questions.pitfalls.howMany.explain', { d: s.d, count: pe.frequencies(s.d).length, last: s.d / 2 - 1 }),
      show: (s) => point(view.figures().correct, s.d - 1, 0),
    }),
  ];
}
