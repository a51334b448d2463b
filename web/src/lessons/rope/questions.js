// The rope lesson's predict-then-reveal questions (lib/questions.js says
// how a question is built and placed): each answer computed for the current
// state from the package, each question naming what in the lesson states its answer.
import { fmt } from '../../lib/dom.js';
import { seededVector, dot, defaultInvFreq } from '../../model/rope.js';
import { scalingOptions, SCALING_ROTARY_DIM, CHECK_HEAD_DIM } from '../../model/rope-lesson.js';
import { formatInteger } from '../../lib/numbers.js';
import { choices, by, point } from '../../lib/questions.js';

export function questions(app, view) {
  const { t, pe } = app;
  const q = (id, values, rest) => ({ id, prompt: t(`questions.rope.${id}.prompt`), choices: choices(app, 'rope', id, values), ...rest });
  return [
    q('turn', ['degrees172', 'degrees3', 'fullTurn'], {
      answeredBy: by(app, 'lessons.rope.dialsTitle'),
      answer: () => 'degrees172',
      explain: (s) => {
        const inv = pe.ropeFrequencies(8, { base: s.base })[0];
        const angle = 3 * inv;
        return t('questions.rope.turn.explain', { omega: fmt(inv, 4), radians: fmt(angle, 4), degrees: fmt((angle * 180) / Math.PI, 1) });
      },
    }),
    q('shift', ['same', 'larger', 'smaller', 'unknown'], {
      answeredBy: by(app, 'lessons.rope.checkTitle'),
      answer: () => 'same',
      explain: (s) => {
        const r = CHECK_HEAD_DIM;
        const qv = Float32Array.from(seededVector(r, s.seed));
        const kv = Float32Array.from(seededVector(r, s.seed + 10007));
        const score = (p, k) => {
          const a = Float32Array.from(qv);
          const b = Float32Array.from(kv);
          pe.applyRope(a, [p], r, { base: s.base });
          pe.applyRope(b, [k], r, { base: s.base });
          return dot(a, b);
        };
        const s1 = score(5, 7);
        const s2 = score(105, 107);
        return t('questions.rope.shift.explain', { s1: fmt(s1, 6), s2: fmt(s2, 6), difference: Math.abs(s1 - s2).toExponential(1).replace(/-/g, '−') });
      },
    }),
    q('llama3', ['fast', 'slow', 'none'], {
      answeredBy: by(app, 'lessons.rope.scalingTitle'),
      answer: () => 'fast',
      explain: (s) => {
        const r = SCALING_ROTARY_DIM;
        const plain = defaultInvFreq(r, s.base);
        const scaled = pe.ropeFrequencies(r, scalingOptions('llama3', s));
        const same = (a, b) => Math.abs(a - b) <= 1e-12 * b;
        const kept = Array.from(scaled).filter((w, j) => same(w, plain[j])).length;
        const divided = Array.from(scaled).filter((w, j) => !same(w, plain[j]) && same(w, plain[j] / s.factor)).length;
        return t('questions.rope.llama3.explain', { kept, divided, half: r / 2, between: r / 2 - kept - divided, factor: s.factor, ctx: formatInteger(s.ctx) });
      },
      show: () => point(view.figures().scalingChart, 0, true),
    }),
  ];
}
