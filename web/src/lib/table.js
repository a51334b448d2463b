// A live matrix table: every cell can be pointed at or focused (one tab stop,
// arrow keys move between cells), and reports itself to onCell(row, col).
import { h } from './dom.js';

/**
 * createMatrixTable({ caption, rows, cols, rowHeader(r), colHeader(c), corner,
 *   text(r, c), color(r, c) → css colour | null, onCell(r, c), className })
 * → { element, focusCell(r, c) }
 */
export function createMatrixTable({ caption, rows, cols, rowHeader, colHeader, corner = '', text, color, onCell, className = '' }) {
  const table = h('table', { class: `data matrix ${className}` });
  if (caption) table.append(h('caption', {}, caption));
  const head = h('tr', {}, h('th', { scope: 'col' }, corner));
  for (let c = 0; c < cols; c++) head.append(h('th', { scope: 'col' }, colHeader(c)));
  table.append(h('thead', {}, head));
  const body = h('tbody');
  const cells = [];
  for (let r = 0; r < rows; r++) {
    const tr = h('tr', {}, h('th', { scope: 'row' }, rowHeader(r)));
    const rowCells = [];
    for (let c = 0; c < cols; c++) {
      const td = h('td', { class: 'cell', tabindex: r === 0 && c === 0 ? 0 : -1, 'data-row': r, 'data-col': c }, text(r, c));
      const bg = color?.(r, c);
      if (bg) {
        td.style.backgroundColor = bg;
        td.style.color = readableOn(bg);
      }
      tr.append(td);
      rowCells.push(td);
    }
    cells.push(rowCells);
    body.append(tr);
  }
  table.append(body);
  let active = null;
  function activate(r, c, focus) {
    const td = cells[r]?.[c];
    if (!td) return;
    if (active) {
      active.classList.remove('active');
      active.tabIndex = -1;
    }
    active = td;
    td.classList.add('active');
    td.tabIndex = 0;
    if (focus) td.focus();
    onCell?.(r, c);
  }
  const cellOf = (e) => e.target.closest?.('td.cell');
  table.addEventListener('pointerover', (e) => {
    const td = cellOf(e);
    if (td) activate(+td.dataset.row, +td.dataset.col, false);
  });
  table.addEventListener('focusin', (e) => {
    const td = cellOf(e);
    if (td && td !== active) activate(+td.dataset.row, +td.dataset.col, false);
  });
  table.addEventListener('keydown', (e) => {
    const td = cellOf(e);
    if (!td) return;
    const moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0], Home: [0, -cols], End: [0, cols] };
    if (!moves[e.key]) return;
    e.preventDefault();
    const r = Math.min(rows - 1, Math.max(0, +td.dataset.row + moves[e.key][0]));
    const c = Math.min(cols - 1, Math.max(0, +td.dataset.col + moves[e.key][1]));
    activate(r, c, true);
  });
  return { element: h('div', { class: 'table-scroll' }, table), table, focusCell: (r, c) => activate(r, c, true), activate };
}

/**
 * Black or white text, whichever contrasts more with a CSS rgb() background
 * (WCAG relative luminance). One of the two always reaches 4.58:1.
 */
export function readableOn(css) {
  const m = css.match(/\d+/g);
  if (!m) return '';
  const channel = (v) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const [r, g, b] = m.slice(0, 3).map((v) => channel(Number(v)));
  const lum = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) ? '#000' : '#fff';
}
