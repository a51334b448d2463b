// The waves lesson: waves and wavelengths. Chosen columns as curves against position
// (the d2l figure of columns 6–9), the geometric progression of wavelengths
// on a log axis, and which columns never finish a cycle within max_len.
import { h, fmt, rich, paragraphs, clear, show, htmlLabel } from '../../lib/dom.js';
import { createLineChart } from '../../lib/chart.js';
import { lessonHeader, section, readout } from '../../lib/lesson.js';
import * as clockSection from './clock.js';
import { questions } from './questions.js';

export default {
  id: 'waves',
  questions,
  mount(root, ctx) {
    const { t, pe } = ctx;
    const curveInfo = readout('waves-readout');
    const curves = createLineChart({
      xLabel: t('axis.position'),
      yLabel: t('axis.value'),
      label: t('lessons.waves.curvesLabel'),
      key: 'curves',
      // what its export's caption names: the clock's position is not drawn here
      figure: { fields: ['d', 'len', 'base', 'cols'] },
      height: 280,
      onCursor: (x) => describePosition(Math.round(x)),
    });
    const lengthInfo = readout('wavelength-readout');
    const lengths = createLineChart({
      xLabel: t('axis.frequencyIndex'),
      yLabel: t('axis.wavelength'),
      label: t('lessons.waves.lengthsLabel'),
      key: 'wavelengths',
      figure: { fields: ['d', 'len', 'base'] },
      yLog: true,
      height: 300,
      onCursor: (x) => describeFrequency(Math.round(x)),
    });
    const neverText = h('p', { class: 'never-summary' });
    const curvesNow = h('div', { class: 'curves-summary' });
    const tableBox = h('div');
    // the table of all wavelengths is built when it is open (up to 256 rows a step otherwise)
    const tableDetails = h('details', { class: 'data-details', ontoggle: () => tableDetails.open && current && buildTable(current.s, current.omega) }, h('summary', {}, t('lessons.waves.tableSummary')), tableBox);
    const presetsRow = h(
      'div',
      { class: 'button-row' },
      h('span', { class: 'button-row-label' }, t('lessons.waves.try')),
      h('button', { type: 'button', class: 'button', onclick: () => ctx.setState({ d: 32, len: 60, cols: '6,7,8,9' }) }, t('lessons.waves.d2l')),
      h('button', { type: 'button', class: 'button', onclick: () => ctx.setState({ cols: '0,2,4,6' }) }, t('lessons.waves.sinCols')),
      h('button', { type: 'button', class: 'button', onclick: () => ctx.setState({ cols: '0,1' }) }, t('lessons.waves.pair')),
    );

    root.append(
      ...lessonHeader(ctx, 'waves'),
      h('div', { class: 'lesson-controls' }, presetsRow, ctx.controls),
      section(t('lessons.waves.curvesTitle'), ...paragraphs(t('lessons.waves.curvesText')), curvesNow, curves.element, curveInfo),
    );
    const clock = clockSection.mount(root, ctx);
    root.append(
      section(
        t('lessons.waves.lengthsTitle'),
        ...paragraphs(t('lessons.waves.lengthsText')),
        lengths.element,
        lengthInfo,
        neverText,
        tableDetails,
      ),
      section(t('lessons.waves.whyTitle'), ...paragraphs(t('lessons.waves.why'))),
    );

    let current = null;

    // Rows 0 … len − 1 of the table do not depend on len: a step of max_len
    // computes only the rows it adds (or none), a column change none. The rows
    // are written into one buffer (the package's `out`), kept across steps of
    // d and base and grown to twice its rows when max_len outgrows it.
    let known = null; // { d, base, rows, table }
    function tableOf(s) {
      if (!known || known.d !== s.d || known.base !== s.base) known = { d: s.d, base: s.base, rows: 0, table: known?.table ?? new Float32Array(0) };
      if (known.rows < s.len) {
        if (known.table.length < s.len * s.d) {
          const grown = new Float32Array(Math.max(s.len, 2 * known.rows) * s.d);
          grown.set(known.table.subarray(0, known.rows * s.d));
          known.table = grown;
        }
        pe.rows(known.rows, s.len - known.rows, s.d, { base: s.base, out: known.table.subarray(known.rows * s.d, s.len * s.d) });
        known.rows = s.len;
      }
      return known.table;
    }

    // What the plotted columns are (interleaved: column c is the sin (c even) or
    // cos (c odd) of frequency i = ⌊c/2⌋), so the text says what the figure shows.
    function describeColumns(cols) {
      const byFrequency = new Map();
      for (const c of new Set(cols)) {
        const i = Math.floor(c / 2);
        if (!byFrequency.has(i)) byFrequency.set(i, {});
        byFrequency.get(i)[c % 2 === 0 ? 'sin' : 'cos'] = c;
      }
      const frequencies = [...byFrequency.keys()].sort((a, b) => a - b);
      const parts = frequencies.map((i) => {
        const { sin, cos } = byFrequency.get(i);
        if (sin !== undefined && cos !== undefined) return t('lessons.waves.curvesPair', { sin, cos, i });
        if (sin !== undefined) return t('lessons.waves.curvesSin', { column: sin, i });
        return t('lessons.waves.curvesCos', { column: cos, i });
      });
      const texts = [t('lessons.waves.curvesNow', { parts: parts.join(t('lessons.waves.curvesJoin')) })];
      if (frequencies.length > 1) texts.push(t('lessons.waves.curvesOrder', { fast: frequencies[0], slow: frequencies.at(-1) }));
      show(curvesNow, texts.join(' '), () => rich(texts.join(' ')));
    }

    function describePosition(p) {
      if (!current) return;
      const { s, table } = current;
      const position = Math.min(s.len - 1, Math.max(0, p));
      const parts = s.cols.map((c) => t('lessons.waves.colValue', { column: c, value: fmt(table[position * s.d + c], 4) }));
      curveInfo.textContent = t('lessons.waves.readoutPosition', { position, values: parts.join(t('lessons.waves.curvesJoin')) });
    }

    function describeFrequency(i) {
      if (!current) return;
      const { s, omega } = current;
      const k = Math.min(omega.length - 1, Math.max(0, i));
      const wavelength = (2 * Math.PI) / omega[k];
      lengthInfo.textContent = t('lessons.waves.readoutFrequency', {
        i: k,
        sinColumn: 2 * k,
        cosColumn: 2 * k + 1,
        frequency: fmt(omega[k], 6),
        wavelength: fmt(wavelength, 2),
        cycles: fmt(s.len / wavelength, 3),
      });
    }

    function buildTable(s, omega) {
      const rows = Array.from(omega, (w, i) => {
        const l = (2 * Math.PI) / w;
        return h('tr', {}, h('td', {}, String(i)), h('td', {}, `${2 * i}, ${2 * i + 1}`), h('td', {}, fmt(w, 6)), h('td', {}, fmt(l, 2)), h('td', {}, fmt(s.len / l, 3)));
      });
      clear(tableBox).append(
        h(
          'div',
          { class: 'table-scroll' },
          h(
            'table',
            { class: 'data wavelength-table' },
            h('thead', {}, h('tr', {}, ['i', t('lessons.waves.thColumns'), 'ω_i', 'λ_i', t('lessons.waves.thCycles')].map((x) => h('th', { scope: 'col' }, htmlLabel(x))))),
            h('tbody', {}, rows),
          ),
        ),
      );
    }

    return {
      figures: () => ({ curves, lengths, ...clock.figures() }),
      update(s, changed) {
        clock.update(s);
        // the clock's position moves only the clock (lists compare by value: each change makes new ones)
        if (!changed(...Object.keys(s).filter((k) => k !== 'pos'))) return;
        const table = tableOf(s);
        const omega = pe.frequencies(s.d, { base: s.base });
        current = { s, table, omega };
        const series = s.cols.map((c) => ({
          name: t('lessons.waves.colName', { column: c, kind: c % 2 === 0 ? 'sin' : 'cos', i: Math.floor(c / 2) }),
          points: Array.from({ length: s.len }, (_, p) => [p, table[p * s.d + c]]),
        }));
        describeColumns(s.cols);
        curves.draw({ series, xDomain: [0, s.len - 1], yDomain: [-1.05, 1.05], marks: [{ y: 0 }], state: s });
        describePosition(0);

        const half = s.d / 2;
        const wavelengths = Array.from(omega, (w) => (2 * Math.PI) / w);
        const points = wavelengths.map((l, i) => [i, l]);
        const never = points.filter(([, l]) => l > s.len);
        const lo = Math.min(wavelengths[0], s.len) / 1.5;
        const hi = Math.max(wavelengths[half - 1], s.len) * 1.5;
        lengths.draw({
          series: [{ name: t('lessons.waves.lengthSeries'), points, dots: points }],
          xDomain: [0, Math.max(1, half - 1)],
          yDomain: [lo, hi],
          marks: [
            { y: s.len, label: t('lessons.waves.maxLenMark', { len: s.len }) },
            { y: 2 * Math.PI, label: '2π' },
            { y: 2 * Math.PI * s.base, label: t('lessons.waves.baseMark') },
          ],
          snap: (x) => Math.round(x),
          state: s,
        });
        describeFrequency(0);
        neverText.textContent =
          never.length === 0
            ? t('lessons.waves.allCycle', { len: s.len })
            : t('lessons.waves.never', {
                count: never.length,
                half,
                first: never[0][0],
                firstColumn: 2 * never[0][0],
                firstCycles: fmt(s.len / never[0][1], 2),
                len: s.len,
                ratio: fmt(s.base ** (2 / s.d), 4),
              });

        if (tableDetails.open) buildTable(s, omega);
        else clear(tableBox);
      },
    };
  },
};
