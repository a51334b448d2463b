// The heatmap lesson: reading the heatmap. Position × dimension, drawn by the package's
// fused heatmap kernel straight into the canvas' RGBA buffer; rows are made
// on demand, so the view can scroll to any position below 2^24.
import { h, fmt, rich, tex, clear } from '../../lib/dom.js';
import { createHeatmap, createColorBar } from '../../lib/heatmap.js';
import { colormapLUT, valuesToRGBA } from '../../lib/colormap.js';
import { createRadioGroup, createExportBar } from '../../lib/controls.js';
import { lessonHeader, section, readout } from '../../lib/lesson.js';
import { columnInfo } from '../../model/layout.js';
import { downloadCSV, downloadNpy, toCSV } from '../../lib/export.js';
import { rowRangeName } from '../../lib/figure/names.js';
import { LAYOUTS, MAX_POSITION } from '../../model/fields.js';
import { WAVELENGTH } from '../../lib/maths/sinusoidal.js';
import { formatInteger } from '../../lib/numbers.js';
import { questions } from './questions.js';

/**
 * One-click views of the heatmap lesson that reproduce two well-known
 * figures: d2l's heatmap of P (60 positions × 32 dimensions, interleaved,
 * matplotlib's Blues) and the concatenated 20 × 512 table drawn with viridis.
 */
function readyViews(ctx) {
  const view = (cls, label, patch) => h('button', { type: 'button', class: `button ${cls}`, onclick: () => ctx.setState(patch) }, ctx.t(label));
  return h(
    'div',
    { class: 'button-row ready-views', role: 'group', 'aria-label': ctx.t('figure.ready') },
    h('span', { class: 'button-row-label' }, ctx.t('figure.ready')),
    view('ready-d2l', 'figure.readyD2l', { d: 32, len: 60, start: 0, base: 10000, layout: 'interleaved', cmap: 'blues' }),
    view('ready-seed004', 'figure.readySeed004', { d: 512, len: 20, start: 0, base: 10000, layout: 'concat', cmap: 'viridis' }),
  );
}

export default {
  id: 'heatmap',
  questions,
  mount(root, ctx) {
    const { t, pe } = ctx;
    const layoutToggle = createRadioGroup({ key: 'layout', values: LAYOUTS, label: t('control.layout'), app: ctx });
    const info = readout('heatmap-readout');
    const summary = h('p', { class: 'figure-summary' });
    const map = createHeatmap({
      xLabel: t('axis.column'),
      yLabel: t('axis.position'),
      label: t('lessons.heatmap.figureLabel'),
      key: 'table',
      filteredNote: t('figure.averaged'),
      onCursor: () => describeCursor(),
      onScroll: (delta) => ctx.setState({ start: Math.max(0, ctx.state.start + delta) }),
      // the position under the pointer stays under it
      onZoom: (factor, row) => {
        const { start, len } = ctx.state;
        const next = Math.max(1, Math.round(len * factor));
        if (next === len) return;
        ctx.setState({ len: next, start: Math.max(0, Math.round(start + row - (row * next) / len)) });
      },
    });
    const bar = createColorBar({ label: t('axis.value') });
    const zoomIn = h('button', { type: 'button', class: 'button', onclick: () => ctx.setState({ len: Math.max(1, Math.round(ctx.state.len / 2)) }) }, t('lessons.heatmap.zoomIn'));
    const zoomOut = h('button', { type: 'button', class: 'button', onclick: () => ctx.setState({ len: ctx.state.len * 2 }) }, t('lessons.heatmap.zoomOut'));
    const jumps = h(
      'div',
      { class: 'button-row', role: 'group', 'aria-label': t('lessons.heatmap.jump') },
      h('span', { class: 'button-row-label' }, t('lessons.heatmap.jump')),
      [0, 1000, 100000, 10000000].map((p) =>
        h('button', { type: 'button', class: 'button', onclick: () => ctx.setState({ start: p }) }, formatInteger(p)),
      ),
    );
    const exportBar = createExportBar(ctx, {
      csv: () => {
        const s = ctx.state;
        const values = pe.rows(s.start, s.len, s.d, options(s));
        downloadCSV(`sinpe_heatmap_pe_${s.layout}_d${s.d}_${rowRangeName(s.start, s.len)}.csv`, toCSV(values, s.len, s.d, { rowLabels: positions(s) }));
      },
      npy: () => {
        const s = ctx.state;
        downloadNpy(`sinpe_heatmap_pe_${s.layout}_d${s.d}_${rowRangeName(s.start, s.len)}.npy`, pe.rows(s.start, s.len, s.d, options(s)), [s.len, s.d]);
      },
    });
    const beyond = h('p', { class: 'note beyond-note' });
    // what row 0 and the slow columns look like in the layout shown now
    const row0Layout = h('div', { class: 'row0-layout' });
    const flatLayout = h('div', { class: 'flat-layout' });

    root.append(
      ...lessonHeader(ctx, 'heatmap'),
      h('div', { class: 'lesson-controls' }, layoutToggle.element, ctx.controls),
      h('div', { class: 'figure-toolbar' }, zoomIn, zoomOut, jumps),
      readyViews(ctx),
      map.element,
      bar.element,
      info,
      summary,
      beyond,
      exportBar,
      section(t('lessons.heatmap.row0Title'), ...t('lessons.heatmap.row0').map((p) => rich(p)), row0Layout),
      section(t('lessons.heatmap.flatTitle'), rich(t('lessons.heatmap.flat')[0]), flatLayout, ...t('lessons.heatmap.flat').slice(1).map((p) => rich(p)), tex(WAVELENGTH.tex, true)),
      section(t('lessons.heatmap.layoutTitle'), ...t('lessons.heatmap.layouts').map((p) => rich(p))),
    );

    const options = (s) => ({ layout: s.layout, base: s.base });
    const positions = (s) => Array.from({ length: s.len }, (_, r) => s.start + r);

    function describeCursor() {
      const s = ctx.state;
      const { col, row } = map.cursor;
      if (col < 0) {
        info.textContent = t('lessons.heatmap.hoverHint');
        return;
      }
      const position = s.start + row * (map.frame.rowStep ?? 1);
      const { kind, k } = columnInfo(col, s.d, s.layout);
      const omega = pe.frequencies(s.d, { base: s.base })[k];
      const value = pe.rows(position, 1, s.d, options(s))[col];
      info.textContent = t('readout.cell', {
        position,
        column: col,
        kind,
        i: k,
        frequency: fmt(omega, 6),
        angle: fmt(position * omega, 4),
        value: fmt(value, 6),
      });
    }

    return {
      figures: () => ({ map }),
      update(s, changed) {
        layoutToggle.sync(s);
        // the layout's text (and its glossary links) is rewritten only when the layout changes
        if (changed('layout')) {
          clear(row0Layout).append(rich(t(`lessons.heatmap.row0Layout.${s.layout}`)));
          clear(flatLayout).append(rich(t(`lessons.heatmap.flatLayout.${s.layout}`)));
        }
        const scale = { cmap: s.cmap, vmin: -1, vmax: 1, label: t('axis.value') };
        const lut = colormapLUT(s.cmap);
        // More rows than the plot has pixel rows (4096 into 480, say) would be
        // thinned out by the browser's scaling anyway: then only every step-th
        // row is made, which keeps a step of a slider under a frame or two. The
        // readout and the exports still use every row.
        const pixels = map.plotPixels;
        // every row's values, for the box-filtered display of more cells than pixels
        let all = null;
        const values = () => (all ??= { data: pe.rows(s.start, s.len, s.d, options(s)), rows: s.len });
        const step = pixels > 0 && s.len > 2 * pixels ? Math.ceil(s.len / pixels) : 1;
        if (step === 1) {
          // the fused kernel writes straight into the canvas' ImageData buffer
          const buffer = map.pixels(s.d, s.len);
          pe.heatmap(s.start, s.len, s.d, { ...options(s), colormap: lut, out: buffer });
          map.draw({ rgba: buffer, columns: s.d, rows: s.len, x0: 0, y0: s.start, scale, state: s, values });
        } else {
          const count = Math.ceil(s.len / step);
          const positions = Float64Array.from({ length: count }, (_, r) => s.start + r * step);
          const buffer = map.pixels(s.d, count);
          valuesToRGBA(pe.encode(positions, s.d, options(s)), s.cmap, -1, 1, buffer);
          const full = () => ({ rgba: pe.heatmap(s.start, s.len, s.d, { ...options(s), colormap: lut }), rows: s.len });
          map.draw({ rgba: buffer, columns: s.d, rows: count, rowStep: step, x0: 0, y0: s.start, scale, full, state: s, values });
        }
        if (changed('cmap')) bar.draw(s.cmap, -1, 1);
        describeCursor();
        summary.textContent = t('lessons.heatmap.summary', {
          rows: s.len,
          first: s.start,
          last: s.start + s.len - 1,
          d: s.d,
          layout: t(`layout.${s.layout}`),
        });
        map.element.querySelector('.heatmap-plot').setAttribute('aria-label', summary.textContent);
        beyond.textContent = s.start > 0 ? t('lessons.heatmap.beyond', { start: s.start, max: MAX_POSITION - 1 }) : '';
      },
    };
  },
};
