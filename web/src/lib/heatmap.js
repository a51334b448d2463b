// A heatmap figure: one canvas pixel per cell, scaled up by CSS, with d3 axes
// on an SVG overlay, a cursor cell movable by mouse, touch or keyboard, and a
// text readout for screen readers (the canvas itself is role="img").
import { axisBottom, axisLeft } from 'd3-axis';
import { scaleLinear } from 'd3-scale';
import { select } from 'd3-selection';
import { h, svgEl, setSvgLabel } from './dom.js';
import { fullInt } from './figure/names.js';
import { paintMeans } from './boxfilter.js';
import { recordDraw } from './probe.js';
import { drawWhenSeen } from './offscreen.js';

// one 2-D context for measuring tick labels, shared by every heatmap
const textContext = document.createElement('canvas').getContext('2d');

/**
 * createHeatmap(options) → { element, canvas, draw(frame), restate(state) (the frame as drawn, now of `state`: a
 * step that changes none of its cells; its export names the new state), pixels, setCursor(col,row), cursor }
 * options: xLabel, yLabel (strings), label (accessible name), filteredNote (shown under the plot while it shows
 * box-filtered means), xTickFormat(column) → tick text (default: the column number), onCursor(col, row)
 * called with cell indices within the drawn frame, onScroll(deltaRows) (keyboard), onZoom(factor, row)
 * (Ctrl/⌘ + wheel, a trackpad pinch, a two-finger pinch: the rows shown × factor, row = the row
 * under the pointer, which should stay where it is). A plain wheel is left to the page: it scrolls.
 * frame: { rgba (Uint8ClampedArray), columns, rows, x0 (first column number), y0 (first row number),
 *   scale? ({ cmap, vmin, vmax, label }: the colour bar of a figure export),
 *   state? (the state the frame was drawn from: the export's caption and file name come from it),
 *   rowStep? (drawn row r is position y0 + r·rowStep: a frame of more rows than the plot has
 *   pixels is drawn from every rowStep-th row), full? (() → the whole frame, every row, for an export),
 *   values? (() → { data, rows }: the frame's values, every row, row-major; with scale, a frame of
 *   more cells than the plot has device pixels is shown box-filtered: each pixel the mean value
 *   of the cells it covers, coloured by scale.cmap) }
 */
export function createHeatmap({ xLabel, yLabel, label, onCursor, onScroll, onZoom, className = '', xTickFormat = (t) => String(t), figure, key, filteredNote }) {
  const canvas = h('canvas', { class: 'heatmap-canvas', width: 1, height: 1 });
  const svg = svgEl('svg', { class: 'heatmap-axes', 'aria-hidden': 'true' });
  const cursorRect = svgEl('rect', { class: 'heatmap-cursor' });
  svg.append(cursorRect);
  // what is shown when the cells outnumber the device pixels: the box-filtered values
  const display = h('canvas', { class: 'heatmap-display', width: 1, height: 1, 'aria-hidden': 'true', hidden: true });
  const plot = h('div', { class: 'heatmap-plot', tabindex: 0, role: 'img', 'aria-label': label }, canvas, display);
  // said under the plot while it shows box-filtered means (filteredNote: the lesson's words)
  const note = filteredNote ? h('figcaption', { class: 'heatmap-note note', hidden: true }, filteredNote) : null;
  const element = h('figure', { class: `heatmap ${className}` }, h('div', { class: 'heatmap-frame' }, plot, svg), note);
  // opaque: the compositor need not blend the (large, CSS-scaled) canvas
  const ctx = canvas.getContext('2d', { alpha: false });
  let image = null;
  let frame = { columns: 1, rows: 1, x0: 0, y0: 0 };
  const cursor = { col: -1, row: -1 };
  // What the figure export (lib/figure/) copies: these axes, the cells as last drawn and their
  // colour scale (frame.scale); figure: { caption(state), name(state) }; key: the file name part.
  element.figureSource = {
    label,
    key,
    info: figure,
    scale: () => frame.scale,
    state: () => frame.state,
    screen: () => {
      if (!geometry.width) measure();
      layoutAxes();
      const g = geometry;
      return { svg, width: g.width, height: g.height, plot: { x: g.left + g.borderLeft, y: g.top + g.borderTop, w: g.innerWidth, h: g.innerHeight } };
    },
    // a PNG of fewer pixels than cells gets the box-filtered means, as the page shows them
    means: (w, h) => (frame.values && frame.scale && (frame.columns > w || frame.rows * (frame.rowStep ?? 1) > h) ? paintMeans(document.createElement('canvas'), frame, w, h) : null),
    plot: () => {
      const whole = frame.full?.();
      return {
        kind: 'heatmap',
        rgba: whole ? whole.rgba : imageFor(frame.columns, frame.rows).data.slice(),
        columns: frame.columns,
        rows: whole ? whole.rows : frame.rows,
        x0: frame.x0,
        y0: frame.y0,
        xLabel,
        yLabel,
        xTickFormat,
      };
    },
  };

  // Geometry of the frame and plot, kept by a ResizeObserver (its callback runs after layout):
  // reading it on every draw forced a synchronous layout of the page per figure drawn.
  const frameEl = element.querySelector('.heatmap-frame');
  const geometry = { width: 0, height: 0, left: 0, top: 0, plotWidth: 0, plotHeight: 0, basePadding: 0, font: '' };
  function measure() {
    const box = frameEl.getBoundingClientRect();
    const pbox = plot.getBoundingClientRect();
    Object.assign(geometry, { width: box.width, height: box.height, left: pbox.left - box.left, top: pbox.top - box.top, plotWidth: pbox.width, plotHeight: pbox.height, innerWidth: plot.clientWidth, innerHeight: plot.clientHeight, borderLeft: plot.clientLeft, borderTop: plot.clientTop });
    if (!frameEl.style.paddingLeft) geometry.basePadding = parseFloat(getComputedStyle(frameEl).paddingLeft) || 0;
    const tick = svg.querySelector('.tick text');
    if (tick) {
      const style = getComputedStyle(tick);
      geometry.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    }
  }

  // The left padding of the frame grows with the widest position tick (e.g.
  // "16,777,000") and returns to the stylesheet's value for short ones. Tick
  // widths are measured on a canvas in the axis font (no layout needed).
  function fitLeftMargin(labels) {
    if (!labels.length || !geometry.font) return;
    textContext.font = geometry.font;
    const widest = Math.max(...labels.map((t) => textContext.measureText(t).width));
    const needed = Math.ceil(widest + 9 + 18); // tick (6) + gap (3) + rotated axis label
    const padding = needed > geometry.basePadding ? `${needed}px` : '';
    if (frameEl.style.paddingLeft === padding) return false;
    frameEl.style.paddingLeft = padding;
    return true;
  }

  let x = null;
  let y = null;
  const [gx, gy] = ['x', 'y'].map((a) => svgEl('g', { class: `axis ${a}` }));
  for (const g of [gx, gy]) g.append(svgEl('text', { class: 'axis-label' }));
  // each axis is redrawn only when its own scale changes (a d_model step leaves the rows' axis)
  const axisKeys = { box: '', x: '', y: '' };
  function layoutAxes() {
    const g = geometry;
    // Never measured: out of view (content-visibility: auto) the observer does not report, and the
    // axes would be missing; measured once on the first draw, then the observer keeps it current.
    if (g.width === 0 && element.isConnected) measure();
    if (g.width === 0) return;
    const step = frame.rowStep ?? 1;
    const box = [g.width, g.height, g.left, g.top, g.plotWidth, g.plotHeight].join(' ');
    const xKey = `${frame.columns} ${frame.x0} ${box}`;
    const yKey = `${frame.rows} ${step} ${frame.y0} ${box}`;
    if (xKey === axisKeys.x && yKey === axisKeys.y) return placeCursor();
    const { left, top, plotWidth, plotHeight } = g;
    x = scaleLinear().domain([frame.x0 - 0.5, frame.x0 + frame.columns - 0.5]).range([left, left + plotWidth]);
    y = scaleLinear().domain([frame.y0 - 0.5, frame.y0 + frame.rows * step - 0.5]).range([top, top + plotHeight]);
    const intTicks = (scale, n) => scale.ticks(n).filter((t) => Number.isInteger(t));
    if (!gx.isConnected) svg.append(gx, gy);
    if (yKey !== axisKeys.y) {
      gy.setAttribute('transform', `translate(${left},0)`);
      const yTicks = intTicks(y, Math.max(2, Math.floor(plotHeight / 40)));
      select(gy).call(axisLeft(y).tickValues(yTicks).tickFormat(fullInt).tickSizeOuter(0));
      if (!geometry.font) measure();
      // a new padding resizes the plot: measured again at once (out of view, the observer is silent)
      if (fitLeftMargin(yTicks.map(fullInt))) {
        measure();
        return layoutAxes();
      }
      axisKeys.y = yKey;
    }
    if (xKey !== axisKeys.x) {
      axisKeys.x = xKey;
      gx.setAttribute('transform', `translate(0,${top + plotHeight})`);
      select(gx).call(axisBottom(x).tickValues(intTicks(x, Math.max(2, Math.floor(plotWidth / 70)))).tickFormat(xTickFormat).tickSizeOuter(0));
    }
    if (box !== axisKeys.box) {
      axisKeys.box = box;
      svg.setAttribute('width', g.width);
      svg.setAttribute('height', g.height);
      const lx = gx.querySelector('.axis-label');
      lx.setAttribute('x', left + plotWidth / 2);
      lx.setAttribute('y', 30);
      setSvgLabel(lx, xLabel, 12);
      const ly = gy.querySelector('.axis-label');
      ly.setAttribute('transform', `translate(${-left + 12},${top + plotHeight / 2}) rotate(-90)`);
      setSvgLabel(ly, yLabel, 12);
    }
    svg.append(cursorRect);
    placeCursor();
  }

  function placeCursor() {
    if (cursor.col >= 0 && x) {
      cursorRect.setAttribute('x', x(frame.x0 + cursor.col - 0.5));
      const step = frame.rowStep ?? 1;
      cursorRect.setAttribute('y', y(frame.y0 + cursor.row * step - 0.5));
      cursorRect.setAttribute('width', Math.max(2, x(1) - x(0)));
      cursorRect.setAttribute('height', Math.max(2, y(step) - y(0)));
      cursorRect.classList.add('visible');
    } else cursorRect.classList.remove('visible');
  }

  // One ImageData per size, over a shared buffer that only grows (a drag allocates nothing per frame).
  let pool = new ArrayBuffer(0);
  function imageFor(columns, rows) {
    const bytes = columns * rows * 4;
    if (pool.byteLength < bytes) {
      pool = new ArrayBuffer(Math.max(bytes, pool.byteLength * 2));
      image = null;
    }
    if (!image || image.width !== columns || image.height !== rows) image = new ImageData(new Uint8ClampedArray(pool, 0, bytes), columns, rows);
    return image;
  }

  /** The RGBA array to fill for a frame of this size (pass it as `out` to pe.heatmap, then draw it). */
  const pixels = (columns, rows) => imageFor(columns, rows).data;

  // While sizes change quickly (a d_model or max_len drag) the backing store only grows: a frame
  // goes in its top-left corner, CSS scales the canvas so that corner fills the plot (overflow:
  // hidden clips the rest), and a drag reallocates the canvas only when it grows. Once sizes stop
  // changing, the canvas is trimmed to the frame (exports and tests see columns × rows).
  let [trimTimer, filterTimer] = [0, 0];
  function fit(columns, rows) {
    canvas.style.width = `${(100 * canvas.width) / columns}%`;
    canvas.style.height = `${(100 * canvas.height) / rows}%`;
  }
  function trim() {
    trimTimer = 0;
    if (canvas.width === frame.columns && canvas.height === frame.rows) return;
    canvas.width = frame.columns;
    canvas.height = frame.rows;
    ctx.putImageData(imageFor(frame.columns, frame.rows), 0, 0);
    fit(frame.columns, frame.rows);
  }

  function draw(next) {
    const t0 = performance.now();
    frame = next;
    if (canvas.width < next.columns || canvas.height < next.rows) {
      canvas.width = Math.max(canvas.width, next.columns);
      canvas.height = Math.max(canvas.height, next.rows);
    }
    const img = imageFor(next.columns, next.rows);
    if (next.rgba !== img.data) img.data.set(next.rgba);
    ctx.putImageData(img, 0, 0);
    fit(next.columns, next.rows);
    clearTimeout(trimTimer);
    if (canvas.width !== next.columns || canvas.height !== next.rows) trimTimer = setTimeout(trim, 250);
    if (cursor.col >= next.columns || cursor.row >= next.rows) cursor.col = cursor.row = -1;
    drawWhenSeen(element, layoutAxes, 'axes'); // out of view: after the frame (lib/offscreen.js)
    // means are painted once sizes stop changing (a drag draws many frames a second)
    clearTimeout(filterTimer);
    if (!display.hidden && shown?.frame !== frame) hideMeans();
    filterTimer = setTimeout(() => drawWhenSeen(element, filterDisplay, 'means'), 120);
    recordDraw(key ?? label, t0);
  }
  function hideMeans() {
    display.hidden = true;
    if (note) note.hidden = true;
    canvas.style.visibility = '';
    shown = null;
  }

  // Cells are averaged in value, not in colour: the mean of the colours of a
  // diverging map's two ends is a dark purple, while the mean value (≈ 0 over
  // a fast sine) is the map's middle.
  let shown = null;
  function filterDisplay() {
    const [width, height] = [geometry.innerWidth ?? 0, geometry.innerHeight ?? 0].map((v) => Math.round(v * (window.devicePixelRatio || 1)));
    const allRows = frame.rows * (frame.rowStep ?? 1);
    if (!frame.values || !frame.scale || width === 0 || (frame.columns <= width && allRows <= height)) return hideMeans();
    if (shown && shown.frame === frame && shown.width === width && shown.height === height) return;
    shown = { frame, width, height };
    paintMeans(display, frame, width, height);
    [display.hidden, canvas.style.visibility] = [false, 'hidden'];
    if (note) note.hidden = false;
  }

  function setCursor(col, row, notify = true) {
    cursor.col = Math.min(frame.columns - 1, Math.max(0, col));
    cursor.row = Math.min(frame.rows - 1, Math.max(0, row));
    placeCursor();
    if (notify) onCursor?.(cursor.col, cursor.row);
  }

  function cellAt(event) {
    // the visible part of the canvas is the plot's padding box
    const r = plot.getBoundingClientRect();
    const left = r.left + plot.clientLeft;
    const top = r.top + plot.clientTop;
    const col = Math.floor(((event.clientX - left) / plot.clientWidth) * frame.columns);
    const row = Math.floor(((event.clientY - top) / plot.clientHeight) * frame.rows);
    return [col, row];
  }
  plot.addEventListener('pointermove', (e) => setCursor(...cellAt(e)));
  plot.addEventListener('pointerdown', (e) => setCursor(...cellAt(e)));
  // Only Ctrl/⌘ + wheel (what a trackpad pinch sends too) is taken, to zoom.
  plot.addEventListener('wheel', (e) => {
    if (!onZoom || !(e.ctrlKey || e.metaKey) || e.deltaY === 0) return;
    e.preventDefault();
    const [, row] = cellAt(e);
    onZoom(Math.exp(Math.max(-1, Math.min(1, e.deltaY / 200))), Math.min(frame.rows - 1, Math.max(0, row)));
  }, { passive: false });
  // a two-finger pinch on a touch screen: the vertical spread of the fingers zooms
  const touches = new Map();
  let spread = 0;
  const spreadOf = () => {
    const ys = [...touches.values()].map((p) => p.clientY);
    return Math.abs(ys[0] - ys[1]);
  };
  plot.addEventListener('pointerdown', (e) => {
    if (e.pointerType !== 'touch' || !onZoom) return;
    touches.set(e.pointerId, e);
    if (touches.size === 2) spread = spreadOf();
  });
  plot.addEventListener('pointermove', (e) => {
    if (!touches.has(e.pointerId)) return;
    touches.set(e.pointerId, e);
    if (touches.size !== 2 || spread < 20) return;
    const now = spreadOf();
    if (Math.abs(Math.log(now / spread)) < 0.1) return;
    const ys = [...touches.values()].map((p) => p.clientY);
    const [, row] = cellAt({ clientX: e.clientX, clientY: (ys[0] + ys[1]) / 2 });
    onZoom(spread / now, Math.min(frame.rows - 1, Math.max(0, row)));
    spread = now;
  });
  for (const type of ['pointerup', 'pointercancel', 'pointerleave']) plot.addEventListener(type, (e) => touches.delete(e.pointerId));
  plot.addEventListener('keydown', (e) => {
    const big = e.shiftKey ? 8 : 1;
    let { col, row } = cursor;
    if (col < 0) col = row = 0;
    const moves = { ArrowLeft: [-big, 0], ArrowRight: [big, 0], ArrowUp: [0, -big], ArrowDown: [0, big] };
    if (moves[e.key]) {
      e.preventDefault();
      const [dc, dr] = moves[e.key];
      if (onScroll && ((row + dr < 0 && dr < 0) || (row + dr >= frame.rows && dr > 0))) onScroll(dr * (frame.rowStep ?? 1));
      setCursor(col + dc, row + dr);
    } else if (onScroll && (e.key === 'PageDown' || e.key === 'PageUp')) {
      e.preventDefault();
      onScroll((e.key === 'PageDown' ? 1 : -1) * frame.rows * (frame.rowStep ?? 1));
    }
  });
  plot.addEventListener('focus', () => {
    if (cursor.col < 0) setCursor(0, 0);
  });
  const observer = new ResizeObserver(() => {
    measure();
    layoutAxes();
    filterDisplay();
  });
  for (const el of [frameEl, plot]) observer.observe(el);

  return {
    element,
    canvas,
    draw,
    restate: (state) => void (frame = { ...frame, state }),
    pixels,
    setCursor,
    cursor,
    get frame() {
      return frame;
    },
    /** Whether the plot shows box-filtered means (more cells than device pixels). */
    get filtered() {
      return !display.hidden;
    },
    /** The plot's height in device pixels (0 until it has been laid out). */
    get plotPixels() {
      return Math.floor(geometry.plotHeight * (window.devicePixelRatio || 1));
    },
  };
}

// the colour bar drawn beside the heatmaps
export { createColorBar } from './colorbar.js';
