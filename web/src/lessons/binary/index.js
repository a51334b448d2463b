// The binary lesson: the binary counting analogy. Positions 0 … 2^k − 1 in binary
// beside their encodings: bit b flips every 2^b positions, and the low
// dimensions of the encoding turn fastest, like the low bits.
import { h, fmt, paragraphs, show, showParagraphs } from '../../lib/dom.js';
import { createHeatmap, createColorBar } from '../../lib/heatmap.js';
import { colormapLUT, valuesToRGBA } from '../../lib/colormap.js';
import { createLineChart } from '../../lib/chart.js';
import { lessonHeader, section, readout } from '../../lib/lesson.js';
import { formatInteger } from '../../lib/numbers.js';
import { questions } from './questions.js';
import { drawWhenSeen } from '../../lib/offscreen.js';

export default {
  id: 'binary',
  questions,
  mount(root, ctx) {
    const { t, pe } = ctx;
    const info = readout('binary-readout');
    const bitsMap = createHeatmap({
      xLabel: t('lessons.binary.bitAxis'),
      yLabel: t('axis.position'),
      label: t('lessons.binary.bitsLabel'),
      className: 'bits-map',
      key: 'bits',
      filteredNote: t('figure.averaged'),
      // columns hold bits from the most significant down: label them with the bit number b
      xTickFormat: (c) => String((current?.s.bits ?? 0) - 1 - c),
      onCursor: (c, r) => describe(r, { bitColumn: c }),
    });
    const peMap = createHeatmap({
      xLabel: t('axis.column'),
      yLabel: t('axis.position'),
      label: t('lessons.binary.peLabel'),
      className: 'pe-map',
      key: 'encoding',
      filteredNote: t('figure.averaged'),
      onCursor: (c, r) => describe(r, { column: c }),
    });
    const bar = createColorBar({ label: t('axis.value') });
    const chart = createLineChart({ xLabel: t('axis.position'), yLabel: t('axis.value'), label: t('lessons.binary.chartLabel'), height: 240, key: 'curves' });
    const tableBox = h('div');
    const explainBox = h('div', { class: 'binary-explain' });
    const chartText = h('div', { class: 'binary-chart-text' });
    // the chart draws these bits and these (sin) columns; the text names the same ones
    const CHART_BITS = [0, 1];
    const CHART_COLUMNS = [0, 2];
    // the chart's window: 8 bits make 256 positions, and column 0 (wavelength 2π)
    // would turn some 40 times across it, a solid block
    const CHART_POSITIONS = 32;
    const SAMPLES_PER_POSITION = 16; // the encoding is a smooth function of the position

    root.append(
      ...lessonHeader(ctx, 'binary'),
      h('div', { class: 'lesson-controls' }, ctx.controls),
      h('div', { class: 'side-by-side' }, h('div', {}, h('h2', {}, t('lessons.binary.bitsTitle')), bitsMap.element), h('div', {}, h('h2', {}, t('lessons.binary.peTitle')), peMap.element)),
      bar.element,
      info,
      explainBox,
      section(t('lessons.binary.chartTitle'), chartText, chart.element),
      section(t('lessons.binary.diffTitle'), ...paragraphs(t('lessons.binary.diff'))),
      h('details', { class: 'data-details' }, h('summary', {}, t('lessons.binary.tableSummary')), tableBox),
    );

    let current = null;

    function describe(position, { bitColumn, column }) {
      const { s, table, omega } = current;
      const bits = position.toString(2).padStart(s.bits, '0');
      let text = t('lessons.binary.readoutPosition', { position, binary: bits });
      if (bitColumn !== undefined) {
        const b = s.bits - 1 - bitColumn;
        text += ' ' + t('lessons.binary.readoutBit', { bit: b, value: (position >> b) & 1, period: 2 ** b });
        bitsMap.setCursor(bitColumn, position, false);
      }
      if (column !== undefined) {
        const i = Math.floor(column / 2);
        text += ' ' + t('lessons.binary.readoutColumn', {
          column,
          kind: column % 2 === 0 ? 'sin' : 'cos',
          i,
          value: fmt(table[position * s.d + column], 4),
          wavelength: fmt((2 * Math.PI) / omega[i], 2),
        });
        peMap.setCursor(column, position, false);
      }
      info.textContent = text;
    }

    function drawChart(s, table, chartCount) {
      const series = [];
      for (const b of CHART_BITS) {
        // a square wave: bit b holds its value from p to p + 1, then jumps
        const points = [];
        for (let p = 0; p < chartCount; p++) {
          const v = (p >> b) & 1 ? 1 : -1;
          points.push([p, v]);
          if (p + 1 < chartCount) points.push([p + 1, v]);
        }
        series.push({ name: t('lessons.binary.bitSeries', { bit: b }), points });
      }
      // the encoding between the integers too (the package takes fractional positions)
      const samples = Float64Array.from({ length: (chartCount - 1) * SAMPLES_PER_POSITION + 1 }, (_, k) => k / SAMPLES_PER_POSITION);
      const smooth = pe.encode(samples, s.d, { base: s.base });
      for (const c of CHART_COLUMNS) {
        series.push({
          name: t('lessons.binary.colSeries', { column: c }),
          points: Array.from(samples, (p, k) => [p, smooth[k * s.d + c]]),
          dots: Array.from({ length: chartCount }, (_, p) => [p, table[p * s.d + c]]),
        });
      }
      chart.draw({ series, xDomain: [0, Math.max(1, chartCount - 1)], yDomain: [-1.1, 1.1], marks: [{ y: 0 }], state: s });
    }

    function drawTable(s, table, count) {
      const shown = Math.min(s.d, 6);
      // through show(): a step that changes only the numbers changes only their texts
      show(tableBox, JSON.stringify([s.d, s.base, s.bits, count, s.lang]), () =>
        h(
          'div',
          { class: 'table-scroll' },
          h(
            'table',
            { class: 'data binary-table' },
            h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('axis.position')), h('th', { scope: 'col' }, t('lessons.binary.binary')), Array.from({ length: shown }, (_, c) => h('th', { scope: 'col' }, `PE[${c}]`)))),
            h(
              'tbody',
              {},
              Array.from({ length: count }, (_, p) =>
                h('tr', {}, h('th', { scope: 'row' }, String(p)), h('td', { class: 'bits' }, p.toString(2).padStart(s.bits, '0')), Array.from({ length: shown }, (_, c) => h('td', {}, fmt(table[p * s.d + c], 3)))),
              ),
            ),
          ),
        ),
      );
    }

    return {
      figures: () => ({ bitsMap, peMap, chart }),
      update(s, changed) {
        const count = 2 ** s.bits;
        const table = pe.table(count, s.d, { base: s.base });
        const omega = pe.frequencies(s.d, { base: s.base });
        current = { s, table, omega };
        // bit value 1 ↦ +1, 0 ↦ −1 on the same colormap; most significant bit on the left
        const bitValues = new Float32Array(count * s.bits);
        for (let p = 0; p < count; p++) for (let c = 0; c < s.bits; c++) bitValues[p * s.bits + c] = (p >> (s.bits - 1 - c)) & 1 ? 1 : -1;
        // values: more cells than the plot's pixels are shown box-filtered (lib/boxfilter.js)
        bitsMap.draw({ rgba: valuesToRGBA(bitValues, s.cmap), columns: s.bits, rows: count, x0: 0, y0: 0, scale: { cmap: s.cmap, vmin: -1, vmax: 1, label: t('lessons.binary.bitsLabel') }, state: s, values: () => ({ data: bitValues, rows: count }) });
        peMap.draw({ rgba: pe.heatmap(0, count, s.d, { base: s.base, colormap: colormapLUT(s.cmap) }), columns: s.d, rows: count, x0: 0, y0: 0, scale: { cmap: s.cmap, vmin: -1, vmax: 1, label: t('axis.value') }, state: s, values: () => ({ data: table, rows: count }) });
        if (changed('cmap')) bar.draw(s.cmap, -1, 1);
        describe(Math.min(5, count - 1), { bitColumn: s.bits - 1 });
        // texts out of view are written after the frame too (their inline formulas are typeset anew when a number changes)
        drawWhenSeen(explainBox, () => showParagraphs(explainBox, t('lessons.binary.explain', { ratio: fmt(s.base ** (2 / s.d), 2), d: s.d, baseValue: s.base })));

        const [c0, c1] = CHART_COLUMNS.map((c) => ({ column: c, i: c / 2, wavelength: fmt((2 * Math.PI) / omega[c / 2], 2) }));
        const chartCount = Math.min(count, CHART_POSITIONS);
        const chartParagraphs = [
          ...t('lessons.binary.chartText').map((p) =>
            p.replace(/\{(\w+)\}/g, (m, k) => String({ b0: CHART_BITS[0], b1: CHART_BITS[1], p0: 2 ** (CHART_BITS[0] + 1), p1: 2 ** (CHART_BITS[1] + 1), c0: c0.column, c1: c1.column, i0: c0.i, i1: c1.i, w0: c0.wavelength, w1: c1.wavelength, d: s.d, base: Number.isInteger(s.base) ? formatInteger(s.base) : s.base }[k] ?? m)),
          ),
          ...(count > chartCount ? [t('lessons.binary.chartWindow', { last: chartCount - 1, count })] : []),
        ];
        drawWhenSeen(chartText, () => showParagraphs(chartText, chartParagraphs));
        // out of view, the chart's series and the table are computed after the frame (lib/offscreen.js)
        drawWhenSeen(chart.element, () => drawChart(s, table, chartCount), 'series');
        if (changed('bits', 'd', 'base')) drawWhenSeen(tableBox, () => drawTable(s, table, count));
      },
    };
  },
};
