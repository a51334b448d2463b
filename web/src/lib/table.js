// A live matrix table: every cell can be pointed at or focused (one tab stop,
// arrow keys move between cells), and reports itself to onCell(row, col).
import { hasSubscript, htmlLabel } from './subscript.js';
import { h } from './dom.js';

/**
 * createMatrixTable({ caption, rows, cols, rowHeader(r), colHeader(c), corner,
 *   text(r, c), color(r, c) → css colour | null, value(r, c) → data-value,
 *   onCell(r, c), className })
 * → { element, table, focusCell(r, c), activate(r, c, focus), update(spec) }
 * update(spec) takes the same fields (caption, rows, cols, rowHeader, colHeader,
 * text, color, value) and changes the table in place: rows and cells are added or
 * removed, texts, colours and values rewritten only where they differ. A slider step
 * (one more row, two more columns) then costs a few cells, not a new table.
 */
export function createMatrixTable(spec) {
  const { corner = '', onCell, className = '' } = spec;
  const table = h('table', { class: `data matrix ${className}` });
  const captionEl = h('caption');
  const headRow = h('tr', {}, h('th', { scope: 'col' }, corner));
  const body = h('tbody');
  table.append(captionEl, h('thead', {}, headRow), body);
  const cells = []; // cells[r][c]: td
  // what each cell shows now, kept here: a step compares with these, never
  // reads the DOM back, and writes only the cells whose text, colour or value changed
  const shown = []; // shown[r][c]: { text: its Text node, shown: its text, bg, value }
  let rows = 0;
  let cols = 0;
  let active = null;

  // a header cell's or the caption's text, rewritten only when it differs
  const texts = new WeakMap();
  const setText = (el, text) => {
    if (texts.get(el) === text) return;
    texts.set(el, text);
    // a subscript (ω_i) as <sub> (lib/subscript.js)
    if (hasSubscript(text)) el.replaceChildren(...htmlLabel(text));
    else el.textContent = text;
  };

  function update({ caption, rows: nextRows, cols: nextCols, rowHeader, colHeader, text, color, value }) {
    captionEl.hidden = !caption;
    setText(captionEl, caption ?? '');
    // column headers
    while (headRow.cells.length - 1 > nextCols) headRow.lastElementChild.remove();
    while (headRow.cells.length - 1 < nextCols) headRow.append(h('th', { scope: 'col' }));
    for (let c = 0; c < nextCols; c++) setText(headRow.cells[c + 1], String(colHeader(c)));
    // rows
    while (cells.length > nextRows) {
      cells.pop();
      shown.pop();
      body.lastElementChild.remove();
    }
    for (let r = 0; r < nextRows; r++) {
      if (!cells[r]) {
        cells[r] = [];
        shown[r] = [];
        body.append(h('tr', {}, h('th', { scope: 'row' })));
      }
      const tr = body.rows[r];
      setText(tr.cells[0], String(rowHeader(r)));
      const rowCells = cells[r];
      const rowShown = shown[r];
      while (rowCells.length > nextCols) {
        rowCells.pop().remove();
        rowShown.pop();
      }
      if (rowCells.length < nextCols) {
        const added = document.createDocumentFragment();
        while (rowCells.length < nextCols) {
          const c = rowCells.length;
          const td = h('td', { class: 'cell', tabindex: -1, 'data-row': r, 'data-col': c });
          const node = document.createTextNode('');
          td.append(node);
          added.append(td);
          rowCells.push(td);
          rowShown.push({ text: node, shown: '', bg: null, value: null });
        }
        tr.append(added);
      }
      for (let c = 0; c < nextCols; c++) {
        const cell = rowShown[c];
        const t = String(text(r, c));
        if (cell.shown !== t) {
          cell.shown = t;
          cell.text.data = t;
        }
        const bg = color?.(r, c);
        if (bg && cell.bg !== bg) {
          cell.bg = bg;
          const td = rowCells[c];
          td.style.backgroundColor = bg;
          td.style.color = readableOn(bg);
        }
        if (value) {
          // the cell's full-precision value (what tests and tools read)
          const v = String(value(r, c));
          if (cell.value !== v) {
            cell.value = v;
            rowCells[c].dataset.value = v;
          }
        }
      }
    }
    rows = nextRows;
    cols = nextCols;
    if (active && !active.isConnected) active = null;
    // one tab stop: the active cell, or the first one
    const stop = active ?? cells[0]?.[0];
    if (stop && stop.tabIndex !== 0) stop.tabIndex = 0;
  }

  function activate(r, c, focus) {
    const td = cells[r]?.[c];
    if (!td) return;
    if (active) {
      active.classList.remove('active');
      active.tabIndex = -1;
    }
    const first = cells[0]?.[0];
    if (first && first !== td) first.tabIndex = -1;
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
  if (spec.rows !== undefined) update(spec);
  return { element: h('div', { class: 'table-scroll' }, table), table, update, focusCell: (r, c) => activate(r, c, true), activate };
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
