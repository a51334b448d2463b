// The exported figure is the on-screen figure: the chart's SVG (or the
// heatmap's axes over its cells) as the page drew it, copied into a
// stand-alone SVG document with the title above and the legend (or the
// page's colour bar component) and the caption below. Nothing here draws a
// curve, an axis or a tick of its own. Figures are always light (white
// paper, dark ink), whatever the page's theme: the page's classes are given
// light presentation attributes in the copy.
import { svgEl } from '../dom.js';
import { colorStrip, colorbarAxis } from '../colorbar.js';
import { embedCJKFaces } from './svg-font.js';
import { setSvgLabel } from '../subscript.js';

export const FIGURE_FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', 'Noto Sans SC', sans-serif";
const INK = '#1d2128';
const MUTED = '#5b6472';
const PAD = 16;
const BAR = { width: 320, height: 14 };

// the page's stylesheet rules for the figure classes, as light attributes
const LIGHT = [
  ['.axis', { fill: 'none', color: INK }],
  ['.axis text', { fill: INK, 'font-size': 11, 'font-family': FIGURE_FONT }],
  ['.axis path, .axis line', { stroke: INK }],
  ['.axis-label', { fill: INK, 'font-size': 12, 'text-anchor': 'middle' }],
  ['.chart-line', { fill: 'none', 'stroke-linejoin': 'round' }],
  // a series drawn with its own width keeps it
  ['.chart-line:not([stroke-width])', { 'stroke-width': 2 }],
  ['.chart-mark', { stroke: MUTED, 'stroke-width': 1, 'stroke-dasharray': '4 3' }],
  ['.chart-mark-label', { fill: MUTED, 'font-size': 11, stroke: '#ffffff', 'stroke-width': 3, 'stroke-linejoin': 'round', 'paint-order': 'stroke' }],
];

function setAll(el, attrs) {
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

// a label's subscripts (λ_i) as lowered tspans (lib/subscript.js), as on the page
function text(x, y, content, attrs = {}) {
  const t = setAll(svgEl('text', { x, y, fill: INK, 'font-size': 12 }), attrs);
  return setSvgLabel(t, content, Number(t.getAttribute('font-size')));
}

/** A copy of the page's SVG drawing, light, without the pointer's cursor. */
function lightCopy(svg) {
  const copy = svg.cloneNode(true);
  copy.querySelectorAll('.chart-cursor, .heatmap-cursor').forEach((el) => el.remove());
  for (const [selector, attrs] of LIGHT) copy.querySelectorAll(selector).forEach((el) => setAll(el, attrs));
  copy.removeAttribute('class');
  copy.removeAttribute('style');
  return copy;
}

// ---- caption wrapping ----

let measureCtx = null;
function measure(content, size) {
  measureCtx ??= document.createElement('canvas').getContext('2d');
  measureCtx.font = `400 ${size}px ${FIGURE_FONT}`;
  return measureCtx.measureText(content).width;
}

// Latin words stay whole; CJK characters may break anywhere.
function wrap(content, size, width) {
  const tokens = String(content).match(/[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]|[^\s\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]+|\s+/g) ?? [];
  const lines = [];
  let line = '';
  for (const token of tokens) {
    const next = line + token;
    if (line && measure(next.trimEnd(), size) > width && !/^\s+$/.test(token)) {
      lines.push(line.trimEnd());
      line = token.trimStart();
    } else line = next;
  }
  if (line.trim()) lines.push(line.trimEnd());
  return lines;
}

/** The cells of a heatmap frame as a PNG data URL, one image pixel per cell. */
function cellsURL(plot) {
  const c = document.createElement('canvas');
  c.width = plot.columns;
  c.height = plot.rows;
  const img = new ImageData(plot.columns, plot.rows);
  img.data.set(plot.rgba.subarray(0, plot.columns * plot.rows * 4));
  c.getContext('2d').putImageData(img, 0, 0);
  return c.toDataURL('image/png');
}

/** The series as drawn on screen: name, colour and dash of each path. */
function drawnSeries(svg) {
  return [...svg.querySelectorAll('path.chart-line')].map((p) => ({
    name: p.getAttribute('data-series') ?? '',
    color: p.getAttribute('stroke'),
    dash: p.getAttribute('stroke-dasharray') ?? '',
    width: Number(p.getAttribute('stroke-width') ?? 2),
  }));
}

/**
 * The export of a figure element (its figureSource) with spec { title, caption,
 * plot, colorbar } from lib/figure/caption.js; scale: the image pixels per CSS
 * pixel of the PNG it becomes (0: an SVG file). Returns { svg (element), width,
 * height, plot: {x, y, w, h}, colorbar: {x, y, w, h} | null } in CSS pixels.
 */
export function composeFigure(element, spec, { scale = 0 } = {}) {
  const screen = element.figureSource.screen();
  const root = svgEl('svg', { 'font-family': FIGURE_FONT });
  const body = [];
  const top = PAD + (spec.title ? 26 : 0) + 6;
  const drawing = lightCopy(screen.svg);
  setAll(drawing, { x: PAD, y: top, width: screen.width, height: screen.height, viewBox: `0 0 ${screen.width} ${screen.height}`, overflow: 'visible' });
  const plot = { x: PAD + screen.plot.x, y: top + screen.plot.y, w: screen.plot.w, h: screen.plot.h };
  if (spec.plot.kind === 'heatmap') {
    // The cells of the whole frame, where the page shows them, under the page's axes: one
    // image pixel per cell in an SVG (the data, for a viewer to zoom into); a PNG of fewer
    // pixels than cells gets each pixel's mean, as the page shows it (no moiré).
    const means = scale ? element.figureSource.means?.(Math.round(plot.w * scale), Math.round(plot.h * scale)) : null;
    const image = svgEl('image', { x: plot.x, y: plot.y, width: plot.w, height: plot.h, preserveAspectRatio: 'none', 'data-columns': spec.plot.columns, 'data-rows': spec.plot.rows });
    if (means) image.setAttribute('data-filtered', `${means.width}x${means.height}`);
    else image.setAttribute('image-rendering', 'pixelated');
    image.setAttribute('href', means ? means.toDataURL('image/png') : cellsURL(spec.plot));
    body.push(image);
  }
  body.push(drawing);
  let y = top + screen.height + 8;
  let right = PAD + screen.width;
  let colorbar = null;
  if (spec.colorbar) {
    // the page's colour bar component: its strip and its axis, for the figure's scale
    const { cmap, vmin, vmax, label } = spec.colorbar;
    const w = Math.min(BAR.width, Math.max(160, plot.w));
    const labelWidth = measure(label, 12) + 12;
    const x = plot.x;
    colorbar = { x, y: y + 4, w, h: BAR.height };
    body.push(text(x + w + 12, y + 4 + BAR.height - 2, label));
    const strip = svgEl('image', { x, y: y + 4, width: w, height: BAR.height, preserveAspectRatio: 'none', 'data-role': 'colorbar' });
    strip.setAttribute('href', colorStrip(cmap).toDataURL('image/png'));
    body.push(strip, svgEl('rect', { x: x - 0.5, y: y + 3.5, width: w + 1, height: BAR.height + 1, fill: 'none', stroke: INK, 'stroke-width': 1 }));
    const axis = colorbarAxis(svgEl('g', { class: 'axis', 'data-role': 'colorbar-axis', transform: `translate(${x},${y + 4 + BAR.height})` }), [vmin, vmax], w);
    for (const [selector, attrs] of LIGHT.slice(0, 3)) [axis, ...axis.querySelectorAll('*')].filter((el) => el.matches(selector)).forEach((el) => setAll(el, attrs));
    body.push(axis);
    right = Math.max(right, x + w + labelWidth);
    y += 4 + BAR.height + 30;
  } else if (spec.plot.kind === 'lines') {
    // the legend: each series' line as drawn (colour, dash) and its name, in rows
    let lx = plot.x;
    let ly = y + 12;
    for (const s of drawnSeries(screen.svg)) {
      const wName = 34 + measure(s.name, 12) + 18;
      if (lx + wName > plot.x + plot.w && lx > plot.x) [lx, ly] = [plot.x, ly + 18];
      body.push(setAll(svgEl('line', { x1: lx, x2: lx + 28, y1: ly - 4, y2: ly - 4, stroke: s.color, 'stroke-width': s.width }), s.dash ? { 'stroke-dasharray': s.dash } : {}));
      body.push(text(lx + 34, ly, s.name, { class: 'legend-name' }));
      lx += wName;
    }
    y = ly + 12;
  }
  const width = Math.ceil(right + PAD);
  const lines = wrap(spec.caption ?? '', 13, width - 2 * PAD);
  lines.forEach((line, i) => body.push(text(PAD, y + 13 + i * 18, line, { 'font-size': 13 })));
  const height = Math.ceil(y + lines.length * 18 + PAD);
  setAll(root, { width, height, viewBox: `0 0 ${width} ${height}`, 'data-plot': [plot.x, plot.y, plot.w, plot.h].map((v) => +v.toFixed(2)).join(',') });
  if (spec.title) {
    const title = svgEl('title');
    title.textContent = spec.title;
    root.append(title);
  }
  const desc = svgEl('desc');
  desc.textContent = spec.caption ?? '';
  root.append(desc, svgEl('rect', { x: 0, y: 0, width, height, fill: '#ffffff' }));
  if (spec.title) root.append(text(PAD, PAD + 16, spec.title, { 'font-size': 16, 'font-weight': 700 }));
  root.append(...body);
  // the page's record of each label's text (lib/subscript.js) is not part of the figure
  root.querySelectorAll('[data-label]').forEach((el) => el.removeAttribute('data-label'));
  return { svg: root, width, height, plot, colorbar };
}

/** The figure as a stand-alone SVG document (text), its Chinese words' faces of the site's font in it. */
export async function figureSVG(element, spec) {
  const { svg } = composeFigure(element, spec);
  await embedCJKFaces(svg);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(svg)}\n`;
}
