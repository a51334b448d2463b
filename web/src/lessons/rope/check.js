// RoPE section: the score of a rotated query and key depends only on their
// offset, drawn over 256 positions beside the same vectors with the
// sinusoidal encoding added instead.
import { h, fmt, formula, paragraphs } from '../../lib/dom.js';
import { createLineChart, SERIES_COLORS } from '../../lib/chart.js';
import { createControls } from '../../lib/controls.js';
import { section, readout } from '../../lib/lesson.js';
import { dot, seededVector } from '../../model/rope.js';
import { CHECK_HEAD_DIM } from '../../model/rope-lesson.js';
import { OFFSET_SCORE } from '../../lib/maths/rope.js';
import { sci, strings, figure } from './format.js';

// the state's fields this section draws from (the lesson draws it later, when out of view, only when one changed)
const SHOWS = ['k', 'seed', 'base'];

const CHECK_SPAN = 256; // positions p = 0 … 255 of the offset check
export function mount(root, ctx) {
  const L = strings(ctx);
  const controls = createControls(['k', 'seed'], ctx, ctx.lesson);
  let current = null;
  const chart = createLineChart({
    xLabel: L('axisP'),
    yLabel: L('axisScore'),
    label: L('checkLabel'),
    height: 260,
    onCursor: (x) => describe(Math.round(x)),
    figure: figure(
      L,
      'check',
      (s) => L('checkCaption', { k: s.k, seed: s.seed, base: s.base, r: CHECK_HEAD_DIM, last: CHECK_SPAN - 1 }),
      (s) => `sinpe_rope_score_m${s.k}_seed${s.seed}_b${s.base}_p0-${CHECK_SPAN - 1}`,
    ),
  });
  const info = readout('rope-check-readout');
  const verdict = h('p', { class: 'rope-check-verdict' });
  root.append(section(L('checkTitle'), ...paragraphs(L('checkText')), formula(OFFSET_SCORE, ctx.t('formulaText')), h('div', { class: 'lesson-controls' }, controls.element), chart.element, verdict, info));

  function draw(s) {
    const { pe } = ctx;
    const r = CHECK_HEAD_DIM;
    const q = Float32Array.from(seededVector(r, s.seed));
    const kv = Float32Array.from(seededVector(r, s.seed + 10007));
    const n = CHECK_SPAN;
    const qs = new Float32Array(n * r);
    const ks = new Float32Array(n * r);
    const qPos = [];
    const kPos = [];
    for (let p = 0; p < n; p++) {
      qs.set(q, p * r);
      ks.set(kv, p * r);
      qPos.push(p);
      kPos.push(p + s.k);
    }
    pe.applyRope(qs, qPos, r, { base: s.base });
    pe.applyRope(ks, kPos, r, { base: s.base });
    // the same vectors with the sinusoidal encoding added instead (the formula lesson's table, d = r)
    const peQ = pe.encode(qPos, r, { base: s.base, layout: 'concat' });
    const peK = pe.encode(kPos, r, { base: s.base, layout: 'concat' });
    const rope = [];
    const added = [];
    for (let p = 0; p < n; p++) {
      rope.push([p, dot(qs.subarray(p * r, (p + 1) * r), ks.subarray(p * r, (p + 1) * r))]);
      let sum = 0;
      for (let i = 0; i < r; i++) sum += (q[i] + peQ[p * r + i]) * (kv[i] + peK[p * r + i]);
      added.push([p, sum]);
    }
    const ropeValues = rope.map(([, v]) => v);
    const addedValues = added.map(([, v]) => v);
    const spread = Math.max(...ropeValues) - Math.min(...ropeValues);
    const addedSpread = Math.max(...addedValues) - Math.min(...addedValues);
    const all = [...ropeValues, ...addedValues];
    const lo = Math.min(...all);
    const hi = Math.max(...all);
    const pad = Math.max(0.1, (hi - lo) * 0.08);
    const series = [
      { name: L('seriesRope', { k: s.k }), points: rope, color: SERIES_COLORS[0] },
      // the text calls it the dashed line: dashed at every width (the chart would draw a line this busy solid on a phone)
      { name: L('seriesAdded', { k: s.k }), points: added, color: SERIES_COLORS[1], dash: '6 3' },
    ];
    chart.draw({ series, xDomain: [0, n - 1], yDomain: [lo - pad, hi + pad], marks: [], snap: (v) => Math.round(v), state: s });
    verdict.textContent = L('checkVerdict', { k: s.k, score: fmt(ropeValues[0], 5), spread: sci(spread), addedSpread: fmt(addedSpread, 3), last: n - 1 });
    verdict.dataset.spread = String(spread);
    return { s, rope, added };
  }

  function describe(p) {
    if (!current) return;
    const i = Math.min(CHECK_SPAN - 1, Math.max(0, p));
    info.textContent = L('checkReadout', { p: i, pk: i + current.s.k, rope: fmt(current.rope[i][1], 6), added: fmt(current.added[i][1], 4) });
  }

  return {
    shows: SHOWS,
    update(s, changed) {
      controls.sync(s);
      if (changed(...SHOWS)) {
        current = draw(s);
        describe(0);
      }
    },
    figures: () => ({ checkChart: chart }),
  };
}
