// The variants lesson: the same idea in eight libraries. Each preset's table side by
// side (all drawn by the package's heatmap kernel), their frequencies on one
// log chart, and a snippet reproducing the current view with the package API.
import { h, fmt, paragraphs, showParagraphs } from '../../lib/dom.js';
import { createHeatmap, createColorBar } from '../../lib/heatmap.js';
import { colormapLUT, valuesToRGBA } from '../../lib/colormap.js';
import { createLineChart } from '../../lib/chart.js';
import { createExportBar, createRadioGroup } from '../../lib/controls.js';
import { lessonHeader, section, readout } from '../../lib/lesson.js';
import { downloadCSV, downloadNpy, toCSV } from '../../lib/export.js';
import { PRESETS, valuesOf } from '../../model/fields.js';
import { maeGrid, mergeEqualSeries, presetCall, variantsSnippet } from '../../model/variants.js';
import { questions } from './questions.js';
import { drawWhenSeen } from '../../lib/offscreen.js';

export default {
  id: 'variants',
  questions,
  mount(root, ctx) {
    const { t, pe } = ctx;
    const layoutToggle = createRadioGroup({ key: 'layout', values: valuesOf('layout', ctx.lesson), label: t('lessons.variants.layoutOverride'), app: ctx });
    const layoutNote = h('div', { class: 'note layout-note' });
    const cards = {};
    const grid = h('div', { class: 'preset-grid' });
    for (const preset of PRESETS) {
      const map = createHeatmap({
        xLabel: t('axis.column'),
        yLabel: preset === 'mae' ? t('lessons.variants.patch') : t('axis.position'),
        label: t('lessons.variants.cardLabel', { preset }),
        className: `short map-${preset}`,
        key: preset,
        filteredNote: t('figure.averaged'),
        onCursor: (c, r) => describe(preset, r * (map.frame.rowStep ?? 1), c),
      });
      const button = h('button', { type: 'button', class: 'button preset-select', 'aria-pressed': 'false', onclick: () => ctx.setState({ preset }) }, t('lessons.variants.select'));
      // the package's own message when this preset refuses the d_model shown
      const refusal = h('p', { class: 'note card-refusal' });
      const card = h(
        'div',
        { class: `preset-card preset-${preset}`, 'data-preset': preset },
        h('h3', {}, preset),
        h('p', {}, t(`lessons.variants.about.${preset}`)),
        button,
        map.element,
        refusal,
      );
      cards[preset] = { card, map, button, refusal };
      grid.append(card);
    }
    const bar = createColorBar({ label: t('axis.value') });
    const info = readout('variants-readout');
    const chart = createLineChart({ xLabel: t('axis.frequencyIndex'), yLabel: t('lessons.variants.omegaAxis'), label: t('lessons.variants.chartLabel'), yLog: true, height: 300, key: 'frequencies' });
    // the differences, which five decades of log axis flatten: each ω_i over vaswani's
    const ratioChart = createLineChart({ xLabel: t('axis.frequencyIndex'), yLabel: t('lessons.variants.ratioAxis'), label: t('lessons.variants.ratioLabel'), height: 260, key: 'ratios' });
    const snippet = h('code', { class: 'snippet' });
    const copyStatus = h('span', { class: 'copy-status', 'aria-live': 'polite' });
    const copyButton = h(
      'button',
      {
        type: 'button',
        class: 'button copy-snippet',
        onclick: async () => {
          try {
            await navigator.clipboard.writeText(snippet.textContent);
            copyStatus.textContent = t('lessons.variants.copied');
          } catch {
            copyStatus.textContent = t('lessons.variants.copyFailed');
          }
        },
      },
      t('lessons.variants.copy'),
    );
    const differences = h('div');
    const exportBar = createExportBar(ctx, {
      csv: () => {
        const s = ctx.state;
        const call = presetCall(s.preset, s.len, s.d, s.layout);
        downloadCSV(`sinpe_variants_pe_${s.preset}_${call.rows}x${s.d}.csv`, toCSV(call.run(pe), call.rows, s.d));
      },
      npy: () => {
        const s = ctx.state;
        const call = presetCall(s.preset, s.len, s.d, s.layout);
        downloadNpy(`sinpe_variants_pe_${s.preset}_${call.rows}x${s.d}.npy`, call.run(pe), [call.rows, s.d]);
      },
    });

    const chartSection = section(t('lessons.variants.chartTitle'), ...paragraphs(t('lessons.variants.chartText')), chart.element, ...paragraphs(t('lessons.variants.ratioText')), ratioChart.element);
    root.append(
      ...lessonHeader(ctx, 'variants'),
      h('div', { class: 'lesson-controls' }, layoutToggle.element, ctx.controls),
      layoutNote,
      grid,
      bar.element,
      info,
      section(t('lessons.variants.snippetTitle'), ...paragraphs(t('lessons.variants.snippetText')), h('pre', {}, snippet), h('div', { class: 'copy-row' }, copyButton, copyStatus), exportBar),
      chartSection,
      section(t('lessons.variants.diffTitle'), differences),
    );

    let current = null;

    // r: a row of the table (a position, or a patch for MAE)
    function describe(preset, r, c) {
      const s = current;
      const call = presetCall(preset, s.len, s.d, s.layout);
      if (r >= call.rows || cards[preset].refused) return;
      const value = call.heatmap ? pe.rows(r, 1, s.d, call.options)[c] : call.run(pe)[r * s.d + c];
      let where = t('lessons.variants.rowPosition', { position: r });
      if (preset === 'mae') {
        const { width } = maeGrid(s.len);
        where = t('lessons.variants.rowPatch', { index: r, row: Math.floor(r / width), col: r % width });
      }
      info.textContent = t('lessons.variants.readout', { preset, where, column: c, value: fmt(value, 6) });
      cards[preset].map.setCursor(c, Math.floor(r / (cards[preset].map.frame.rowStep ?? 1)), false);
    }

    // Presets with the same frequencies share one line, named by all of them;
    // MAE's are per axis of its 2-D grid (each axis is a 1-D encoding of width
    // d/2), so d/4 of them, drawn with their dots.
    function drawFrequencies(s) {
      const oneD = PRESETS.filter((preset) => preset !== 'mae' && !refusalOf(preset, s));
      const groups = mergeEqualSeries(oneD.map((preset) => ({ name: preset, values: pe.frequencies(s.d, { preset }) })));
      const series = groups.map((g) => ({ name: g.names.join(', '), points: Array.from(g.values, (w, i) => [i, w]) }));
      if (!refusalOf('mae', s)) {
        const perAxis = pe.frequencies(s.d / 2, { preset: 'mae' });
        const points = Array.from(perAxis, (w, i) => [i, w]);
        series.push({ name: t('lessons.variants.maeSeries', { count: perAxis.length }), points, dots: points });
      }
      const longest = Math.max(1, ...series.map((x) => x.points.length - 1));
      // the charts depend on d only (every preset's frequencies are drawn)
      chart.draw({ series, xDomain: [0, longest], yDomain: [1e-5, 2], state: { d: s.d } });
      // ω_i of each 1-D group over the reference (vaswani, or keras for an odd d)
      const reference = groups.find((g) => g.names.includes('vaswani') || g.names.includes('keras'));
      if (!reference) return;
      const ratios = groups.map((g) => ({
        name: g.names.join(', '),
        points: Array.from(g.values.subarray(0, reference.values.length), (w, i) => [i, w / reference.values[i]]),
      }));
      let lo = 1;
      let hi = 1;
      for (const r of ratios) for (const [, v] of r.points) [lo, hi] = [Math.min(lo, v), Math.max(hi, v)];
      const pad = Math.max(0.02, (hi - lo) * 0.08);
      ratioChart.draw({ series: ratios, xDomain: [0, longest], yDomain: [lo - pad, hi + pad], marks: [{ y: 1, label: t('lessons.variants.ratioOne') }], state: { d: s.d } });
    }

    /** The package's reason (null: none) when `call` throws a RangeError. */
    function reasonOf(call) {
      try {
        call();
        return null;
      } catch (error) {
        if (!(error instanceof RangeError)) throw error;
        return ctx.reason(error);
      }
    }

    // Whether a preset takes the state's d_model and layout: one row of its call (its rule does not
    // depend on the rows), remembered per preset, d, layout and language (a slider going back and forth
    // meets the same few values; the cards and the frequency chart ask alike).
    const refusals = new Map();
    function refusalOf(preset, s) {
      const key = [preset, s.d, s.layout, s.lang].join();
      if (!refusals.has(key)) {
        const call = presetCall(preset, s.len, s.d, s.layout);
        refusals.set(key, reasonOf(() => (call.heatmap ? pe.table(1, s.d, call.options) : pe.grid2d(1, 1, s.d, call.options))));
      }
      return refusals.get(key);
    }

    /** Sets card.refused to the package's reason (null: none) and shows it. */
    function refuse(card, s, reason) {
      card.refused = reason;
      card.map.element.hidden = Boolean(card.refused);
      card.refusal.textContent = card.refused ? t('lessons.variants.refused', { d: s.d, message: card.refused }) : '';
    }

    function drawCard(card, preset, call, s, lut) {
      // a card has fewer pixel rows than a long table: it shows every step-th row
      const pixels = card.map.plotPixels;
      const step = pixels > 0 && call.rows > 2 * pixels ? Math.ceil(call.rows / pixels) : 1;
      let frame = null;
      refuse(card, s, reasonOf(() => {
        if (step === 1) {
          // grid2d has no fused heatmap: its table is coloured with the kernel's rule
          frame = { rgba: call.heatmap ? call.heatmap(pe, lut) : valuesToRGBA(call.run(pe), s.cmap), rows: call.rows };
          return;
        }
        const count = Math.ceil(call.rows / step);
        let values;
        if (call.heatmap) values = pe.encode(Float64Array.from({ length: count }, (_, r) => r * step), s.d, call.options);
        else {
          // a 2-D grid's rows are patches, not positions: take every step-th of the whole grid
          const table = call.run(pe);
          values = new Float32Array(count * s.d);
          for (let r = 0; r < count; r++) values.set(table.subarray(r * step * s.d, (r * step + 1) * s.d), r * s.d);
        }
        frame = { rgba: valuesToRGBA(values, s.cmap), rows: count, rowStep: step, full: () => ({ rgba: call.heatmap ? call.heatmap(pe, lut) : valuesToRGBA(call.run(pe), s.cmap), rows: call.rows }) };
      }));
      // the card's figure: this preset's table (the selected preset is another card's)
      const state = { d: s.d, len: s.len, layout: s.layout, cmap: s.cmap, preset };
      // every row's values, box-filtered where the cells outnumber the card's pixels
      const values = () => ({ data: call.run(pe), rows: call.rows });
      if (frame) card.map.draw({ ...frame, columns: s.d, x0: 0, y0: 0, state, scale: { cmap: s.cmap, vmin: -1, vmax: 1, label: t('axis.value') }, values });
    }

    return {
      figures: () => ({ chart, ratioChart, cards }),
      update(s, changed) {
        current = s;
        layoutToggle.sync(s);
        showParagraphs(layoutNote, s.layout !== 'preset' ? t('lessons.variants.layoutNote', { layout: t(`layout.${s.layout}`) }) : []);
        const lut = colormapLUT(s.cmap);
        if (changed('d', 'len', 'cmap', 'layout')) {
          for (const preset of PRESETS) {
            const call = presetCall(preset, s.len, s.d, s.layout);
            const card = cards[preset];
            // the card (whether its preset takes this d_model, and its table): now if on or near the
            // screen, else after the frame (lib/offscreen.js; a later state's draw replaces this one)
            drawWhenSeen(card.card, () => {
              refuse(card, s, refusalOf(preset, s));
              if (!card.refused) drawCard(card, preset, call, s, lut);
            });
          }
          bar.draw(s.cmap, -1, 1);
          drawWhenSeen(chartSection, () => drawFrequencies(s));
        }
        for (const preset of PRESETS) {
          const on = preset === s.preset;
          cards[preset].card.classList.toggle('current', on);
          cards[preset].button.setAttribute('aria-pressed', String(on));
          cards[preset].button.textContent = on ? t('lessons.variants.selected') : t('lessons.variants.select');
        }
        const call = presetCall(s.preset, s.len, s.d, s.layout);
        snippet.textContent = variantsSnippet(call, s.d, (key, vars) => t(`code.variants.${key}`, vars));
        showParagraphs(differences, t(`lessons.variants.details.${s.preset}`));
        describe(s.preset, 1, 0);
      },
    };
  },
};
