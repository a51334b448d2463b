// The attention lesson's predict-then-reveal questions, each shown at the top
// of the section whose figure answers it. Answers and explanations are
// computed for the current state through the package (runHead), never
// written down as numbers.
import { fmt } from '../../lib/dom.js';
import { createQuiz } from '../../lib/quiz.js';
import { identity, permutationGap, reorder } from '../../model/attention.js';
import { runHead } from './run.js';
import { similarityCurves } from './distance.js';
import { formatGap } from '../../lib/numbers.js';

// differences as the shuffle section's table writes them
const small = (v) => formatGap(v);

/** The order that swaps the first two words (identity for one word). */
const swapFirstTwo = (n) => {
  const o = identity(n);
  if (n > 1) [o[0], o[1]] = [o[1], o[0]];
  return o;
};

/** The largest pooled-output change of swapping the first two words, per encoding. */
function swapGap(pe, s, encoding) {
  const words = s.tokens.split(' ');
  const order = swapFirstTwo(words.length);
  const base = runHead(pe, words, s.d, s.seed, encoding);
  const shuffled = runHead(pe, reorder(words, order), s.d, s.seed, encoding);
  return permutationGap(base, shuffled, order, s.d);
}

/** A sentence with a repeated word: the typed one if it has one (added: false), else the typed one with its first word again (added: true). */
export function withRepeat(words) {
  const seen = new Map();
  for (let i = 0; i < words.length; i++) {
    if (seen.has(words[i].toLowerCase())) return { words, i: seen.get(words[i].toLowerCase()), j: i, added: false };
    seen.set(words[i].toLowerCase(), i);
  }
  const longer = [...words.slice(0, 11), words[0]];
  return { words: longer, i: 0, j: longer.length - 1, added: true };
}

function build(app, id, values, rest) {
  const { t } = app;
  return { id, prompt: t(`questions.attention.${id}.prompt`), choices: values.map((value) => ({ value, label: t(`questions.attention.${id}.choices.${value}`) })), ...rest };
}

/** The quiz of each section: { head, shuffle, distance } → { element, update(state) }; questions: every question, each answered by its section. */
export function createQuizzes(app, sections) {
  const { t } = app;
  // two rows compared: equal in every digit, or by how much they differ (rounding)
  const differ = (gap) => (gap === 0 ? t('questions.attention.rowsEqual') : t('questions.attention.rowsDiffer', { gap: small(gap) }));
  const all = [];
  const make = (questions) => {
    all.push(...questions);
    return createQuiz(app, { title: t('quiz.title'), intro: t('lessons.attention.quizIntro'), questions });
  };
  const head = make([
    build(app, 'twice', ['same', 'close', 'different'], {
      answeredBy: () => [sections().head?.element],
      answer: () => 'same',
      explain: (s) => {
        const { words, i, j, added } = withRepeat(s.tokens.split(' '));
        const run = runHead(app.pe, words, s.d, s.seed, 'none');
        let gap = 0;
        for (let c = 0; c < s.d; c++) gap = Math.max(gap, Math.abs(run.out[i * s.d + c] - run.out[j * s.d + c]));
        // a sentence the learner did not type is named as such, beside the one typed
        return t(added ? 'questions.attention.twice.explainAdded' : 'questions.attention.twice.explain', { sentence: words.join(' '), typed: s.tokens, word: words[i], differ: differ(gap) });
      },
    }),
  ]);
  const shuffle = make([
    build(app, 'swap', ['none', 'two', 'all'], {
      answeredBy: () => [sections().shuffle?.element],
      answer: () => 'none',
      explain: (s) => {
        const words = s.tokens.split(' ');
        return t('questions.attention.swap.explain', { a: words[0], b: words[1] ?? words[0], differ: differ(swapGap(app.pe, s, 'none').out) });
      },
    }),
    build(app, 'pooled', ['yes', 'no'], {
      answeredBy: () => [sections().shuffle?.element],
      answer: () => 'no',
      explain: (s) => t('questions.attention.pooled.explain', { sin: small(swapGap(app.pe, s, 'sin').pooled), rope: small(swapGap(app.pe, s, 'rope').pooled), none: small(swapGap(app.pe, s, 'none').pooled) }),
    }),
  ]);
  const distance = make([
    build(app, 'distance', ['constant', 'falls', 'grows'], {
      answeredBy: () => [sections().distance?.element],
      answer: () => 'falls',
      explain: (s) => {
        const c = similarityCurves(app.pe, Number(s.dpos), s.span);
        return t('questions.attention.distance.explain', { k0: fmt(c.sin[0], 3), k1: fmt(c.sin[1], 3), k8: fmt(c.sin[Math.min(8, s.span)], 3), kLast: fmt(c.sin[s.span], 3), span: s.span, d: s.dpos });
      },
      show: () => sections().distance?.figures().distance.setCursor(8, true),
    }),
  ]);
  return { head, shuffle, distance, questions: all };
}
