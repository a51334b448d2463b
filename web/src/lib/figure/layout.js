// Figures for teachers: any heatmap or line chart of the site exported as a
// stand-alone figure with its axes, colour bar (or legend) and a caption
// naming the parameters, as SVG or as PNG at 2 image pixels per CSS pixel.
//
// A figure is laid out once into a list of drawing items (rect, line, path,
// circle, text, raster) and then painted by one of two backends: SVG markup
// or a 2-D canvas. Both use the same layout, so the two files agree. Figures
// are always light (white paper, dark ink), whatever the page's theme.
// Text in a PNG is drawn by the page's canvas with the page's fonts (so
// 简体中文 captions render); the caption and the plot rectangle are also
// stored in the PNG as iTXt chunks ('Description', 'sinpe:plot').
import { scaleLinear, scaleLog } from 'd3-scale';
import { colormapLUT } from '../colormap.js';
import { formatInteger } from '../numbers.js';

export const FIGURE_FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', 'Noto Sans SC', sans-serif";
export const PNG_SCALE = 2; // image pixels per CSS pixel
const INK = '#1d2128';
const MUTED = '#5b6472';
const PAPER = '#ffffff';
const PAD = 16;
const TICK = 5;
const SUPERSCRIPT = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };

/** The range part of a file name: rows first … last, both included ("rows0-19" for 20 rows from 0). */
export function rowRangeName(first, count, word = 'rows') {
  return `${word}${first}-${first + count - 1}`;
}

/** Integers in full with thousands separators from 10,000 on (as the live heatmaps label positions). */
export function fullInt(t) {
  return formatInteger(t);
}

function powerOfTen(v) {
  const e = Math.round(Math.log10(v));
  if (Math.abs(Math.log10(v) - e) > 1e-9) return '';
  return e === 0 ? '1' : `10${String(e).replace(/[-0-9]/g, (c) => SUPERSCRIPT[c])}`;
}

function linearTickFormat(ticks) {
  const step = ticks.length > 1 ? Math.abs(ticks[1] - ticks[0]) : 1;
  const digits = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
  return (v) => {
    if (Number.isInteger(v) && digits === 0) return fullInt(v);
    return v.toFixed(Math.min(6, digits)).replace('-', '−');
  };
}

// ---- text measurement and wrapping ----

let measureCtx = null;
function measure(text, size, weight = 400) {
  measureCtx ??= document.createElement('canvas').getContext('2d');
  measureCtx.font = `${weight} ${size}px ${FIGURE_FONT}`;
  return measureCtx.measureText(text).width;
}

// Latin words stay whole; CJK characters may break anywhere.
function wrap(text, size, width) {
  const tokens = String(text).match(/[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]|[^\s\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]+|\s+/g) ?? [];
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

// ---- layout ----

/**
 * Lays out a figure. spec:
 * { title?, caption, plot, colorbar?: { cmap, vmin, vmax, label } }
 * plot (heatmap): { kind: 'heatmap', rgba, columns, rows, x0, y0, xLabel, yLabel, xTickFormat? }
 * plot (lines): { kind: 'lines', series: [{ name, color, dash?, points, dots? }], xDomain, yDomain,
 *   xLog?, yLog?, xLabel, yLabel, marks?: [{ x } | { y }, label?] }
 * Returns { width, height, items, plot: { x, y, w, h } }.
 */
export function layoutFigure(spec) {
  const items = [];
  const text = (x, y, s, attrs = {}) => items.push({ type: 'text', x, y, text: String(s), size: 12, fill: INK, anchor: 'start', baseline: 'alphabetic', ...attrs });
  const { plot } = spec;
  const isMap = plot.kind === 'heatmap';

  // plot size: heatmaps keep square cells where they can (a tall narrow
  // table stays tall and narrow, as in d2l's figure), within 760 × 520
  let w;
  let hgt;
  if (isMap) {
    const cell = Math.min(760 / plot.columns, 520 / plot.rows);
    w = Math.max(240, plot.columns * cell);
    hgt = Math.max(200, plot.rows * cell);
  } else {
    w = 720;
    hgt = 300;
  }

  // scales and ticks
  let x;
  let y;
  let xTicks;
  let yTicks;
  let xFormat;
  let yFormat;
  if (isMap) {
    x = scaleLinear().domain([plot.x0 - 0.5, plot.x0 + plot.columns - 0.5]);
    y = scaleLinear().domain([plot.y0 - 0.5, plot.y0 + plot.rows - 0.5]);
    xTicks = x.ticks(Math.max(2, Math.floor(w / 70))).filter(Number.isInteger);
    yTicks = y.ticks(Math.max(2, Math.floor(hgt / 40))).filter(Number.isInteger);
    xFormat = plot.xTickFormat ?? fullInt;
    yFormat = fullInt;
  } else {
    x = (plot.xLog ? scaleLog() : scaleLinear()).domain(plot.xDomain);
    y = (plot.yLog ? scaleLog() : scaleLinear()).domain(plot.yDomain);
    xTicks = x.ticks(Math.max(3, Math.floor(w / 90)));
    yTicks = y.ticks(6);
    xFormat = plot.xLog ? powerOfTen : linearTickFormat(xTicks);
    yFormat = plot.yLog ? powerOfTen : linearTickFormat(yTicks);
  }

  const yTickWidth = Math.max(0, ...yTicks.map((t) => measure(yFormat(t), 12)));
  const titleHeight = spec.title ? 26 : 0;
  const left = PAD + 18 + yTickWidth + TICK + 4; // y label (rotated), tick labels, ticks
  const top = PAD + titleHeight + 6;
  const plotBox = { x: left, y: top, w, h: hgt };
  x.range([left, left + w]);
  y.range(isMap ? [top, top + hgt] : [top + hgt, top]);

  // colour bar (vertical, at the right, as matplotlib draws it)
  let right = left + w;
  const bar = spec.colorbar;
  let barBox = null;
  if (bar) {
    const bx = right + 22;
    barBox = { x: bx, y: top, w: 16, h: hgt };
    const bscale = scaleLinear().domain([bar.vmin, bar.vmax]).range([top + hgt, top]);
    const bticks = bscale.ticks(5);
    const bformat = linearTickFormat(bticks);
    const widest = Math.max(...bticks.map((t) => measure(bformat(t), 12)));
    right = bx + 16 + TICK + 4 + widest + 8 + 16;
    barBox.ticks = bticks.map((t) => ({ v: t, y: bscale(t), label: bformat(t) }));
    barBox.labelX = right - 4;
  }

  // legend of a line chart: rows of swatch + name under the x axis label
  const legendItems = [];
  let legendHeight = 0;
  if (!isMap && plot.series.length) {
    let lx = left;
    let ly = top + hgt + 50;
    for (const s of plot.series) {
      const wName = 34 + measure(s.name, 12) + 18;
      if (lx + wName > left + w && lx > left) {
        lx = left;
        ly += 18;
      }
      legendItems.push({ s, x: lx, y: ly });
      lx += wName;
    }
    legendHeight = ly - (top + hgt + 50) + 22;
  }

  const width = Math.ceil(Math.max(right, left + w) + PAD);
  const captionLines = wrap(spec.caption ?? '', 13, width - 2 * PAD);
  const captionTop = top + hgt + 44 + legendHeight + 8;
  const height = Math.ceil(captionTop + captionLines.length * 18 + PAD);

  // paint order: paper, title, raster/series, frame, axes, colour bar, legend, caption
  items.push({ type: 'rect', x: 0, y: 0, w: width, h: height, fill: PAPER });
  if (spec.title) text(left, PAD + 16, spec.title, { size: 16, weight: 700 });

  if (isMap) {
    items.push({ type: 'raster', ...plotBox, rgba: plot.rgba, columns: plot.columns, rows: plot.rows, smooth: false });
  } else {
    for (const mark of plot.marks ?? []) {
      const line =
        mark.y !== undefined
          ? { x1: left, x2: left + w, y1: y(mark.y), y2: y(mark.y) }
          : { x1: x(mark.x), x2: x(mark.x), y1: top, y2: top + hgt };
      if ([line.x1, line.x2, line.y1, line.y2].some((v) => !Number.isFinite(v))) continue;
      items.push({ type: 'line', ...line, stroke: MUTED, width: 1, dash: '4 3', clip: plotBox });
      if (mark.label) {
        if (mark.y !== undefined) text(left + w - 4, y(mark.y) - 4, mark.label, { size: 11, fill: MUTED, anchor: 'end' });
        else text(x(mark.x) + 4, top + 12, mark.label, { size: 11, fill: MUTED });
      }
    }
    for (const s of plot.series) {
      const pts = s.points.filter(([px, py]) => Number.isFinite(x(px)) && Number.isFinite(y(py))).map(([px, py]) => [x(px), y(py)]);
      if (pts.length > 1) items.push({ type: 'path', points: pts, stroke: s.color, width: 2, dash: s.dash ?? '', clip: plotBox, name: s.name });
      for (const [px, py] of s.dots ?? []) {
        if (Number.isFinite(x(px)) && Number.isFinite(y(py))) items.push({ type: 'circle', cx: x(px), cy: y(py), r: 3, fill: s.color });
      }
    }
  }
  // the frame sits just outside the plot, so no cell is painted over
  items.push({ type: 'rect', x: left - 0.5, y: top - 0.5, w: w + 1, h: hgt + 1, stroke: INK, width: 1 });

  // x axis
  for (const t of xTicks) {
    const px = x(t);
    items.push({ type: 'line', x1: px, x2: px, y1: top + hgt, y2: top + hgt + TICK, stroke: INK, width: 1 });
    const label = xFormat(t);
    if (label) text(px, top + hgt + TICK + 13, label, { anchor: 'middle' });
  }
  text(left + w / 2, top + hgt + 38, plot.xLabel, { anchor: 'middle', size: 13 });
  // y axis
  for (const t of yTicks) {
    const py = y(t);
    items.push({ type: 'line', x1: left - TICK, x2: left, y1: py, y2: py, stroke: INK, width: 1 });
    const label = yFormat(t);
    if (label) text(left - TICK - 3, py, label, { anchor: 'end', baseline: 'middle' });
  }
  text(PAD + 10, top + hgt / 2, plot.yLabel, { anchor: 'middle', baseline: 'middle', size: 13, rotate: -90 });

  if (barBox) {
    // the 256-entry LUT, top = vmax
    const lut = colormapLUT(bar.cmap);
    const strip = new Uint8ClampedArray(256 * 4);
    for (let i = 0; i < 256; i++) strip.set(lut.subarray(4 * (255 - i), 4 * (255 - i) + 4), 4 * i);
    items.push({ type: 'raster', x: barBox.x, y: barBox.y, w: barBox.w, h: barBox.h, rgba: strip, columns: 1, rows: 256, smooth: true, role: 'colorbar' });
    items.push({ type: 'rect', x: barBox.x - 0.5, y: barBox.y - 0.5, w: barBox.w + 1, h: barBox.h + 1, stroke: INK, width: 1 });
    for (const t of barBox.ticks) {
      items.push({ type: 'line', x1: barBox.x + barBox.w, x2: barBox.x + barBox.w + TICK, y1: t.y, y2: t.y, stroke: INK, width: 1 });
      text(barBox.x + barBox.w + TICK + 3, t.y, t.label, { baseline: 'middle' });
    }
    text(barBox.labelX, top + hgt / 2, bar.label, { anchor: 'middle', baseline: 'middle', size: 13, rotate: 90 });
  }

  for (const { s, x: lx, y: ly } of legendItems) {
    items.push({ type: 'line', x1: lx, x2: lx + 28, y1: ly - 4, y2: ly - 4, stroke: s.color, width: 2, dash: s.dash ?? '' });
    text(lx + 34, ly, s.name);
  }

  captionLines.forEach((line, i) => text(PAD, captionTop + 13 + i * 18, line, { size: 13, fill: INK }));

  return { width, height, items, plot: plotBox, colorbar: barBox && { x: barBox.x, y: barBox.y, w: barBox.w, h: barBox.h } };
}

