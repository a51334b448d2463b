// RoPE section: Pixtral's 2-D RoPE on an h × w patch grid. Each patch shows
// the hand of its first row pair and of its first column pair; the chosen
// patch shows all its pairs as dials and a table. Angles from the package's
// ropeCacheGrid (ropeAxes 'pixtral').
import { h, svgEl, fmt, formula, paragraphs, clear } from '../../lib/dom.js';
import { createDials } from '../../lib/clock.js';
import { createControls } from '../../lib/controls.js';
import { section, readout } from '../../lib/lesson.js';
import { download } from '../../lib/export.js';
import { PIXTRAL_ANGLE } from '../../lib/maths/rope-multimodal.js';
import { GRID_BASE, GRID_ROTARY_DIM } from '../../model/rope-multimodal.js';
import { strings } from './format.js';

// the state's fields this section draws from (the lesson draws it later, when out of view, only when one changed)
const SHOWS = ['gridH', 'gridW', 'patch', 'lang'];

const R = 14; // hand length of a patch's little dial, in SVG units
const HALF = GRID_ROTARY_DIM / 2;
const ROW_PAIRS = GRID_ROTARY_DIM / 4;

/** The frequency index k of pair j (ω_k): even ones for the row pairs, odd ones for the column pairs. */
const frequencyOf = (j) => (j < ROW_PAIRS ? 2 * j : 2 * (j - ROW_PAIRS) + 1);

export function mount(root, ctx) {
  const L = strings(ctx);
  const G = (key, vars) => L(`grid.${key}`, vars);
  const controls = createControls(['gridH', 'gridW'], ctx, ctx.lesson);
  const board = h('div', { class: 'patch-grid', role: 'group' });
  const dials = createDials({ label: G('dialsLabel'), className: 'patch-dials' });
  const info = readout('patch-readout');
  const tableBox = h('div', { class: 'patch-table-box' });
  let drawn = null;
  const csv = h('button', { type: 'button', class: 'button export-csv patch-csv', onclick: () => drawn && download(`${drawn.name}.csv`, new Blob([drawn.csv], { type: 'text/csv' })) }, G('csv'));
  root.append(
    section(
      G('title'),
      ...paragraphs(G('text')),
      h('p', { class: 'note' }, G('source', { r: GRID_ROTARY_DIM, pairs: HALF, base: GRID_BASE })),
      formula(PIXTRAL_ANGLE, ctx.t('formulaText')),
      h('div', { class: 'lesson-controls' }, controls.element),
      board,
      info,
      dials.element,
      tableBox,
      h('div', { class: 'button-row' }, csv),
    ),
  );

  /** A patch's little dial: the row hand (pair 0, solid) and the column hand (pair r/4, dashed). */
  function patchDial(cos, sin, m) {
    const hand = (j, className) => svgEl('line', { class: className, x1: 0, y1: 0, x2: R * cos[m * HALF + j], y2: -R * sin[m * HALF + j], 'data-pair': j });
    const svg = svgEl('svg', { class: 'patch-dial', viewBox: `${-R - 3} ${-R - 3} ${2 * R + 6} ${2 * R + 6}`, width: 2 * R + 6, height: 2 * R + 6, 'aria-hidden': 'true' });
    svg.append(svgEl('circle', { class: 'dial-face', r: R }), hand(0, 'patch-hand patch-hand-row'), hand(ROW_PAIRS, 'patch-hand patch-hand-column'));
    return svg;
  }

  function draw(s) {
    const H = s.gridH;
    const W = s.gridW;
    const { cos, sin } = ctx.pe.ropeCacheGrid(H, W, GRID_ROTARY_DIM, { base: GRID_BASE, ropeAxes: 'pixtral' });
    const omega = ctx.pe.ropeFrequencies(GRID_ROTARY_DIM, { base: GRID_BASE });
    const m = Math.min(s.patch, H * W - 1);
    const y = Math.floor(m / W);
    const x = m % W;
    board.setAttribute('aria-label', G('gridLabel', { h: H, w: W }));
    board.style.gridTemplateColumns = `repeat(${W}, auto)`;
    clear(board).append(
      ...Array.from({ length: H * W }, (_, k) =>
        h(
          'button',
          {
            type: 'button',
            class: `patch${k === m ? ' selected' : ''}`,
            'data-patch': k,
            'aria-pressed': String(k === m),
            'aria-label': G('patchLabel', { m: k, y: Math.floor(k / W), x: k % W }),
            onclick: () => ctx.setState({ patch: k }),
          },
          patchDial(cos, sin, k),
          h('span', { class: 'patch-coords' }, `${Math.floor(k / W)}, ${k % W}`),
        ),
      ),
    );
    const rows = [];
    const list = [];
    for (let j = 0; j < HALF; j++) {
      const k = frequencyOf(j);
      const row = j < ROW_PAIRS;
      const axis = G(row ? 'axisRow' : 'axisColumn');
      const pos = row ? y : x;
      const c = cos[m * HALF + j];
      const sn = sin[m * HALF + j];
      const angle = pos * omega[k];
      list.push({
        key: j,
        title: G('dialTitle', { j, axis }),
        subtitle: G('dialRate', { k, omega: fmt(omega[k], 4) }),
        a: c,
        b: sn,
        values: G('dialAngle', { pos, angle: fmt(angle, 4) }),
        description: `${G('dialTitle', { j, axis })}: ${G('dialAngle', { pos, angle: fmt(angle, 4) })}`,
      });
      rows.push(
        h(
          'tr',
          { 'data-pair': j, 'data-axis': row ? 'row' : 'column' },
          h('th', { scope: 'row' }, String(j)),
          h('td', { 'data-label': G('thAxis') }, axis),
          h('td', { class: 'omega', 'data-label': G('thOmega') }, `ω${k} = ${fmt(omega[k], 6)}`),
          h('td', { class: 'position', 'data-label': G('thPosition') }, String(pos)),
          h('td', { class: 'angle', 'data-label': G('thAngle') }, fmt(angle, 6)),
          h('td', { class: 'cos', 'data-label': 'cos' }, fmt(c, 6)),
          h('td', { class: 'sin', 'data-label': 'sin' }, fmt(sn, 6)),
        ),
      );
    }
    dials.draw(list);
    info.textContent = G('readout', { m, y, x, lastRow: ROW_PAIRS - 1, firstCol: ROW_PAIRS, last: HALF - 1 });
    clear(tableBox).append(
      h(
        'div',
        { class: 'table-scroll' },
        h(
          'table',
          { class: 'data patch-table', 'data-patch': m },
          h('caption', {}, G('tableCaption', { m, y, x, h: H, w: W })),
          h('thead', {}, h('tr', {}, [G('thPair'), G('thAxis'), G('thOmega'), G('thPosition'), G('thAngle'), 'cos', 'sin'].map((t) => h('th', { scope: 'col' }, t)))),
          h('tbody', {}, rows),
        ),
      ),
    );
    const head = ['patch', 'row', 'column', ...Array.from({ length: HALF }, (_, j) => `cos${j}`), ...Array.from({ length: HALF }, (_, j) => `sin${j}`)];
    const lines = Array.from({ length: H * W }, (_, k) => [k, Math.floor(k / W), k % W, ...cos.subarray(k * HALF, (k + 1) * HALF), ...sin.subarray(k * HALF, (k + 1) * HALF)].join(','));
    return { name: `sinpe_rope_pixtral_grid_h${H}_w${W}_r${GRID_ROTARY_DIM}_b${GRID_BASE}`, csv: `${head.join(',')}\n${lines.join('\n')}\n` };
  }

  return {
    shows: SHOWS,
    update(s, changed) {
      controls.sync(s);
      if (!drawn || changed(...SHOWS)) drawn = draw(s);
    },
    figures: () => ({ patchDials: dials }),
  };
}
