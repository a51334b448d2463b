// Predict-then-reveal questions of every lesson. Each answer is computed for
// the current state from the package (never written down as a number), and
// revealing points the lesson's live figure at the cell or curve that
// settles it. `view` is what the lesson's mount returned: its `figures`
// hold the heatmaps and charts to point at.
//
// Each question also names what in the lesson states its answer,
// answeredBy(root, view) → elements (a section whole, its title included);
// the question is asked before the first of them (lessons/guide.js).
//
// questionsFor(id, app, view) → [{ id, prompt, choices, answer(s), explain(s), show(s), answeredBy(root, view) }]
import { fmt } from '../lib/dom.js';
import { columnOf } from '../model/layout.js';
import { buggyTable } from '../model/pitfalls.js';
import { seededVector, dot, defaultInvFreq } from '../model/rope.js';
import { scalingOptions, SCALING_ROTARY_DIM, CHECK_HEAD_DIM } from '../model/rope-lesson.js';
import { formatInteger } from '../lib/numbers.js';

const choices = (app, lesson, q, values) => values.map((value) => ({ value, label: app.t(`questions.${lesson}.${q}.choices.${value}`) }));

/** The lesson's section under the title at key `key` (undefined if there is none). */
const titled = (app, key) => (root) => [...root.querySelectorAll('section.lesson-section')].find((sec) => sec.querySelector(':scope > h2')?.textContent === app.t(key));
/** answeredBy from section title keys and CSS selectors. */
const by =
  (app, ...where) =>
  (root) =>
    where.flatMap((w) => (w.startsWith('lessons.') ? [titled(app, w)(root)] : [...root.querySelectorAll(w)]));

// Moves a figure's cursor to the answer. Revealing never changes the
// learner's settings nor scrolls away from the feedback being read.
function point(figure, ...args) {
  figure?.setCursor?.(...args);
}

const BUILDERS = {
  formula(app, view) {
    const { t, pe } = app;
    const q = (id, values, rest) => ({ id, prompt: t(`questions.formula.${id}.prompt`), choices: choices(app, 'formula', id, values), ...rest });
    return [
      q('row0cos', ['zero', 'one', 'minusOne', 'varies'], {
        answeredBy: by(app, 'lessons.formula.step4', 'lessons.formula.heatmapTitle'),
        answer: () => 'one',
        explain: (s) => {
          const row = pe.table(1, s.d, { base: s.base });
          const cosValues = Array.from({ length: s.d / 2 }, (_, i) => fmt(row[2 * i + 1], 4));
          return t('questions.formula.row0cos.explain', { values: cosValues.join(', ') });
        },
        show: () => point(view.figures?.map, 1, 0),
      }),
      q('slowest', ['first', 'last', 'same'], {
        answeredBy: by(app, 'lessons.formula.step2', 'lessons.formula.step3'),
        answer: () => 'last',
        explain: (s) => {
          const omega = pe.frequencies(s.d, { base: s.base });
          const last = omega.length - 1;
          return t('questions.formula.slowest.explain', { last, c0: 2 * last, c1: 2 * last + 1, omega: fmt(omega[last], 6), fast: fmt(omega[0], 4) });
        },
        show: (s) => point(view.figures?.map, s.d - 1, s.len - 1),
      }),
    ];
  },

  heatmap(app, view) {
    const { t, pe } = app;
    const q = (id, values, rest) => ({ id, prompt: t(`questions.heatmap.${id}.prompt`), choices: choices(app, 'heatmap', id, values), ...rest });
    // row 0 is pointed at only when the map shows it (the learner's start is kept)
    const showsRow0 = (s) => s.start === 0;
    return [
      q('cosRow0', ['plusOne', 'zero', 'minusOne'], {
        answeredBy: by(app, 'lessons.heatmap.row0Title'),
        answer: () => 'plusOne',
        explain: (s) => {
          const col = columnOf('cos', 0, s.d, s.layout);
          const value = pe.rows(0, 1, s.d, { base: s.base, layout: s.layout })[col];
          return t('questions.heatmap.cosRow0.explain', { column: col, value: fmt(value, 4), layout: t(`layout.${s.layout}`) });
        },
        show: (s) => showsRow0(s) && point(view.figures?.map, columnOf('cos', 0, s.d, s.layout), 0),
      }),
      q('repeat', ['six', 'hundred', 'huge'], {
        answeredBy: by(app, 'lessons.heatmap.flatTitle'),
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
        show: (s) => showsRow0(s) && point(view.figures?.map, columnOf('sin', 0, s.d, s.layout), Math.min(6, s.len - 1)),
      }),
    ];
  },

  waves(app, view) {
    const { t, pe } = app;
    const q = (id, values, rest) => ({ id, prompt: t(`questions.waves.${id}.prompt`), choices: choices(app, 'waves', id, values), ...rest });
    return [
      q('firstTurn', ['first', 'last', 'together'], {
        answeredBy: by(app, 'lessons.waves.curvesTitle', '.clock-section'),
        answer: () => 'first',
        explain: (s) => {
          const omega = pe.frequencies(s.d, { base: s.base });
          const last = omega.length - 1;
          return t('questions.waves.firstTurn.explain', { fast: fmt((2 * Math.PI) / omega[0], 2), last, slow: fmt(omega[last], 6), wavelength: fmt((2 * Math.PI) / omega[last], 0) });
        },
      }),
      q('ratio', ['rootBase', 'base2d', 'two'], {
        answeredBy: by(app, 'lessons.waves.lengthsTitle'),
        answer: () => 'base2d',
        explain: (s) => {
          const omega = pe.frequencies(s.d, { base: s.base });
          return t('questions.waves.ratio.explain', { ratio: fmt(s.base ** (2 / s.d), 4), measured: fmt(omega[0] / omega[1], 4), wrong: fmt(s.base ** (1 / s.d), 4), d: s.d, baseValue: s.base });
        },
        show: () => point(view.figures?.lengths, 1, true),
      }),
    ];
  },

  binary(app, view) {
    const { t, pe } = app;
    const q = (id, values, rest) => ({ id, prompt: t(`questions.binary.${id}.prompt`), choices: choices(app, 'binary', id, values), ...rest });
    return [
      q('fastest', ['first', 'last', 'middle'], {
        answeredBy: by(app, '.binary-explain'),
        answer: () => 'first',
        explain: (s) => {
          const omega = pe.frequencies(s.d, { base: s.base });
          return t('questions.binary.fastest.explain', { wavelength: fmt((2 * Math.PI) / omega[0], 2), last: s.d - 1, slow: fmt((2 * Math.PI) / omega.at(-1), 0) });
        },
        show: () => point(view.figures?.peMap, 0, 1),
      }),
      q('smooth', ['jumps', 'smooth'], {
        answeredBy: by(app, 'lessons.binary.chartTitle', 'lessons.binary.diffTitle'),
        answer: () => 'smooth',
        explain: (s) => {
          const half = pe.encode([0.5], s.d, { base: s.base });
          return t('questions.binary.smooth.explain', { value: fmt(half[0], 4), expected: fmt(Math.sin(0.5), 4) });
        },
        show: () => point(view.figures?.chart, 0.5, true),
      }),
    ];
  },

  embeddings(app, view) {
    const { t, pe } = app;
    const q = (id, values, rest) => ({ id, prompt: t(`questions.embeddings.${id}.prompt`), choices: choices(app, 'embeddings', id, values), ...rest });
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
        answeredBy: by(app, '.embeddings-figures', '.same-word-note'),
        answer: () => 'differ',
        explain: (s) => {
          const { a, b, word, repeated } = twins(s);
          const rows = pe.encode([a, b], s.d);
          let diff = 0;
          for (let c = 0; c < s.d; c++) diff = Math.max(diff, Math.abs(rows[c] - rows[s.d + c]));
          return t(repeated ? 'questions.embeddings.sameWord.explain' : 'questions.embeddings.sameWord.explainNoRepeat', { word, a, b, difference: fmt(diff, 4) });
        },
        show: (s) => point(view.figures?.sum, 0, twins(s).b),
      }),
      q('dropout', ['same', 'scaledUp', 'scaledDown'], {
        answeredBy: by(app, 'lessons.embeddings.dropoutSection'),
        answer: () => 'scaledUp',
        explain: (s) => t('questions.embeddings.dropout.explain', { p: fmt(s.dropout, 2), scale: s.dropout < 1 ? fmt(1 / (1 - s.dropout), 4) : '—' }),
        show: () => point(view.figures?.dropout, 0, 0),
      }),
    ];
  },

  relative(app, view) {
    const { t, pe } = app;
    const q = (id, values, rest) => ({ id, prompt: t(`questions.relative.${id}.prompt`), choices: choices(app, 'relative', id, values), ...rest });
    const dotAt = (s, p, k) => {
      const rows = pe.encode([p, p + k], s.d, { base: s.base });
      let sum = 0;
      for (let c = 0; c < s.d; c++) sum += rows[c] * rows[s.d + c];
      return sum;
    };
    return [
      q('onlyK', ['depends', 'onlyK'], {
        answeredBy: by(app, 'lessons.relative.dotTitle'),
        answer: () => 'onlyK',
        explain: (s) => {
          const p2 = s.pos + 10;
          return t('questions.relative.onlyK.explain', { k: s.k, p1: s.pos, q1: s.pos + s.k, v1: fmt(dotAt(s, s.pos, s.k), 5), p2, q2: p2 + s.k, v2: fmt(dotAt(s, p2, s.k), 5) });
        },
        show: (s) => point(view.figures?.map, Math.min(s.len - 1, Math.max(0, s.pos + s.k)), Math.min(s.len - 1, s.pos)),
      }),
      q('diagonal', ['diagonal', 'far', 'corner'], {
        answeredBy: by(app, 'lessons.relative.dotTitle'),
        answer: () => 'diagonal',
        explain: (s) => t('questions.relative.diagonal.explain', { half: s.d / 2, value: fmt(dotAt(s, 3, 0), 4), next: fmt(dotAt(s, 3, 1), 4) }),
        show: () => point(view.figures?.map, 3, 3),
      }),
    ];
  },

  pitfalls(app, view) {
    const { t, pe } = app;
    const q = (id, values, rest) => ({ id, prompt: t(`questions.pitfalls.${id}.prompt`), choices: choices(app, 'pitfalls', id, values), ...rest });
    return [
      // "find the bug": the seed notebook's lines
      q('findBug', ['pos', 'sin', 'cos', 'both'], {
        answeredBy: by(app, 'lessons.pitfalls.bugTitle'),
        kind: 'code',
        answer: () => 'both',
        explain: (s) => {
          const d = s.d;
          const buggy = buggyTable(2, d);
          const correct = pe.table(2, d);
          return t('questions.pitfalls.findBug.explain', { buggy1: fmt(buggy[d + 1], 5), correct1: fmt(correct[d + 1], 5), buggy2: fmt(buggy[d + 2], 5), correct2: fmt(correct[d + 2], 5) });
        },
        show: () => point(view.figures?.difference, 1, 1),
      }),
      q('howMany', ['all', 'half', 'minusOne'], {
        answeredBy: by(app, 'lessons.pitfalls.bugTitle'),
        answer: () => 'half',
        explain: (s) => t('questions.pitfalls.howMany.explain', { d: s.d, count: pe.frequencies(s.d).length, last: s.d / 2 - 1 }),
        show: (s) => point(view.figures?.correct, s.d - 1, 0),
      }),
    ];
  },

  variants(app) {
    const { t, pe } = app;
    const q = (id, values, rest) => ({ id, prompt: t(`questions.variants.${id}.prompt`), choices: choices(app, 'variants', id, values), ...rest });
    const even = (d) => d - (d % 2);
    return [
      q('slowest', ['fairseq', 'vaswani', 'equal'], {
        answeredBy: by(app, '.preset-grid', 'lessons.variants.chartTitle', 'lessons.variants.diffTitle'),
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
        answeredBy: by(app, '.preset-grid', 'lessons.variants.diffTitle'),
        answer: () => 'concat',
        explain: (s) => {
          const row = pe.table(1, even(s.d), { preset: 'tensor2tensor' });
          const half = even(s.d) / 2;
          return t('questions.variants.t2tLayout.explain', { first: fmt(row[0], 1), last: fmt(row[half - 1], 1), second: fmt(row[half], 1) });
        },
      }),
    ];
  },

  rope(app, view) {
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
        show: () => point(view.figures?.scalingChart, 0, true),
      }),
    ];
  },
};

export function questionsFor(id, app, view) {
  return BUILDERS[id]?.(app, view) ?? [];
}
