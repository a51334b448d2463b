// RoPE section: a text + image sequence and its 3-axis position ids (t, h, w)
// from the package's getRopeIndex, and which pairs each axis turns in the
// sectioned (Qwen2-VL) and interleaved (Qwen3-VL) layouts, read from the
// package's multi-axis cache.
import { h, formula, paragraphs, clear } from '../../lib/dom.js';
import { createControls } from '../../lib/controls.js';
import { section } from '../../lib/lesson.js';
import { download } from '../../lib/export.js';
import { MROPE_POSITIONS, MROPE_AXIS } from '../../lib/maths/rope-multimodal.js';
import { AXIS_NAMES, MROPE_AXES, MROPE_BASE, MROPE_ROTARY_DIM, QWEN_TOKENS, buildSequence, sectionOf } from '../../model/rope-multimodal.js';
import { strings } from './format.js';

// the state's fields each figure of this section draws from (the lesson draws a section out of view later only when one changed)
const POSITIONS = ['textBefore', 'textAfter', 'imgT', 'imgRows', 'imgCols', 'merge', 'lang'];
const AXES = ['msec', 'lang'];

const csvButton = (label, className, onclick) => h('button', { type: 'button', class: `button export-csv ${className}`, onclick }, label);

// the mrope_section of the models each layout's strip names
const MODEL_SECTION = Object.freeze({ sectioned: '16,24,24', interleaved: '24,20,20' });

export function mount(root, ctx) {
  const L = strings(ctx);
  const M = (key, vars) => L(`mm.${key}`, vars);
  const controls = createControls(['textBefore', 'imgT', 'imgRows', 'imgCols', 'merge', 'textAfter'], ctx, ctx.lesson);
  const axesControls = createControls(['msec'], ctx, ctx.lesson);
  const tableBox = h('div', { class: 'mrope-positions-box' });
  const summary = h('p', { class: 'mrope-summary' });
  const strips = h('div', { class: 'mrope-strips' });
  let drawn = null; // what the CSVs export: the rows and names of the last drawing
  const exportPositions = csvButton(M('csvPositions'), 'mrope-positions-csv', () => drawn && download(`${drawn.positions.name}.csv`, new Blob([drawn.positions.csv], { type: 'text/csv' })));
  const exportAxes = csvButton(M('csvAxes'), 'mrope-axes-csv', () => drawn && download(`${drawn.axes.name}.csv`, new Blob([drawn.axes.csv], { type: 'text/csv' })));
  root.append(
    section(
      M('title'),
      ...paragraphs(M('text')),
      formula(MROPE_POSITIONS, ctx.t('formulaText')),
      // each panel with the figure it drives: on a phone the pinned panel lets go where its figure
      // ends, and never sits on the next one's (a sticky element stays within its parent)
      h('div', { class: 'panel-scope' }, h('div', { class: 'lesson-controls' }, controls.element), tableBox, summary, h('div', { class: 'button-row' }, exportPositions)),
      h('h3', {}, M('axesTitle')),
      ...paragraphs(M('axesText')),
      formula(MROPE_AXIS, ctx.t('formulaText')),
      h('div', { class: 'panel-scope' }, h('div', { class: 'lesson-controls' }, axesControls.element), strips, h('div', { class: 'button-row' }, exportAxes)),
    ),
  );

  function drawPositions(s) {
    // the processor's grid in patches: each token is merge × merge patches
    const image = { t: s.imgT, h: s.imgRows * s.merge, w: s.imgCols * s.merge };
    const { inputIds, kinds } = buildSequence({ before: s.textBefore, after: s.textAfter, merge: s.merge, ...image });
    const { positions, ropeDelta } = ctx.pe.getRopeIndex(inputIds, {
      imageTokenId: QWEN_TOKENS.image,
      videoTokenId: QWEN_TOKENS.video,
      visionStartTokenId: QWEN_TOKENS.visionStart,
      spatialMergeSize: s.merge,
      imageGridThw: [[image.t, image.h, image.w]],
      model: 'qwen2-vl',
    });
    const n = kinds.length;
    const tokens = kinds.filter((k) => k === 'image').length;
    const cell = (i, a) => h('td', { class: `mrope-id kind-${kinds[i]}`, 'data-token': i, 'data-axis': AXIS_NAMES[a] }, String(positions[3 * i + a]));
    const row = (label, cells, attrs = {}) => h('tr', attrs, h('th', { scope: 'row' }, label), cells);
    const index = Array.from({ length: n }, (_, i) => i);
    clear(tableBox).append(
      h(
        'div',
        { class: 'table-scroll' },
        h(
          'table',
          { class: 'data mrope-positions' },
          h('caption', {}, M('tableCaption', { n, before: s.textBefore, after: s.textAfter, t: image.t, h: image.h, w: image.w, m: s.merge, tokens })),
          h('thead', {}, row(M('thToken'), index.map((i) => h('th', { scope: 'col', class: `kind-${kinds[i]}` }, String(i))))),
          h(
            'tbody',
            {},
            row(M('thKind'), index.map((i) => h('td', { class: `mrope-kind kind-${kinds[i]}`, title: M(`kind.${kinds[i]}`) }, M(`kindShort.${kinds[i]}`)))),
            AXIS_NAMES.map((name, a) => row(name, index.map((i) => cell(i, a)), { 'data-axis': name })),
          ),
        ),
      ),
    );
    let max = 0;
    for (const v of positions) max = Math.max(max, v);
    summary.textContent = M('summary', { n, max, next: max + 1, delta: ropeDelta });
    summary.dataset.ropeDelta = String(ropeDelta);
    const csvRows = index.map((i) => [i, kinds[i], positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]].join(','));
    return {
      name: `sinpe_rope_mrope_positions_before${s.textBefore}_image${image.t}x${image.h}x${image.w}_merge${s.merge}_after${s.textAfter}`,
      csv: `${['token', 'kind', ...AXIS_NAMES].join(',')}\n${csvRows.join('\n')}\n`,
    };
  }

  // the axis of every pair, read from the package's cache: token a sits at
  // position 1 on axis a and 0 on the others, so only its axis's pairs turn
  function pairAxes(section, axes) {
    const half = MROPE_ROTARY_DIM / 2;
    const positions = Float64Array.from({ length: 9 }, (_, k) => (k % 4 === 0 ? 1 : 0));
    const { sin } = ctx.pe.ropeCache(positions, MROPE_ROTARY_DIM, { base: MROPE_BASE, mropeSection: section, ropeAxes: axes });
    return Array.from({ length: half }, (_, j) => [0, 1, 2].filter((a) => sin[a * half + j] !== 0));
  }

  function drawStrips(s) {
    const section = sectionOf(s.msec);
    const columns = {};
    clear(strips);
    for (const axes of MROPE_AXES) {
      const owners = pairAxes(section, axes);
      columns[axes] = owners.map((o) => (o.length === 1 ? AXIS_NAMES[o[0]] : '?'));
      const count = (name) => columns[axes].filter((a) => a === name).length;
      const bad = owners.findIndex((o) => o.length !== 1);
      strips.append(
        h(
          'figure',
          { class: `mrope-strip mrope-strip-${axes}`, 'data-axes': axes },
          // a model is named only with its own mrope_section (Qwen3-VL interleaves [24, 20, 20])
          h(
            'figcaption',
            {},
            h('strong', {}, s.msec === MODEL_SECTION[axes] ? M(`axesName.${axes}`) : M(`axesPlain.${axes}`, { section: section.join(', ') })),
            ' — ',
            M('axesCount', { t: count('t'), h: count('h'), w: count('w') }),
          ),
          h(
            'ol',
            { class: 'mrope-pairs', 'aria-label': M('stripLabel', { axes: M(`axesName.${axes}`) }) },
            columns[axes].map((name, j) => h('li', { class: `mrope-pair axis-${name}`, 'data-pair': j, 'data-axis': name, title: M('pairAxis', { j, axis: name === '?' ? '?' : M(`axisName.${name}`) }) }, name)),
          ),
          bad >= 0 ? h('p', { class: 'mrope-bad error' }, M('axesBad', { j: bad, count: owners[bad].length })) : null,
        ),
      );
    }
    const rows = columns.sectioned.map((a, j) => [j, a, columns.interleaved[j]].join(','));
    return { name: `sinpe_rope_mrope_axes_section${section.join('-')}_r${MROPE_ROTARY_DIM}`, csv: `pair,sectioned,interleaved\n${rows.join('\n')}\n` };
  }

  return {
    shows: [...POSITIONS, ...AXES],
    update(s, changed) {
      controls.sync(s);
      axesControls.sync(s);
      if (!drawn || changed(...POSITIONS)) drawn = { ...drawn, positions: drawPositions(s) };
      if (!drawn.axes || changed(...AXES)) drawn = { ...drawn, axes: drawStrips(s) };
    },
    figures: () => ({}),
  };
}
