// RoPE section: the half and interleaved layouts rotate the same vector with
// different pairs; a permutation maps one onto the other.
import { h, fmt, paragraphs, show } from '../../lib/dom.js';
import { section } from '../../lib/lesson.js';
import { pairIndices } from '../../model/rope.js';
import { DIAL_HEAD_DIM } from '../../model/rope-lesson.js';
import { sci, strings } from './format.js';

// the state's fields this section draws from (the lesson draws it later, when out of view, only when one changed)
const SHOWS = ['pos', 'base'];

export function mount(root, ctx) {
  const L = strings(ctx);
  const box = h('div', { class: 'rope-layouts side-by-side' });
  const check = h('p', { class: 'rope-layout-check' });
  root.append(section(L('layoutsTitle'), ...paragraphs(L('layoutsText')), box, check));

  function table(layout, x, y, p) {
    const r = x.length;
    const rows = Array.from({ length: r }, (_, i) => {
      const j = layout === 'interleaved' ? i >> 1 : i % (r / 2);
      const [a, b] = pairIndices(j, r, layout);
      const partner = i === a ? b : a;
      return h(
        'tr',
        { 'data-index': i, class: `pair-${j}` },
        h('th', { scope: 'row' }, String(i)),
        h('td', {}, fmt(x[i], 2)),
        h('td', { class: 'pair-cell' }, L('pairWith', { j, partner })),
        h('td', { class: 'rotated-cell' }, fmt(y[i], 5)),
      );
    });
    return h(
      'div',
      { class: `rope-layout rope-layout-${layout}` },
      h('h3', {}, L(`layoutName.${layout}`)),
      h('p', { class: 'layout-code' }, h('code', {}, L(`layoutCode.${layout}`))),
      h(
        'div',
        { class: 'table-scroll' },
        h(
          'table',
          { class: 'data rope-layout-table', 'data-layout': layout },
          h('caption', {}, L('layoutCaption', { p })),
          h('thead', {}, h('tr', {}, [L('thIndex'), 'x', L('thPair'), L('thRotated')].map((c) => h('th', { scope: 'col' }, c)))),
          h('tbody', {}, rows),
        ),
      ),
    );
  }

  function draw(s) {
    const { pe } = ctx;
    const r = DIAL_HEAD_DIM;
    const x = Float32Array.from({ length: r }, (_, i) => (i + 1) / 10);
    const outputs = {};
    const tables = [];
    for (const layout of ['half', 'interleaved']) {
      const y = Float32Array.from(x);
      pe.applyRope(y, [s.pos], r, { base: s.base, layout });
      outputs[layout] = y;
      tables.push(table(layout, x, y, s.pos));
    }
    // through show(): a step of the position changes only the numbers of the tables
    show(box, `${s.pos} ${s.base}`, () => tables);
    // permuting x into interleaved order, rotating, and permuting back gives the half result
    const perm = Float32Array.from({ length: r }, (_, i) => x[i % 2 === 0 ? i >> 1 : (i >> 1) + r / 2]);
    pe.applyRope(perm, [s.pos], r, { base: s.base, layout: 'interleaved' });
    let diff = 0;
    for (let j = 0; j < r / 2; j++) diff = Math.max(diff, Math.abs(perm[2 * j] - outputs.half[j]), Math.abs(perm[2 * j + 1] - outputs.half[j + r / 2]));
    check.textContent = L('layoutCheck', { difference: diff === 0 ? '0' : sci(diff), p: s.pos });
    check.dataset.difference = String(diff);
  }

  return {
    shows: SHOWS,
    update(s, changed) {
      if (changed(...SHOWS)) draw(s);
    },
    figures: () => ({}),
  };
}
