// RoPE section: the precision pitfall of float32 and bfloat16 angles at long
// positions, against the package's float64 angles.
import { h, fmt, paragraphs, show } from '../../lib/dom.js';
import { createLineChart, SERIES_COLORS } from '../../lib/chart.js';
import { createControls } from '../../lib/controls.js';
import { section } from '../../lib/lesson.js';
import { bf16, defaultInvFreq, hfInvFreqF32, maxAngleError, pipelineAngle, pipelineCosSin, samplePositionsBelow, spacing } from '../../model/rope.js';
import { PRECISION_ROTARY_DIM } from '../../model/rope-lesson.js';
import { sci, strings, figure } from './format.js';
import { formatInteger } from '../../lib/numbers.js';
import { createSlicedWork } from '../../lib/sliced.js';

// the state's fields this section draws from (the lesson draws it later, when out of view, only when one changed)
const SHOWS = ['at', 'base'];

const OCTAVES = Array.from({ length: 9 }, (_, e) => 2 ** (12 + e)); // 4096 … 1 048 576
const PIPELINES = ['exact', 'float32', 'bf16', 'sinpe'];

export function mount(root, ctx) {
  const L = strings(ctx);
  const controls = createControls(['at', 'base'], ctx, ctx.lesson);
  const jumps = h(
    'div',
    { class: 'button-row', role: 'group', 'aria-label': L('jump') },
    h('span', { class: 'button-row-label' }, L('jump')),
    [4096, 16384, 65536, 262144, 1048576].map((p) =>
      h('button', { type: 'button', class: 'button precision-jump', 'data-position': p - 1, onclick: () => ctx.setState({ at: p - 1 }) }, `${formatInteger(p - 1)}`),
    ),
  );
  let drawnBase = null;
  const chart = createLineChart({
    xLabel: L('axisPosition'),
    yLabel: L('axisError'),
    label: L('precisionLabel'),
    xLog: true,
    yLog: true,
    height: 300,
    figure: figure(L, 'precision', (s) => L('precisionCaption', { r: PRECISION_ROTARY_DIM, base: s.base }), (s) => `sinpe_rope_precision_r${PRECISION_ROTARY_DIM}_b${s.base}_pos4095-1048575`),
  });
  const table = h('div', { class: 'precision-table-box' });
  // the base is lesson-wide: say so beside each chart it redraws
  const baseNote = h('p', { class: 'note base-shared' });
  const summary = h('p', { class: 'precision-summary' });
  root.append(section(L('precisionTitle'), ...paragraphs(L('precisionText')), h('div', { class: 'lesson-controls' }, jumps, controls.element, baseNote), chart.element, summary, table));

  // the error of each pipeline's angles over octaves of positions, an octave a slice (lib/sliced.js)
  const work = createSlicedWork({ busy: [chart.element, summary] });
  function drawChart(s, inv, invF) {
    const f32Points = [];
    const bfPoints = [];
    const sinpePoints = [];
    const step = () => {
      if (f32Points.length === OCTAVES.length) return true;
      const top = OCTAVES[f32Points.length];
      const positions = samplePositionsBelow(top);
      f32Points.push([top, Math.max(1e-9, maxAngleError(positions, inv, invF, 'float32').error)]);
      bfPoints.push([top, Math.max(1e-9, maxAngleError(positions, inv, invF, 'bf16').error)]);
      // the package's cache: float64 angles, one rounding of cos and sin
      const r = PRECISION_ROTARY_DIM;
      const { cos, sin } = ctx.pe.ropeCache(positions, r, { base: s.base });
      let worst = 0;
      positions.forEach((p, i) => {
        for (let j = 0; j < r / 2; j++) {
          const a = p * inv[j];
          worst = Math.max(worst, Math.abs(cos[i * (r / 2) + j] - Math.cos(a)), Math.abs(sin[i * (r / 2) + j] - Math.sin(a)));
        }
      });
      sinpePoints.push([top, Math.max(1e-9, worst)]);
      return false;
    };
    drawnBase = s.base;
    work.start(step, () => showChart(s, f32Points, bfPoints, sinpePoints));
  }

  function showChart(s, f32Points, bfPoints, sinpePoints) {
    const series = [
      { name: L('seriesFloat32'), points: f32Points, dots: f32Points, color: SERIES_COLORS[0] },
      { name: L('seriesBf16'), points: bfPoints, dots: bfPoints, color: SERIES_COLORS[1] },
      { name: L('seriesSinpe'), points: sinpePoints, dots: sinpePoints, color: SERIES_COLORS[2] },
    ];
    chart.draw({ series, xDomain: [2048, 2 ** 21], yDomain: [1e-8, 4], marks: [{ y: 2.5e-7, label: L('markContract') }], state: { base: s.base } });
    summary.textContent = L('precisionSummary', { e4k: sci(f32Points[0][1]), e64k: sci(f32Points[4][1]), e1m: sci(f32Points[8][1]), sinpe: sci(Math.max(...sinpePoints.map(([, v]) => v))) });
  }

  // one position, the first two pairs and the slowest one, every pipeline
  function drawTable(s, inv, invF) {
    const r = PRECISION_ROTARY_DIM;
    const p = s.at;
    const cache = ctx.pe.ropeCache([p], r, { base: s.base });
    const rows = [];
    for (const j of [0, 1, r / 2 - 1]) {
      const exact = p * inv[j];
      const a32 = pipelineAngle(p, inv[j], invF[j], 'float32');
      const a16 = pipelineAngle(p, inv[j], invF[j], 'bf16');
      // a float32 pipeline returns its cos in float32: rounded where it rounds
      const [c32] = pipelineCosSin(p, inv[j], invF[j], 'float32');
      const [c16] = pipelineCosSin(p, inv[j], invF[j], 'bf16');
      const cells = [
        [L('rowExact'), exact, Math.cos(exact), 0],
        [L('rowFloat32'), a32, c32, Math.abs(c32 - Math.cos(exact))],
        [L('rowBf16'), a16, c16, Math.abs(c16 - Math.cos(exact))],
        [L('rowSinpe'), null, cache.cos[j], Math.abs(cache.cos[j] - Math.cos(exact))],
      ];
      cells.forEach(([name, angle, c, err], k) =>
        rows.push(
          h(
            'tr',
            { 'data-pair': j, 'data-pipeline': PIPELINES[k] },
            k === 0 ? h('th', { scope: 'rowgroup', rowspan: 4 }, L('pairCell', { j, omega: fmt(inv[j], 6) })) : null,
            h('th', { scope: 'row' }, name),
            // data-label: a phone shows each row as stacked label: value lines
            h('td', { class: 'angle', 'data-label': L('thAngle') }, angle === null ? '—' : fmt(angle, 6)),
            h('td', { class: 'cos', 'data-label': 'cos' }, fmt(c, 6)),
            h('td', { class: 'error', 'data-label': L('thError') }, k === 0 ? '—' : sci(err)),
          ),
        ),
      );
    }
    const spacingText = L('precisionSpacing', { p: formatInteger(p), angle: fmt(p * inv[0], 1), f32: String(spacing(p * inv[0], 24)), bf16: String(spacing(p * inv[0], 8)), bfPos: formatInteger(bf16(p)) });
    // through show(): a step changes the numbers of the table, not its elements
    show(table, `${s.at} ${s.base} ${s.lang}`, () => [
      h('p', { class: 'precision-spacing' }, spacingText),
      h(
        'div',
        { class: 'table-scroll' },
        h(
          'table',
          { class: 'data precision-table' },
          h('caption', {}, L('precisionCaptionTable', { p: formatInteger(p), r, base: s.base })),
          h('thead', {}, h('tr', {}, [L('thPairCol'), L('thPipeline'), L('thAngle'), 'cos', L('thError')].map((c) => h('th', { scope: 'col' }, c)))),
          h('tbody', {}, rows),
        ),
      ),
    ]);
  }

  return {
    shows: SHOWS,
    update(s, changed) {
      controls.sync(s);
      baseNote.textContent = L('baseShared', { base: s.base });
      if (!changed(...SHOWS)) return;
      const inv = defaultInvFreq(PRECISION_ROTARY_DIM, s.base);
      const invF = hfInvFreqF32(PRECISION_ROTARY_DIM, s.base);
      if (drawnBase !== s.base) drawChart(s, inv, invF);
      drawTable(s, inv, invF);
    },
    figures: () => ({ precisionChart: chart }),
  };
}
