// Line charts with d3-scale, d3-axis and d3-shape on SVG. Series colours
// come from a colour-blind-safe categorical scheme, and every series also
// gets its own dash pattern so colour is never the only cue.
import { axisBottom, axisLeft } from 'd3-axis';
import { scaleLinear, scaleLog } from 'd3-scale';
import { schemeTableau10 } from 'd3-scale-chromatic';
import { select } from 'd3-selection';
import { line } from 'd3-shape';
import { h, setAttr, svgEl } from './dom.js';
import { recordDraw } from './probe.js';
import { drawWhenSeen, whenIdle } from './offscreen.js';
import { htmlLabel, setSvgLabel } from './subscript.js';
import { labelObstacles, labelWidth, placeLabel } from './chart-labels.js';

export const SERIES_COLORS = schemeTableau10;

const SUPERSCRIPT = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };

// Log-axis ticks as 10ⁿ (short and all alike, where '~g' mixes 0.00001 with 1e-8);
// ticks between powers of ten stay unlabelled.
function powerOfTen(v) {
  const e = Math.round(Math.log10(v));
  if (Math.abs(Math.log10(v) - e) > 1e-9) return '';
  return e === 0 ? '1' : `10${String(e).replace(/[-0-9]/g, (c) => SUPERSCRIPT[c])}`;
}
/** How many times a polyline's y turns from rising to falling or back. */
function turns(points) {
  let count = 0;
  let previous = 0;
  for (let k = 1; k < points.length; k++) {
    const direction = Math.sign(points[k][1] - points[k - 1][1]);
    if (direction !== 0 && previous !== 0 && direction !== previous) count++;
    if (direction !== 0) previous = direction;
  }
  return count;
}
const DASHES = ['', '6 3', '2 3', '8 3 2 3', '1 2', '10 4', '4 4', '12 2 2 2'];

/**
 * The dash pattern series i is drawn with: its own `dash` when given, else the
 * chart's i-th pattern, except that a line turning back more often than every
 * 8 px is drawn solid (no dash pattern can be seen on it, and dashing it costs
 * the most to paint). The legend's swatch and the export use the same.
 */
function dashOf(s, i, width) {
  if (s.dash !== undefined) return s.dash;
  const dash = DASHES[i % DASHES.length];
  return dash && turns(s.points) * 8 < width ? dash : '';
}
/**
 * A series with its own line width: a stroke-width attribute (the attributes
 * widthOf gives, for its line and its legend swatch), which the
 * stylesheet's .chart-line:not([stroke-width]) leaves alone (the site's CSP
 * refuses inline styles), as does the export's light copy.
 */
function widthOf(s) {
  return s.width ? { 'stroke-width': String(s.width) } : {};
}

/**
 * Makes the elements after `from` those of `specs` ([tag, attributes, text?],
 * in order): an element of the same tag is kept and only its attributes that
 * differ are set (or removed), so a step that moves one line leaves the marks,
 * labels and other lines as they were; the rest are made or removed.
 */
function reconcile(from, specs) {
  let el = from.nextSibling;
  for (const [tag, attrs, text] of specs) {
    if (!el || el.localName !== tag) {
      const made = svgEl(tag, attrs);
      if (text !== undefined) setSvgLabel(made, text);
      from.parentNode.insertBefore(made, el);
      continue;
    }
    // data-label: the label a text holds (lib/subscript.js), kept with it
    for (const name of el.getAttributeNames()) if (!(name in attrs) && name !== 'data-label') el.removeAttribute(name);
    for (const [name, value] of Object.entries(attrs)) setAttr(el, name, value);
    if (text !== undefined) setSvgLabel(el, text);
    el = el.nextSibling;
  }
  while (el) {
    const next = el.nextSibling;
    el.remove();
    el = next;
  }
}

/**
 * createLineChart({ xLabel, yLabel, label, yLog, height, onCursor(x), figure }) →
 * { element, draw({ series: [{ name, points: [[x, y], …] }], xDomain, yDomain, marks, yLabel? }), svg }
 * marks: [{ y, label, className }] horizontal reference lines; [{ x, … }] vertical ones.
 * figure: { caption(state), name(state), fields } for the figure export (lib/figure/); without
 * a caption the export names the lesson's parameters (only `fields`, the state fields it draws, when given). key: the figure's name within its
 * lesson (file names). draw(data): data.state is the state it was drawn from, which
 * the export's caption and file name describe.
 */
export function createLineChart({ xLabel, yLabel, label, yLog = false, xLog = false, height = 260, onCursor, figure, key }) {
  const svg = svgEl('svg', { class: 'chart-svg', role: 'img', 'aria-label': label, height });
  const legend = h('ul', { class: 'chart-legend' });
  const element = h('figure', { class: 'chart' }, svg, legend);
  // what the figure export draws: the data as last drawn, with the colours and dashes shown
  element.figureSource = {
    label,
    key,
    info: figure,
    state: () => last?.state,
    // the on-screen drawing the export serialises, and its plot rectangle
    screen: () => {
      const width = Number(svg.getAttribute('width'));
      return { svg, width, height, plot: { x: margin.left, y: margin.top, w: width - margin.left - margin.right, h: height - margin.top - margin.bottom } };
    },
    plot: () =>
      last && {
        kind: 'lines',
        series: last.series.map((s, i) => ({ ...s, color: s.color ?? SERIES_COLORS[i % SERIES_COLORS.length], dash: dashes[i] ?? '' })),
        xDomain: last.xDomain,
        yDomain: last.yDomain,
        xLog,
        yLog,
        marks: last.marks,
        xLabel: last.xLabel ?? xLabel,
        yLabel: last.yLabel ?? yLabel,
      },
  };
  const margin = { top: 10, right: 12, bottom: 40, left: 58 };
  let last = null;
  let dashes = []; // each series' dash pattern as last drawn
  let cursorX = null;
  let legendShown = '';
  let measuredWidth = 0;
  let x, y;
  let gx = null;
  let gy = null;
  let labelX = null; // the axes' titles, kept with the axes
  let labelY = null;
  let shownWidth = 0;
  const axisKeys = { x: '', y: '' };

  function render() {
    if (!last) return;
    // The width from the ResizeObserver, which reports after the page's next layout (read here, it
    // forced a layout of the page, a first render's whole page); out of view (content-visibility)
    // it does not report: measured once the page is idle.
    if (!measuredWidth && !unmeasured && !idleMeasured) unmeasured = whenIdle(svg, measureLate);
    const width = Math.max(200, measuredWidth || 600);
    if (width !== shownWidth) {
      shownWidth = width;
      svg.setAttribute('width', width);
      svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
    }
    x = (xLog ? scaleLog() : scaleLinear()).domain(last.xDomain).range([margin.left, width - margin.right]);
    y = (yLog ? scaleLog() : scaleLinear()).domain(last.yDomain).range([height - margin.bottom, margin.top]);
    // the axes stay and are redrawn only when their scale or label changes (a step
    // of most sliders moves the lines only); what follows them is drawn anew
    if (!gx) {
      gx = svgEl('g', { class: 'axis x', transform: `translate(0,${height - margin.bottom})` });
      gy = svgEl('g', { class: 'axis y', transform: `translate(${margin.left},0)` });
      svg.append(gx, gy);
    }
    // what follows the axes, as specs [tag, attributes, text?], reconciled with the elements
    // drawn last time (an element kept whose attributes are unchanged is not styled again)
    const drawn = [];
    const xText = last.xLabel ?? xLabel;
    const xKey = JSON.stringify([width, last.xDomain, xText]);
    if (xKey !== axisKeys.x) {
      axisKeys.x = xKey;
      const nx = Math.max(3, Math.floor(width / 80));
      // d3's axis joins its ticks with those drawn last time: a tick at the same place is kept
      select(gx).call(xLog ? axisBottom(x).ticks(nx, '~s') : axisBottom(x).ticks(nx));
      labelX ??= gx.appendChild(svgEl('text', { class: 'axis-label', y: 34 }));
      setAttr(labelX, 'x', (margin.left + width - margin.right) / 2);
      setSvgLabel(labelX, xText, 12);
    }
    const yText = last.yLabel ?? yLabel;
    const yKey = JSON.stringify([last.yDomain, yText]);
    if (yKey !== axisKeys.y) {
      axisKeys.y = yKey;
      select(gy).call(yLog ? axisLeft(y).ticks(5).tickFormat(powerOfTen) : axisLeft(y).ticks(5));
      labelY ??= gy.appendChild(
        svgEl('text', {
          class: 'axis-label',
          transform: `translate(${-margin.left + 14},${(height - margin.bottom + margin.top) / 2}) rotate(-90)`,
        }),
      );
      setSvgLabel(labelY, yText, 12);
    }
    const [xa, xb] = last.xDomain;
    // the labels are placed where they cross no curve (and no label placed before them)
    const avoid = labelObstacles(last.series, x, y);
    // a vertical mark beyond the x range is not drawn (its line would leave the plot)
    for (const mark of (last.marks ?? []).filter((m) => m.x === undefined || (m.x >= Math.min(xa, xb) && m.x <= Math.max(xa, xb)))) {
      const attrs =
        mark.y !== undefined
          ? { x1: margin.left, x2: width - margin.right, y1: y(mark.y), y2: y(mark.y) }
          : { x1: x(mark.x), x2: x(mark.x), y1: margin.top, y2: height - margin.bottom };
      drawn.push(['line', { class: `chart-mark ${mark.className ?? ''}`, ...attrs, ...(mark.threshold ? { 'data-threshold': mark.threshold } : {}) }]);
      if (mark.label) {
        const place = placeLabel(mark, labelWidth(svg, mark.label), { x, y, width, height, margin }, avoid);
        avoid.boxes.push(place.box);
        const label = {
          class: 'chart-mark-label',
          x: place.x,
          y: place.y,
          'text-anchor': place.anchor,
          ...(mark.threshold ? { 'data-threshold': mark.threshold } : {}),
        };
        drawn.push(['text', label, mark.label]);
      }
    }
    const path = line()
      .x((p) => x(p[0]))
      .y((p) => y(p[1]));
    dashes = last.series.map((s, i) => dashOf(s, i, width));
    last.series.forEach((s, i) => {
      const attrs = {
        class: 'chart-line',
        d: path(s.points),
        stroke: s.color ?? SERIES_COLORS[i % SERIES_COLORS.length],
        'data-series': s.name,
      };
      if (dashes[i]) attrs['stroke-dasharray'] = dashes[i];
      drawn.push(['path', { ...attrs, ...widthOf(s) }]);
      for (const p of s.dots ?? []) {
        drawn.push(['circle', { class: 'chart-dot', cx: x(p[0]), cy: y(p[1]), r: 3.5, fill: attrs.stroke, 'data-series': s.name }]);
      }
    });
    if (cursorX !== null) {
      drawn.push(['line', { class: 'chart-cursor', x1: x(cursorX), x2: x(cursorX), y1: margin.top, y2: height - margin.bottom }]);
    }
    reconcile(gy, drawn);
    // the legend is rebuilt only when what it shows changes (a cursor move or a step of most sliders leaves it)
    const legendKey = last.series.every((s) => typeof s.name === 'string') ? JSON.stringify(last.series.map((s, i) => [s.name, s.color ?? SERIES_COLORS[i % SERIES_COLORS.length], dashes[i], s.width ?? null])) : null;
    if (legendKey !== null && legendKey === legendShown) return;
    legendShown = legendKey;
    while (legend.firstChild) legend.firstChild.remove();
    last.series.forEach((s, i) => {
      const sw = svgEl('svg', { width: 28, height: 10, 'aria-hidden': 'true' });
      // the swatch is the line as drawn: its colour, dash pattern and width
      const l = svgEl('line', { x1: 0, x2: 28, y1: 5, y2: 5, stroke: s.color ?? SERIES_COLORS[i % SERIES_COLORS.length], class: 'chart-line', ...widthOf(s) });
      if (dashes[i]) l.setAttribute('stroke-dasharray', dashes[i]);
      sw.append(l);
      legend.append(h('li', {}, sw, ' ', htmlLabel(s.name)));
    });
  }

  function pointerX(e) {
    if (!x || !last) return;
    const r = svg.getBoundingClientRect();
    const v = x.invert(e.clientX - r.left);
    const [a, b] = last.xDomain;
    cursorX = Math.min(Math.max(a, b), Math.max(Math.min(a, b), v));
    if (last.snap) cursorX = last.snap(cursorX);
    render();
    onCursor?.(cursorX);
  }
  svg.addEventListener('pointermove', pointerX);
  svg.addEventListener('pointerdown', pointerX);
  let [unmeasured, idleMeasured] = [null, false];
  function measureLate() {
    [unmeasured, idleMeasured] = [null, true];
    measuredWidth ||= element.getBoundingClientRect().width;
    render();
  }
  new ResizeObserver((entries) => {
    measuredWidth = entries[0].contentRect.width;
    unmeasured = unmeasured?.() ?? null;
    render();
  }).observe(element);

  return {
    element,
    svg,
    draw(data) {
      last = data;
      if (cursorX !== null && data.snap) cursorX = data.snap(cursorX);
      // out of view: drawn after the frame (lib/offscreen.js), its time recorded then
      drawWhenSeen(element, () => {
        const t0 = performance.now();
        render();
        recordDraw(key ?? label, t0, last?.state ?? null);
      });
    },
    /** Moves the cursor to x; with notify, tells onCursor as a pointer move would. */
    setCursor(v, notify = false) {
      cursorX = v;
      render();
      if (notify) onCursor?.(v);
    },
    get x() { return x; },
    get y() { return y; },
  };
}
