// The embeddings lesson's predict-then-reveal questions (lib/questions.js says
// how a question is built and placed): each answer computed for the current
// state from the package, each question naming what in the lesson states its answer.
import { fmt } from '../../lib/dom.js';
import { choices, by, point } from '../../lib/questions.js';

export function questions(ctx, view) {
  const { t, pe } = ctx;
  const q = (id, values, rest) => ({ id, prompt: t(`questions.embeddings.${id}.prompt`), choices: choices(ctx, 'embeddings', id, values), ...rest });
  // two positions holding the same word (or positions 0 and 1 if no word repeats)
  const twins = (s) => {
    const words = s.tokens.split(' ');
    for (let j = 1; j < words.length; j++) {
      const i = words.findIndex((w, k) => k < j && w.toLowerCase() === words[j].toLowerCase());
      if (i >= 0) return { a: i, b: j, word: words[j], repeated: true };
    }
    return { a: 0, b: Math.min(1, words.length - 1), word: words[0], repeated: false };
  };
  return [
    q('sameWord', ['equal', 'differ'], {
      answeredBy: by(ctx, '.embeddings-figures', '.same-word-note'),
      answer: () => 'differ',
      explain: (s) => {
        const { a, b, word, repeated } = twins(s);
        const rows = pe.encode([a, b], s.d);
        let diff = 0;
        for (let c = 0; c < s.d; c++) diff = Math.max(diff, Math.abs(rows[c] - rows[s.d + c]));
        return t(repeated ? 'questions.embeddings.sameWord.explain' : 'questions.embeddings.sameWord.explainNoRepeat', { word, a, b, difference: fmt(diff, 4) });
      },
      show: (s) => point(view.figures().sum, 0, twins(s).b),
    }),
    q('dropout', ['same', 'scaledUp', 'scaledDown'], {
      answeredBy: by(ctx, 'lessons.embeddings.dropoutSection'),
      answer: () => 'scaledUp',
      explain: (s) => t('questions.embeddings.dropout.explain', { p: fmt(s.dropout, 2), scale: s.dropout < 1 ? fmt(1 / (1 - s.dropout), 4) : '—' }),
      show: () => point(view.figures().dropout, 0, 0),
    }),
  ];
}
