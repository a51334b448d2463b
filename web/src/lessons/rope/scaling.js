// RoPE section: long-context scaling (default, linear, dynamic NTK, YaRN,
// llama3) stretches the wavelengths; one chart of every type, and each
// type's formula.
import { h, fmt, formula, rich, paragraphs } from '../../lib/dom.js';
import { createLineChart, SERIES_COLORS } from '../../lib/chart.js';
import { createControls, createRadioGroup } from '../../lib/controls.js';
import { section, readout } from '../../lib/lesson.js';
import { wavelengths, rotationsWithin } from '../../model/rope.js';
import { SCALING_TYPES, SCALING_ROTARY_DIM, scalingOptions } from '../../model/rope-lesson.js';
import { SCALING_FORMULAS } from '../../lib/maths/rope.js';
import { mergeMarks } from '../../model/rope-thresholds.js';
import { wavelengthText, strings, figure, thresholdMarksOf } from './format.js';
import { formatInteger } from '../../lib/numbers.js';

// the state's fields this section draws from (the lesson draws it later, when out of view, only when one changed)
const SHOWS = ['factor', 'ctx', 'measure', 'base'];

export function mount(root, ctx) {
  const L = strings(ctx);
  const controls = createControls(['factor', 'ctx', 'base'], ctx, ctx.lesson);
  const measureToggle = createRadioGroup({ key: 'measure', values: ['wavelength', 'rotations'], label: L('measure'), app: ctx });
  let current = null;
  const chart = createLineChart({
    xLabel: L('axisPair'),
    yLabel: L('axisWavelength'),
    label: L('scalingLabel'),
    yLog: true,
    height: 320,
    onCursor: (x) => describe(Math.round(x)),
    figure: figure(
      L,
      'scaling',
      (s) => L('scalingCaption', { r: SCALING_ROTARY_DIM, base: s.base, factor: s.factor, ctx: s.ctx, measure: L(`measureName.${s.measure}`) }),
      (s) => `sinpe_rope_scaling_${s.measure}_r${SCALING_ROTARY_DIM}_b${s.base}_s${s.factor}_L${s.ctx}`,
    ),
  });
  const info = readout('rope-scaling-readout');
  const summary = h('p', { class: 'rope-scaling-summary' });
  // the base is lesson-wide: say so beside each chart it redraws
  const baseNote = h('p', { class: 'note base-shared' });
  const formulas = h(
    'dl',
    { class: 'rope-formulas' },
    SCALING_TYPES.map((type) => [h('dt', {}, L(`type.${type}`)), h('dd', {}, formula(SCALING_FORMULAS[type], ctx.t('formulaText')), rich(L(`typeText.${type}`)))]),
  );
  root.append(
    section(
      L('scalingTitle'),
      ...paragraphs(L('scalingText')),
      h('div', { class: 'lesson-controls' }, measureToggle.element, controls.element, baseNote),
      chart.element,
      info,
      summary,
      h('h3', {}, L('formulasTitle')),
      formulas,
    ),
  );

  function draw(s) {
    const { pe } = ctx;
    const r = SCALING_ROTARY_DIM;
    const curves = {};
    for (const type of SCALING_TYPES) curves[type] = pe.ropeFrequencies(r, scalingOptions(type, s, r));
    const rotations = s.measure === 'rotations';
    const valueOf = (inv) => (rotations ? rotationsWithin(inv, s.ctx) : wavelengths(inv));
    const series = SCALING_TYPES.map((type, i) => ({
      name: L(`type.${type}`),
      points: valueOf(curves[type]).map((v, j) => [j, v]),
      color: SERIES_COLORS[i],
      type,
    }));
    const values = series.flatMap((x) => x.points.map(([, v]) => v)).filter((v) => v > 0);
    const marks = rotations
      ? [{ y: 1, label: L('markOneTurn') }]
      : [
          { y: s.ctx, label: L('markContext', { ctx: formatInteger(s.ctx) }) },
          { y: s.ctx * s.factor, label: L('markTarget', { target: formatInteger(Math.round(s.ctx * s.factor)) }) },
        ];
    // llama3's wavelength bounds and YaRN's correction range, from the options the curves were drawn with
    for (const type of ['llama3', 'yarn']) marks.push(...thresholdMarksOf(L, scalingOptions(type, s, r), r, { rotations, ctx: s.ctx }));
    const merged = mergeMarks(marks, L('listJoin'));
    const markValues = merged.filter((m) => m.y !== undefined).map((m) => m.y);
    const lo = Math.min(...values, ...markValues) / 2;
    const hi = Math.max(...values, ...markValues) * 2;
    const yLabel = rotations ? L('axisRotations', { ctx: formatInteger(s.ctx) }) : L('axisWavelength');
    chart.draw({ series, xDomain: [0, r / 2 - 1], yDomain: [lo, hi], marks: merged, snap: (v) => Math.round(v), yLabel, state: s });
    // what changed: pairs whose wavelength fits in the original context, per type
    const within = (inv) => wavelengths(inv).filter((l) => l <= s.ctx).length;
    summary.textContent = L('scalingSummary', {
      ctx: formatInteger(s.ctx),
      half: r / 2,
      parts: SCALING_TYPES.map((type) => L('scalingPart', { name: L(`type.${type}`), count: within(curves[type]) })).join(L('listJoin')),
      att: fmt(pe.ropeCache([0], r, scalingOptions('yarn', s, r)).attentionFactor, 4),
    });
    return { s, curves };
  }

  function describe(j) {
    if (!current) return;
    const s = current.s;
    const pair = Math.min(SCALING_ROTARY_DIM / 2 - 1, Math.max(0, j));
    const parts = SCALING_TYPES.map((type) => {
      const inv = current.curves[type][pair];
      return L('scalingValue', { name: L(`type.${type}`), wavelength: wavelengthText((2 * Math.PI) / inv), rotations: fmt((s.ctx * inv) / (2 * Math.PI), 3) });
    });
    info.textContent = L('scalingReadout', { j: pair, values: parts.join(L('partsJoin')) });
  }

  return {
    shows: SHOWS,
    update(s, changed) {
      controls.sync(s);
      baseNote.textContent = L('baseShared', { base: s.base });
      measureToggle.sync(s);
      if (changed(...SHOWS)) {
        current = draw(s);
        describe(0);
      }
    },
    figures: () => ({ scalingChart: chart }),
  };
}
