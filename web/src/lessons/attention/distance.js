// Section 3: position information alone. The similarity of positions p and
// p + k against the distance k: the sinusoidal encoding's dot product (the
// package's table) and RoPE's score of seeded random vectors (from the
// package's ropeCacheRows), the same vector at both positions and unrelated pairs.
import { h, fmt, paragraphs } from '../../lib/dom.js';
import { section, readout } from '../../lib/lesson.js';
import { createControls } from '../../lib/controls.js';
import { createLineChart } from '../../lib/chart.js';
import { encodingSimilarity, ropeSimilarity, randomPairs } from '../../model/attention.js';

export const ROPE_SAMPLES = 64;

let drawn = { d: 0, pairs: [] }; // the seeded vectors of the last width (a span step keeps them)

/** The curves for a width and a largest distance (what the chart draws and the questions quote). */
export function similarityCurves(pe, d, span) {
  const sin = encodingSimilarity(pe.table(span + 1, d), span, d);
  if (drawn.d !== d) drawn = { d, pairs: randomPairs(d, ROPE_SAMPLES, 1) };
  const rope = ropeSimilarity(pe.ropeCacheRows(0, span + 1, d), d, span, drawn.pairs);
  return { d, span, sin, ...rope };
}

/** Mounts the section under root: its title, then (the lesson's quiz goes here) its text, controls and chart. */
export function mount(root, ctx) {
  const { t } = ctx;
  const controls = createControls(['dpos', 'span'], ctx, ctx.lesson);
  const info = readout('distance-readout');
  let curves = null;
  let cursor = 1; // the distance the readout describes
  const describe = (x) => {
    if (!curves) return;
    const k = Math.max(0, Math.min(curves.span, Math.round(x)));
    cursor = k;
    info.textContent = t('lessons.attention.chartReadout', { k, sin: fmt(curves.sin[k], 4), same: fmt(curves.same[k], 4), unrelated: fmt(curves.unrelated[k], 4) });
  };
  const chart = createLineChart({
    xLabel: t('lessons.attention.distance'),
    yLabel: t('lessons.attention.similarity'),
    label: t('lessons.attention.chartLabel'),
    onCursor: describe,
    figure: {
      // the encoding's own width (dpos), not the head's d_model
      name: () => `sinpe_attention_distance_width${curves.d}_k0-${curves.span}`,
      caption: () => t('lessons.attention.chartCaption', { span: curves.span, d: curves.d }),
    },
  });
  chart.element.classList.add('distance-chart');
  const element = section(t('lessons.attention.posTitle'), ...paragraphs(t('lessons.attention.posText')), h('div', { class: 'lesson-controls' }, controls.element), chart.element, info);
  element.classList.add('attention-distance');

  root.append(element);

  return {
    figures: () => ({ distance: chart }),
    update(s, changed) {
      controls.sync(s);
      const d = Number(s.dpos);
      if (curves && !changed('dpos', 'span')) return;
      curves = similarityCurves(ctx.pe, d, s.span);
      const points = (values) => Array.from(values, (v, k) => [k, v]);
      let lo = 0;
      for (const key of ['sin', 'same', 'unrelated']) for (const v of curves[key]) lo = Math.min(lo, v);
      chart.draw({
        series: [
          { name: t('lessons.attention.seriesSin'), points: points(curves.sin) },
          { name: t('lessons.attention.seriesSame'), points: points(curves.same) },
          { name: t('lessons.attention.seriesUnrelated'), points: points(curves.unrelated) },
        ],
        xDomain: [0, s.span],
        yDomain: [Math.min(-0.2, lo * 1.05), 1.05],
        marks: [{ y: 0 }],
        snap: (x) => Math.round(x),
        // the caption names what this chart depends on: the encoding width and the largest distance
        state: { dpos: s.dpos, span: s.span },
      });
      cursor = Math.min(cursor, s.span);
      describe(cursor);
    },
  };
}
