// The variants lesson's predict-then-reveal questions (lib/questions.js says
// how a question is built and placed): each answer computed for the current
// state from the package, each question naming what in the lesson states its answer.
import { fmt } from '../../lib/dom.js';
import { choices, by } from '../../lib/questions.js';

export function questions(ctx) {
  const { t, pe } = ctx;
  const q = (id, values, rest) => ({ id, prompt: t(`questions.variants.${id}.prompt`), choices: choices(ctx, 'variants', id, values), ...rest });
  const even = (d) => d - (d % 2);
  return [
    q('slowest', ['fairseq', 'vaswani', 'equal'], {
      answeredBy: by(ctx, '.preset-grid', 'lessons.variants.chartTitle', 'lessons.variants.diffTitle'),
      answer: (s) => {
        const f = pe.frequencies(even(s.d), { preset: 'fairseq' }).at(-1);
        const v = pe.frequencies(even(s.d), { preset: 'vaswani' }).at(-1);
        return f < v ? 'fairseq' : f > v ? 'vaswani' : 'equal';
      },
      explain: (s) => {
        const f = pe.frequencies(even(s.d), { preset: 'fairseq' }).at(-1);
        const v = pe.frequencies(even(s.d), { preset: 'vaswani' }).at(-1);
        return t('questions.variants.slowest.explain', { d: even(s.d), fairseq: fmt(f, 8), vaswani: fmt(v, 8) });
      },
    }),
    q('t2tLayout', ['interleaved', 'concat', 'cos-first'], {
      answeredBy: by(ctx, '.preset-grid', 'lessons.variants.diffTitle'),
      answer: () => 'concat',
      explain: (s) => {
        const row = pe.table(1, even(s.d), { preset: 'tensor2tensor' });
        const half = even(s.d) / 2;
        return t('questions.variants.t2tLayout.explain', { first: fmt(row[0], 1), last: fmt(row[half - 1], 1), second: fmt(row[half], 1) });
      },
    }),
  ];
}
