// Section 2: the same words in another order. One button per order (arrow
// keys move between them), the position information (none, sinusoidal PE
// added to X, RoPE on q and k), the shuffled sentence's weights and outputs
// beside the typed sentence's put in the new order, and the check as numbers.
import { h, paragraphs, clear } from '../../lib/dom.js';
import { section } from '../../lib/lesson.js';
import { createControls } from '../../lib/controls.js';
import { ENCODINGS, offeredOrders, reorder } from '../../model/attention.js';
import { createMatrix, absMax, tokenLabels, sentenceName } from './matrix.js';
import { lessonRun } from './run.js';
import { formatGap } from '../../lib/numbers.js';

// below this the two are the same up to float64 rounding of a few sums
export const SAME = 1e-9;

const gapText = (v) => formatGap(v);

const subscript = (n) => String(n).replace(/\d/g, (c) => '₀₁₂₃₄₅₆₇₈₉'[c]);

/** The rows (and, for a square matrix, columns) of an n × m matrix put in an order. */
function permuted(values, order, m, square) {
  const n = order.length;
  const out = new Float64Array(n * m);
  for (let i = 0; i < n; i++) for (let j = 0; j < m; j++) out[i * m + j] = values[order[i] * m + (square ? order[j] : j)];
  return out;
}

/** Mounts the section under root: its title, then (the lesson's quiz goes here) its text, order buttons and matrices. */
export function mount(root, ctx) {
  const { t } = ctx;
  const controls = createControls(['enc'], ctx, ctx.lesson);
  const buttons = h('div', { class: 'button-row perm-buttons', role: 'group', 'aria-label': t('lessons.attention.orderGroup') });
  const verdict = h('p', { class: 'permutation-verdict', 'aria-live': 'polite' });
  const gapBody = h('tbody');
  const gapCaption = h('caption');
  const gapTable = h(
    'table',
    { class: 'data gap-table' },
    gapCaption,
    h('thead', {}, h('tr', {}, ['gapEncoding', 'gapWeights', 'gapOut', 'gapPooled'].map((k) => h('th', { scope: 'col' }, t(`lessons.attention.${k}`))))),
    gapBody,
  );
  let current = null;
  const name = (what) => () => `sinpe_attention_${what}_${current.s.enc}_${sentenceName(current.shuffledWords)}_d${current.d}_seed${current.s.seed}`;
  const maps = {
    shuffledWeights: createMatrix(ctx, { className: 'matrix-shuffled-weights', name: name('weights') }),
    originalWeights: createMatrix(ctx, { className: 'matrix-original-weights', name: name('weights-typed-reordered') }),
    shuffledOut: createMatrix(ctx, { className: 'matrix-shuffled-out', name: name('outputs') }),
    originalOut: createMatrix(ctx, { className: 'matrix-original-out', name: name('outputs-typed-reordered') }),
  };

  // arrow keys move between the order buttons and choose the order
  buttons.addEventListener('keydown', (e) => {
    const all = [...buttons.querySelectorAll('button')];
    const i = all.indexOf(document.activeElement);
    if (i < 0) return;
    const to = { ArrowLeft: i - 1, ArrowUp: i - 1, ArrowRight: i + 1, ArrowDown: i + 1, Home: 0, End: all.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const next = all[Math.max(0, Math.min(all.length - 1, to))];
    next.focus();
    next.click();
  });

  const element = section(
    t('lessons.attention.shuffleTitle'),
    ...paragraphs(t('lessons.attention.shuffleText')),
    h('div', { class: 'lesson-controls' }, controls.element),
    buttons,
    verdict,
    h('div', { class: 'table-scroll' }, gapTable),
    h('div', { class: 'attention-grid attention-pair' }, maps.shuffledWeights.element, maps.originalWeights.element),
    h('div', { class: 'attention-grid attention-pair' }, maps.shuffledOut.element, maps.originalOut.element),
  );
  element.classList.add('attention-shuffle');

  let buttonsFor = '';
  function buildButtons(words, order) {
    const key = words.join(' ');
    if (key !== buttonsFor) {
      buttonsFor = key;
      const focused = buttons.contains(document.activeElement);
      clear(buttons);
      // a word typed more than once is marked by its place in the typed sentence (dog₀ … dog₂, the tables' row
      // numbers), so that no two buttons read the same
      const marked = words.map((w, i) => (words.indexOf(w) !== words.lastIndexOf(w) ? `${w}${subscript(i)}` : w));
      for (const o of offeredOrders(words.length)) {
        const sentence = reorder(marked, o).join(' ');
        buttons.append(
          h(
            'button',
            { type: 'button', class: 'button perm-button', 'data-order': o.join(','), 'aria-label': t('lessons.attention.orderButton', { order: o.join(','), sentence }), onclick: () => ctx.setState({ order: o }) },
            sentence,
          ),
        );
      }
      if (focused) buttons.querySelector('button')?.focus();
    }
    const chosen = order.join(',');
    for (const b of buttons.querySelectorAll('button')) {
      b.setAttribute('aria-pressed', String(b.dataset.order === chosen));
      b.tabIndex = b.dataset.order === chosen ? 0 : -1;
    }
    // an order typed into the URL that has no button still shows as chosen nowhere: keep one tab stop
    if (!buttons.querySelector('button[tabindex="0"]')) buttons.querySelector('button').tabIndex = 0;
  }

  root.append(element);

  return {
    figures: () => ({ ...maps }),
    update(s, changed) {
      // what this section draws depends on these fields only (a step of the distance chart's leaves it)
      if (current && !changed('tokens', 'd', 'seed', 'order', 'enc')) return;
      const run = lessonRun(ctx.pe, s);
      current = run;
      const { words, n, d, order, shuffledWords, base, shuffled, gaps } = run;
      controls.sync(s);
      buildButtons(words, order);
      const isIdentity = order.every((v, i) => v === i);
      const gap = gaps[s.enc].pooled;
      verdict.className = `permutation-verdict ${isIdentity ? '' : gap < SAME ? 'pass' : 'fail'}`;
      verdict.textContent = isIdentity ? t('lessons.attention.identity') : gap < SAME ? t('lessons.attention.same', { gap: gapText(gap) }) : t('lessons.attention.differs', { gap: gapText(gap), encoding: t(`enc.${s.enc}`) });
      gapCaption.textContent = t('lessons.attention.gapCaption', { sentence: shuffledWords.join(' ') });
      clear(gapBody);
      for (const e of ENCODINGS) {
        const g = gaps[e];
        gapBody.append(
          h(
            'tr',
            { 'data-encoding': e, class: e === s.enc ? 'current' : null },
            h('th', { scope: 'row' }, t(`enc.${e}`)),
            ...[g.weights, g.out, g.pooled].map((v, i) => h('td', { 'data-value': String(v), 'data-gap': ['weights', 'out', 'pooled'][i] }, gapText(v))),
          ),
        );
      }
      const newLabels = tokenLabels(shuffledWords);
      const wMax = 1;
      maps.shuffledWeights.update({ caption: t('lessons.attention.shuffledWeights'), values: shuffled.weights, rows: n, cols: n, rowLabels: newLabels, colLabels: shuffledWords, cmap: 'blues', vmin: 0, vmax: wMax });
      maps.originalWeights.update({ caption: t('lessons.attention.originalWeights'), values: permuted(base.weights, order, n, true), rows: n, cols: n, rowLabels: newLabels, colLabels: shuffledWords, cmap: 'blues', vmin: 0, vmax: wMax });
      const oMax = Math.max(absMax(shuffled.out), absMax(base.out));
      const dims = Array.from({ length: d }, (_, c) => String(c));
      maps.shuffledOut.update({ caption: t('lessons.attention.shuffledOut'), values: shuffled.out, rows: n, cols: d, rowLabels: newLabels, colLabels: dims, cmap: 'rdbu', vmin: -oMax, vmax: oMax });
      maps.originalOut.update({ caption: t('lessons.attention.originalOut'), values: permuted(base.out, order, d, false), rows: n, cols: d, rowLabels: newLabels, colLabels: dims, cmap: 'rdbu', vmin: -oMax, vmax: oMax });
    },
  };
}
