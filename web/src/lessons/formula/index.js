// The formula lesson: the formula, step by step, on the original tutorials' examples
// (3×4 and 8×16): positions, frequency index, 2i/d, the angle matrix, then sin
// into the even columns and cos into the odd ones. Every cell explains itself.
// Then why d must be even and how the tutorials' per-column code reads.
import { h, fmt, fmtTex, tex, paragraphs, clear, showParagraphs } from '../../lib/dom.js';
import { colorOf, colormapLUT } from '../../lib/colormap.js';
import { createMatrixTable } from '../../lib/table.js';
import { createHeatmap, createColorBar } from '../../lib/heatmap.js';
import { createExportBar } from '../../lib/controls.js';
import { lessonHeader, section, readout, commented } from '../../lib/lesson.js';
import { downloadCSV, downloadNpy, toCSV } from '../../lib/export.js';
import { PE } from '../../lib/maths/sinusoidal.js';
import { questions } from './questions.js';

export default {
  id: 'formula',
  questions,
  mount(root, ctx) {
    const { t, pe } = ctx;
    const examples = h(
      'div',
      { class: 'button-row', role: 'group', 'aria-label': t('lessons.formula.examples') },
      h('span', { class: 'button-row-label' }, t('lessons.formula.examples')),
      h('button', { type: 'button', class: 'button example-3x4', onclick: () => ctx.setState({ len: 3, d: 4, base: 10000 }) }, t('lessons.formula.example3x4')),
      h('button', { type: 'button', class: 'button example-8x16', onclick: () => ctx.setState({ len: 8, d: 16, base: 10000 }) }, t('lessons.formula.example8x16')),
    );
    const posBox = h('div');
    const indexBox = h('div');
    const angleBox = h('div');
    const peBox = h('div');
    const info = readout('formula-readout');
    const infoMath = h('div', { class: 'readout-math' });
    const map = createHeatmap({
      xLabel: t('axis.column'),
      yLabel: t('axis.position'),
      label: t('lessons.formula.heatmapLabel'),
      className: 'small',
      key: 'table',
      onCursor: (c, r) => explainValue(r, c),
    });
    const bar = createColorBar({ label: t('axis.value') });
    const exportBar = createExportBar(ctx, {
      csv: () => {
        const s = ctx.state;
        downloadCSV(`sinpe_formula_pe_${s.len}x${s.d}_b${s.base}.csv`, toCSV(pe.table(s.len, s.d, { base: s.base }), s.len, s.d));
      },
      npy: () => {
        const s = ctx.state;
        downloadNpy(`sinpe_formula_pe_${s.len}x${s.d}_b${s.base}.npy`, pe.table(s.len, s.d, { base: s.base }), [s.len, s.d]);
      },
    });

    const step3Text = h('div', { class: 'step3-text' });

    root.append(
      ...lessonHeader(ctx, 'formula'),
      // one line each: the pair fits a phone's width, and reads as the pair it is
      tex(PE.tex, true),
      ...paragraphs(t('lessons.formula.symbols')),
      h('div', { class: 'lesson-controls' }, examples, ctx.controls),
      section(t('lessons.formula.step1'), ...paragraphs(t('lessons.formula.step1Text')), posBox),
      section(t('lessons.formula.step2'), ...paragraphs(t('lessons.formula.step2Text')), indexBox),
      section(t('lessons.formula.step3'), step3Text, angleBox),
      section(t('lessons.formula.step4'), ...paragraphs(t('lessons.formula.step4Text')), peBox),
      h('div', { class: 'readout-sticky' }, info, infoMath),
      exportBar,
      section(t('lessons.formula.heatmapTitle'), ...paragraphs(t('lessons.formula.heatmapText')), map.element, bar.element),
      section(t('lessons.formula.codeTitle'), ...paragraphs(t('lessons.formula.codeText')), h('pre', {}, h('code', { class: 'code-pytorch' }, commented(ctx, 'formula', PYTORCH)))),
      section(t('lessons.formula.evenTitle'), ...paragraphs(t('lessons.formula.even'))),
      section(
        t('lessons.formula.readingTitle'),
        ...paragraphs(t('lessons.formula.reading')),
        h('h3', {}, t('lessons.formula.perColumnTitle')),
        h('pre', {}, h('code', { class: 'code-numpy' }, commented(ctx, 'perColumn', PER_COLUMN))),
      ),
    );

    let current = null; // { s, table, omega }

    const INDEX_ROWS = ['i', '2i', '2i/d', 'base^(2i/d)', 'ω_i'];
    const posTable = createMatrixTable({
      className: 'pos-table',
      onCell: (r) => {
        info.textContent = t('lessons.formula.readoutPos', { position: r });
        clear(infoMath);
      },
    });
    const indexTable = createMatrixTable({
      className: 'index-table',
      onCell: (r, c) => {
        const { s, omega } = current;
        info.textContent = t('lessons.formula.readoutIndex', { i: c, twoI: 2 * c, d: s.d, ratio: fmt((2 * c) / s.d, 4), frequency: fmt(omega[c], 6), wavelength: fmt((2 * Math.PI) / omega[c], 2) });
        clear(infoMath).append(tex(`\\omega_{${c}} = \\frac{1}{${s.base}^{${2 * c}/${s.d}}} = ${fmtTex(omega[c], 6)}`, true));
      },
    });
    const angleTable = createMatrixTable({ className: 'angle-table', onCell: (r, c) => explainAngle(r, c) });
    const peTable = createMatrixTable({ className: 'pe-table', onCell: (r, c) => explainValue(r, c) });
    posBox.append(posTable.element);
    indexBox.append(indexTable.element);
    angleBox.append(angleTable.element);
    peBox.append(peTable.element);

    function explainAngle(r, i) {
      const { s, omega } = current;
      const angle = r * omega[i];
      info.textContent = t('lessons.formula.readoutAngle', { position: r, i, twoI: 2 * i, d: s.d, ratio: fmt((2 * i) / s.d, 4), frequency: fmt(omega[i], 6), angle: fmt(angle, 6) });
      clear(infoMath).append(tex(`\\theta_{${r},${i}} = \\frac{${r}}{${s.base}^{${2 * i}/${s.d}}} = ${r} \\times ${fmtTex(omega[i], 6)} = ${fmtTex(angle, 6)}`, true));
    }

    function explainValue(r, c) {
      const { s, table, omega } = current;
      const i = Math.floor(c / 2);
      const fn = c % 2 === 0 ? 'sin' : 'cos';
      const angle = r * omega[i];
      const value = table[r * s.d + c];
      info.textContent = t('lessons.formula.readoutValue', { position: r, column: c, kind: fn, i, frequency: fmt(omega[i], 6), angle: fmt(angle, 6), value: fmt(value, 6) });
      clear(infoMath).append(
        tex(`PE_{(${r},\\,${c})} = \\${fn}\\!\\left(\\frac{${r}}{${s.base}^{2\\cdot ${i}/${s.d}}}\\right) = \\${fn}(${fmtTex(angle, 6)}) = ${fmtTex(value, 6)}`, true),
      );
      map.setCursor(c, r, false);
    }

    return {
      figures: () => ({ map }),
      update(s, changed) {
        const table = pe.table(s.len, s.d, { base: s.base });
        const omega = pe.frequencies(s.d, { base: s.base });
        const half = s.d / 2;
        current = { s, table, omega };
        // the slowest column depends on d and base: say how slow it is now
        const step3 = t('lessons.formula.step3Text').map((p) => p.replace('{last}', half - 1).replace('{omega}', fmt(omega[half - 1], 6)));
        showParagraphs(step3Text, step3);

        // the tables are updated in place: a step of a slider adds or removes a few cells
        posTable.update({ caption: t('lessons.formula.posCaption', { len: s.len }), rows: s.len, cols: 1, rowHeader: (r) => `${r}`, colHeader: () => 'pos', text: (r) => String(r) });
        indexTable.update({
          caption: t('lessons.formula.indexCaption', { half }),
          rows: INDEX_ROWS.length,
          cols: half,
          rowHeader: (r) => INDEX_ROWS[r],
          colHeader: (c) => `i=${c}`,
          text: (r, c) => [String(c), String(2 * c), fmt((2 * c) / s.d, 4), fmt(1 / omega[c], 4), fmt(omega[c], 6)][r],
        });
        angleTable.update({
          caption: t('lessons.formula.angleCaption', { len: s.len, half }),
          rows: s.len,
          cols: half,
          rowHeader: (r) => `pos ${r}`,
          colHeader: (c) => `i=${c}`,
          text: (r, c) => fmt(r * omega[c], 4),
        });
        peTable.update({
          caption: t('lessons.formula.peCaption', { len: s.len, d: s.d }),
          rows: s.len,
          cols: s.d,
          rowHeader: (r) => `pos ${r}`,
          colHeader: (c) => `${c} ${c % 2 === 0 ? 'sin' : 'cos'}`,
          text: (r, c) => fmt(table[r * s.d + c], 4),
          color: (r, c) => colorOf(s.cmap, table[r * s.d + c]),
        });

        map.draw({ rgba: pe.heatmap(0, s.len, s.d, { base: s.base, colormap: colormapLUT(s.cmap) }), columns: s.d, rows: s.len, x0: 0, y0: 0, scale: { cmap: s.cmap, vmin: -1, vmax: 1, label: t('axis.value') }, state: s });
        if (changed('cmap')) bar.draw(s.cmap, -1, 1);
        if (!info.textContent) info.textContent = t('lessons.formula.hoverHint');
      },
    };
  },
};

const PYTORCH = `import math, torch

def sinusoidal_pe(max_len, d_model, base=10000.0):
    if d_model % 2 != 0:                                              # «even»
        raise ValueError("d_model must be even")
    pos = torch.arange(max_len, dtype=torch.float64).unsqueeze(1)     # «pos»
    two_i = torch.arange(0, d_model, 2, dtype=torch.float64)          # «twoI»
    omega = torch.exp(-math.log(base) * two_i / d_model)              # «omega»
    pe = torch.zeros(max_len, d_model, dtype=torch.float64)
    pe[:, 0::2] = torch.sin(pos * omega)                              # «sin»
    pe[:, 1::2] = torch.cos(pos * omega)                              # «cos»
    return pe.float()`;

// the NumPy tutorial's version: one rate per column j, the same for j = 2k and 2k + 1
const PER_COLUMN = `pos = np.arange(max_len)[:, np.newaxis]                      # «pos»
i = np.arange(d_model)[np.newaxis, :]                        # «column»
angle_rates = 1 / np.power(10000, 2 * (i // 2) / d_model)    # «rates»
pe = np.zeros((max_len, d_model))
pe[:, 0::2] = np.sin(pos * angle_rates[:, 0::2])             # «sin»
pe[:, 1::2] = np.cos(pos * angle_rates[:, 1::2])             # «cos»`;
