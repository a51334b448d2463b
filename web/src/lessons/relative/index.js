// The relative lesson: relative position. PE(pos + k) = M_k · PE(pos), where M_k is
// block-diagonal with one 2×2 rotation per frequency; checked numerically
// against the package's exact rows. And the position × position dot-product
// matrix, which depends only on the offset.
import { h, fmt, fmtTex, tex, paragraphs, show, htmlLabel } from '../../lib/dom.js';
import { createHeatmap, createColorBar } from '../../lib/heatmap.js';
import { valuesToRGBA } from '../../lib/colormap.js';
import { lessonHeader, section, readout } from '../../lib/lesson.js';
import { createSlicedWork } from '../../lib/sliced.js';
import { drawWhenSeen } from '../../lib/offscreen.js';
import { SHIFT, DOT } from '../../lib/maths/sinusoidal.js';
import { questions } from './questions.js';

/**
 * Rows [from, to) of every row's dot product with every row, divided by d/2 (the
 * diagonal's value), into dot (len × len, symmetric: row i fills the cells (i, j) and
 * (j, i) for j ≥ i). `rows` holds the table's float32 values as float64 (a product of
 * two float32 values is exact in float64; the sum's rounding is far below the float32
 * noise the map shows). Four running sums per pair of rows, so that the additions do
 * not wait on each other (the largest sizes, 256 rows of 256, are 8.4 million products).
 */
function dotRows(rows, len, d, dot, from, to) {
  const d4 = d - (d % 4);
  for (let i = from; i < to; i++) {
    const a = i * d;
    for (let j = i; j < len; j++) {
      const b = j * d;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      let c = 0;
      for (; c < d4; c += 4) {
        s0 += rows[a + c] * rows[b + c];
        s1 += rows[a + c + 1] * rows[b + c + 1];
        s2 += rows[a + c + 2] * rows[b + c + 2];
        s3 += rows[a + c + 3] * rows[b + c + 3];
      }
      for (; c < d; c++) s0 += rows[a + c] * rows[b + c];
      dot[i * len + j] = dot[j * len + i] = (s0 + s1 + (s2 + s3)) / (d / 2);
    }
  }
}

// The products a slice of the dot-product map computes (a few ms; lib/sliced.js).
const SLICE_PRODUCTS = 1 << 20;

export default {
  id: 'relative',
  questions,
  mount(root, ctx) {
    const { t, pe } = ctx;
    const check = h('p', { class: 'rotation-check' });
    const blocks = h('div', { class: 'rotation-blocks' });
    const tableBox = h('div');
    const info = readout('relative-readout');
    const map = createHeatmap({
      xLabel: t('lessons.relative.posJ'),
      yLabel: t('lessons.relative.posI'),
      label: t('lessons.relative.dotLabel'),
      className: 'square',
      key: 'dot-products',
      filteredNote: t('figure.averaged'),
      onCursor: (c, r) => describe(r, c),
    });
    const bar = createColorBar({ label: t('lessons.relative.dotBar') });
    const diagonal = h('p', { class: 'diagonal-check' });

    root.append(
      ...lessonHeader(ctx, 'relative'),
      tex(SHIFT.tex, true),
      ...paragraphs(t('lessons.relative.rotationText')),
      h('div', { class: 'lesson-controls' }, ctx.controls),
      section(t('lessons.relative.checkTitle'), check, blocks, tableBox),
      section(t('lessons.relative.dotTitle'), ...paragraphs(t('lessons.relative.dotText')), tex(DOT.tex, true), map.element, bar.element, info, diagonal),
    );

    let current = null;
    // the dot-product map of a large table is computed a slice of rows at a time, across frames
    const dotWork = createSlicedWork({ busy: [map.element, bar.element, info, diagonal] });
    let kept = { table: new Float32Array(0), rows: new Float64Array(0) };

    function describe(i, j) {
      if (!current) return; // (the first map still being computed)
      const { s, dot } = current;
      info.textContent = t('lessons.relative.readout', { i, j, offset: j - i, dot: fmt(dot[i * s.len + j] * (s.d / 2), 4), normalized: fmt(dot[i * s.len + j], 4) });
    }

    function showDots(s, dot) {
      const half = s.d / 2;
      // the spread of each diagonal (same offset) is float32 noise only
      let spread = 0;
      for (let off = 0; off < s.len; off++) {
        let lo = Infinity;
        let hi = -Infinity;
        for (let i = 0; i + off < s.len; i++) {
          const v = dot[i * s.len + i + off];
          lo = Math.min(lo, v);
          hi = Math.max(hi, v);
        }
        spread = Math.max(spread, (hi - lo) * half);
      }
      current = { s, dot };
      // a sequential map over the values present: they are mostly positive, so a
      // diverging map centred on 0 would use half of its colours
      let lo = Infinity;
      for (const v of dot) lo = Math.min(lo, v);
      const hi = 1; // the diagonal, PE(p)·PE(p) = d/2
      map.draw({ rgba: valuesToRGBA(dot, s.cmap, lo, hi), columns: s.len, rows: s.len, x0: 0, y0: 0, scale: { cmap: s.cmap, vmin: lo, vmax: hi, label: t('lessons.relative.dotBar') }, state: s, values: () => ({ data: dot, rows: s.len }) });
      bar.draw(s.cmap, lo, hi);
      diagonal.textContent = t('lessons.relative.diagonal', { spread: spread.toExponential(2), half });
      describe(0, Math.min(1, s.len - 1));
    }

    return {
      figures: () => ({ map }),
      update(s, changed) {
        const half = s.d / 2;
        const omega = pe.frequencies(s.d, { base: s.base });
        const at = pe.rows(s.pos, 1, s.d, { base: s.base });
        const target = s.pos + s.k >= 0 ? pe.rows(s.pos + s.k, 1, s.d, { base: s.base }) : pe.encode([s.pos + s.k], s.d, { base: s.base });
        // rotate each (sin, cos) pair by ω_i·k in float64
        const rotated = new Float64Array(s.d);
        let maxError = 0;
        for (let i = 0; i < half; i++) {
          const c = Math.cos(omega[i] * s.k);
          const sn = Math.sin(omega[i] * s.k);
          rotated[2 * i] = c * at[2 * i] + sn * at[2 * i + 1];
          rotated[2 * i + 1] = -sn * at[2 * i] + c * at[2 * i + 1];
          maxError = Math.max(maxError, Math.abs(rotated[2 * i] - target[2 * i]), Math.abs(rotated[2 * i + 1] - target[2 * i + 1]));
        }
        const ok = maxError < 1e-6;
        // (shown with show(): a step that changes only numbers changes only their texts)
        const checkText = t('lessons.relative.check', { pos: s.pos, k: s.k, target: s.pos + s.k, error: maxError.toExponential(2) });
        show(check, JSON.stringify([checkText, ok, s.lang]), () => [checkText, ' ', h('span', { class: ok ? 'pass' : 'fail' }, ok ? t('lessons.relative.pass') : t('lessons.relative.failText'))]);
        const sources = [];
        for (let i = 0; i < Math.min(2, half); i++) {
          const c = Math.cos(omega[i] * s.k);
          const sn = Math.sin(omega[i] * s.k);
          sources.push(
            `i=${i}:\\; \\begin{pmatrix}${fmtTex(c)} & ${fmtTex(sn)}\\\\ ${fmtTex(-sn)} & ${fmtTex(c)}\\end{pmatrix}\\begin{pmatrix}${fmtTex(at[2 * i])}\\\\ ${fmtTex(at[2 * i + 1])}\\end{pmatrix} = \\begin{pmatrix}${fmtTex(rotated[2 * i])}\\\\ ${fmtTex(rotated[2 * i + 1])}\\end{pmatrix}`,
          );
        }
        show(blocks, sources.join('\n'), () => sources.map((source) => tex(source, true)));
        const shown = Math.min(half, 8);
        const tableKey = JSON.stringify([s.pos, s.k, s.d, s.base, s.lang]);
        show(tableBox, tableKey, () =>
          h(
            'div',
            { class: 'table-scroll' },
            h(
              'table',
              { class: 'data rotation-table' },
              // the table shows the first pairs; the check above covers all of them
              h('caption', {}, shown < half ? t('lessons.relative.tableSome', { shown, half }) : t('lessons.relative.tableAll', { half })),
              h('thead', {}, h('tr', {}, ['i', 'ω_i', 'ω_i·m', `PE(${s.pos})`, `M(m)·PE(${s.pos})`, `PE(${s.pos + s.k})`].map((x) => h('th', { scope: 'col' }, htmlLabel(x))))),
              h(
                'tbody',
                {},
                Array.from({ length: shown }, (_, i) =>
                  h(
                    'tr',
                    {},
                    h('th', { scope: 'row' }, String(i)),
                    h('td', {}, fmt(omega[i], 6)),
                    h('td', {}, fmt(omega[i] * s.k, 6)),
                    h('td', {}, `${fmt(at[2 * i], 6)}, ${fmt(at[2 * i + 1], 6)}`),
                    h('td', {}, `${fmt(rotated[2 * i], 6)}, ${fmt(rotated[2 * i + 1], 6)}`),
                    h('td', {}, `${fmt(target[2 * i], 6)}, ${fmt(target[2 * i + 1], 6)}`),
                  ),
                ),
              ),
            ),
          ),
        );

        if (changed('d', 'len', 'base', 'cmap')) {
          // the table into a kept buffer (a new array of up to 256 KiB each step cost more than computing it)
          if (kept.table.length !== s.len * s.d) kept = { table: new Float32Array(s.len * s.d), rows: new Float64Array(s.len * s.d) };
          const rows = kept.rows;
          rows.set(pe.table(s.len, s.d, { base: s.base, out: kept.table }));
          // out of view (the defaults' d step), started after the frame (lib/offscreen.js)
          drawWhenSeen(map.element, () => {
            const dot = new Float32Array(s.len * s.len);
            let done = 0;
            dotWork.start(
              () => {
                // rows from `done` on until about SLICE_PRODUCTS products (row i has len − i of them)
                let to = done;
                for (let products = 0; to < s.len && products < SLICE_PRODUCTS; to++) products += (s.len - to) * s.d;
                dotRows(rows, s.len, s.d, dot, done, to);
                done = to;
                return done === s.len;
              },
              () => showDots(s, dot),
            );
          }, 'dots');
        } else if (!dotWork.running && current) current.s = s;
      },
    };
  },
};
