// Section 1: one attention head on the typed sentence, with no position
// information: X, the scores QKᵀ/√d, the softmax weights, the output rows,
// and (folded) the seeded W_q, W_k, W_v.
import { h, fmt, paragraphs, rich } from '../../lib/dom.js';
import { section, readout } from '../../lib/lesson.js';
import { createMatrix, absMax, tokenLabels, sentenceName } from './matrix.js';
import { lessonRun } from './run.js';

/** Mounts the section under root: its title, then (the lesson's quiz goes here) its text and matrices. */
export function mount(root, ctx) {
  const { t } = ctx;
  const info = readout('attention-readout');
  let current = null;
  const name = (what) => () => `sinpe_attention_${what}_${sentenceName(current.words)}_d${current.d}_seed${current.s.seed}`;
  const describe = (r, c) => {
    const { words, n, plain } = current;
    info.textContent = t('lessons.attention.readout', { row: r, token: words[r], col: c, other: words[c], score: fmt(plain.scores[r * n + c], 4), weight: fmt(plain.weights[r * n + c], 4) });
  };
  const describeOut = (r, c) => {
    const { words, d, plain } = current;
    info.textContent = t('lessons.attention.outReadout', { row: r, token: words[r], col: c, value: fmt(plain.out[r * d + c], 4) });
  };
  const describeX = (r, c) => {
    const { words, d, plain } = current;
    info.textContent = t('lessons.attention.xReadout', { row: r, token: words[r], col: c, value: fmt(plain.input[r * d + c], 4) });
  };
  const x = createMatrix(ctx, { className: 'matrix-x', name: name('X'), onCell: describeX });
  const scores = createMatrix(ctx, { className: 'matrix-scores', name: name('scores'), onCell: describe });
  const weights = createMatrix(ctx, { className: 'matrix-weights', name: name('weights'), onCell: describe });
  const out = createMatrix(ctx, { className: 'matrix-out', name: name('outputs'), onCell: describeOut });
  const w = ['wq', 'wk', 'wv'].map((key) => [key, createMatrix(ctx, { className: `matrix-${key}`, name: name(key) })]);
  const details = h('details', { class: 'attention-w' }, rich(t('lessons.attention.wTitle'), 'summary'), h('div', { class: 'attention-grid' }, ...w.map(([, m]) => m.element)));
  // W_q, W_k, W_v (d × d each, the most cells of the lesson) are written while they are shown:
  // folded, a step leaves them; opening the fold writes them for the state drawn last
  let wFor = null;
  function updateWeights(opening = false) {
    if (!(details.open || opening) || !current || wFor === current) return;
    wFor = current;
    const dims = Array.from({ length: current.d }, (_, c) => String(c));
    for (const [key, m] of w) {
      const values = current.weights[key];
      const max = absMax(values);
      m.update({ caption: t(`lessons.attention.${key}`), values, rows: current.d, cols: current.d, rowLabels: dims, colLabels: dims, cmap: 'rdbu', vmin: -max, vmax: max });
    }
  }
  // written before the fold opens (a click on its summary, by mouse or keyboard), so they never show stale numbers
  details.querySelector('summary').addEventListener('click', () => updateWeights(true));
  details.addEventListener('toggle', () => updateWeights());

  const element = section(
    t('lessons.attention.headTitle'),
    ...paragraphs(t('lessons.attention.headText')),
    x.element,
    h('div', { class: 'attention-grid attention-pair' }, scores.element, weights.element),
    out.element,
    info,
    details,
    Object.assign(rich(t('lessons.attention.seedNote')), { className: 'note attention-seed-note' }),
  );
  element.classList.add('attention-head');
  root.append(element);

  return {
    figures: () => ({ x, scores, weights, out }),
    update(s, changed) {
      // what this section draws depends on the sentence, d_model and the seed only
      if (current && !changed('tokens', 'd', 'seed')) return;
      const run = lessonRun(ctx.pe, s);
      current = run;
      const { words, n, d, plain } = run;
      const labels = tokenLabels(words);
      const dims = Array.from({ length: d }, (_, c) => String(c));
      const xMax = absMax(plain.input);
      x.update({ caption: t('lessons.attention.x'), values: plain.input, rows: n, cols: d, rowLabels: labels, colLabels: dims, cmap: 'rdbu', vmin: -xMax, vmax: xMax });
      const sMax = absMax(plain.scores);
      scores.update({ caption: t('lessons.attention.scores'), values: plain.scores, rows: n, cols: n, rowLabels: labels, colLabels: words, cmap: 'rdbu', vmin: -sMax, vmax: sMax });
      weights.update({ caption: t('lessons.attention.weights'), values: plain.weights, rows: n, cols: n, rowLabels: labels, colLabels: words, cmap: 'blues', vmin: 0, vmax: 1 });
      const oMax = absMax(plain.out);
      out.update({ caption: t('lessons.attention.out'), values: plain.out, rows: n, cols: d, rowLabels: labels, colLabels: dims, cmap: 'rdbu', vmin: -oMax, vmax: oMax });
      updateWeights();
      describe(0, Math.min(1, n - 1));
    },
  };
}
