// A labelled matrix of the attention lesson: a live table whose cells are
// coloured by value and carry their full-precision value (data-value), rows
// and columns named by the tokens, and a CSV export named from the state.
import { h, fmt } from '../../lib/dom.js';
import { createMatrixTable } from '../../lib/table.js';
import { colorOf } from '../../lib/colormap.js';
import { downloadCSV, toCSV } from '../../lib/export.js';

/**
 * createMatrix(app, { className, name, onCell(r, c) })
 * → { element, update({ caption, values, rows, cols, rowLabels, colLabels, cmap, vmin, vmax }) }
 * name(): the CSV file name without extension.
 */
export function createMatrix(app, { className, name, onCell }) {
  const table = createMatrixTable({ className: `attention-matrix ${className}`, corner: '', onCell });
  let current = null;
  const csv = h(
    'button',
    {
      type: 'button',
      class: 'button export-csv',
      onclick: () => {
        const { values, rows, cols, rowLabels, colLabels } = current;
        downloadCSV(`${name()}.csv`, toCSV(values, rows, cols, { header: colLabels, rowLabels, rowName: 'token' }));
      },
    },
    app.t('export.csv'),
  );
  const element = h('div', { class: `attention-figure ${className}-figure` }, table.element, h('div', { class: 'export-bar' }, csv));
  return {
    element,
    table,
    update(spec) {
      current = spec;
      const { values, rows, cols, rowLabels, colLabels, cmap, vmin, vmax } = spec;
      table.update({
        caption: spec.caption,
        rows,
        cols,
        rowHeader: (r) => rowLabels[r],
        colHeader: (c) => colLabels[c],
        text: (r, c) => fmt(values[r * cols + c], 3),
        color: (r, c) => colorOf(cmap, values[r * cols + c], vmin, vmax),
        value: (r, c) => values[r * cols + c],
      });
    },
  };
}

/** The largest |value| (at least a small floor, so an all-zero matrix still has a scale). */
export function absMax(values) {
  let m = 1e-9;
  for (const v of values) m = Math.max(m, Math.abs(v));
  return m;
}

/** Row labels "0 dog", "1 bites", … */
export const tokenLabels = (words) => words.map((w, i) => `${i} ${w}`);

/** A file-name-safe form of a sentence. */
export const sentenceName = (words) => words.join('-').replace(/[^\p{L}\p{N}-]/gu, '');
