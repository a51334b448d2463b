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
import { colormapLUT } from './colormap.js';
import { download } from './export.js';
import { h } from './dom.js';
import { FIELDS, formatField } from '../model/fields.js';

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

/** Integers in full with thousands separators from 10 000 on (as the live heatmaps label positions). */
export function fullInt(t) {
  return Math.abs(t) < 1e4 ? String(t) : t.toLocaleString('en-US');
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

// ---- backends ----

function rasterCanvas(item) {
  const c = document.createElement('canvas');
  c.width = item.columns;
  c.height = item.rows;
  const img = new ImageData(item.columns, item.rows);
  img.data.set(item.rgba.subarray ? item.rgba.subarray(0, item.columns * item.rows * 4) : item.rgba);
  c.getContext('2d').putImageData(img, 0, 0);
  return c;
}

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const n = (v) => +v.toFixed(2);

/** The figure as a stand-alone SVG document (text). */
export function figureSVG(spec) {
  const fig = layoutFigure(spec);
  const out = [];
  const clips = new Map();
  const clipId = (box) => {
    const key = `${box.x},${box.y},${box.w},${box.h}`;
    if (!clips.has(key)) clips.set(key, { id: `clip${clips.size}`, box });
    return clips.get(key).id;
  };
  for (const it of fig.items) {
    if (it.type === 'rect') {
      out.push(`<rect x="${n(it.x)}" y="${n(it.y)}" width="${n(it.w)}" height="${n(it.h)}" fill="${it.fill ?? 'none'}"${it.stroke ? ` stroke="${it.stroke}" stroke-width="${it.width}"` : ''}/>`);
    } else if (it.type === 'line') {
      out.push(`<line x1="${n(it.x1)}" y1="${n(it.y1)}" x2="${n(it.x2)}" y2="${n(it.y2)}" stroke="${it.stroke}" stroke-width="${it.width}"${it.dash ? ` stroke-dasharray="${it.dash}"` : ''}${it.clip ? ` clip-path="url(#${clipId(it.clip)})"` : ''}/>`);
    } else if (it.type === 'path') {
      const d = it.points.map(([px, py], i) => `${i ? 'L' : 'M'}${n(px)},${n(py)}`).join('');
      out.push(`<path d="${d}" fill="none" stroke="${it.stroke}" stroke-width="${it.width}" stroke-linejoin="round"${it.dash ? ` stroke-dasharray="${it.dash}"` : ''}${it.clip ? ` clip-path="url(#${clipId(it.clip)})"` : ''}><title>${esc(it.name ?? '')}</title></path>`);
    } else if (it.type === 'circle') {
      out.push(`<circle cx="${n(it.cx)}" cy="${n(it.cy)}" r="${it.r}" fill="${it.fill}"/>`);
    } else if (it.type === 'text') {
      const anchor = { start: 'start', middle: 'middle', end: 'end' }[it.anchor];
      const baseline = it.baseline === 'middle' ? ' dominant-baseline="central"' : '';
      const transform = it.rotate ? ` transform="rotate(${it.rotate} ${n(it.x)} ${n(it.y)})"` : '';
      out.push(`<text x="${n(it.x)}" y="${n(it.y)}" font-size="${it.size}"${it.weight ? ` font-weight="${it.weight}"` : ''} fill="${it.fill}" text-anchor="${anchor}"${baseline}${transform}>${esc(it.text)}</text>`);
    } else if (it.type === 'raster') {
      const url = rasterCanvas(it).toDataURL('image/png');
      // a presentation attribute, not a style attribute: cells stay sharp when scaled
      const pixelated = it.smooth ? '' : ' image-rendering="pixelated"';
      out.push(`<image x="${n(it.x)}" y="${n(it.y)}" width="${n(it.w)}" height="${n(it.h)}" preserveAspectRatio="none"${pixelated}${it.role ? ` data-role="${it.role}"` : ''} data-columns="${it.columns}" data-rows="${it.rows}" href="${url}"/>`);
    }
  }
  const defs = [...clips.values()].map(({ id, box }) => `<clipPath id="${id}"><rect x="${n(box.x)}" y="${n(box.y)}" width="${n(box.w)}" height="${n(box.h)}"/></clipPath>`);
  const title = spec.title ? `<title>${esc(spec.title)}</title>` : '';
  const desc = `<desc>${esc(spec.caption ?? '')}</desc>`;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<svg xmlns="http://www.w3.org/2000/svg" width="${fig.width}" height="${fig.height}" viewBox="0 0 ${fig.width} ${fig.height}" font-family="${esc(FIGURE_FONT)}" data-plot="${n(fig.plot.x)},${n(fig.plot.y)},${n(fig.plot.w)},${n(fig.plot.h)}">\n` +
    `${title}${desc}<defs>${defs.join('')}</defs>\n${out.join('\n')}\n</svg>\n`
  );
}

/** Paints the figure on a new canvas at `scale` image pixels per CSS pixel. */
export function figureCanvas(spec, scale = PNG_SCALE) {
  const fig = layoutFigure(spec);
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(fig.width * scale);
  canvas.height = Math.round(fig.height * scale);
  const ctx = canvas.getContext('2d');
  ctx.scale(scale, scale);
  for (const it of fig.items) {
    ctx.save();
    if (it.clip) {
      ctx.beginPath();
      ctx.rect(it.clip.x, it.clip.y, it.clip.w, it.clip.h);
      ctx.clip();
    }
    ctx.setLineDash(it.dash ? it.dash.split(' ').map(Number) : []);
    if (it.type === 'rect') {
      if (it.fill) {
        ctx.fillStyle = it.fill;
        ctx.fillRect(it.x, it.y, it.w, it.h);
      }
      if (it.stroke) {
        ctx.strokeStyle = it.stroke;
        ctx.lineWidth = it.width;
        ctx.strokeRect(it.x, it.y, it.w, it.h);
      }
    } else if (it.type === 'line' || it.type === 'path') {
      const pts = it.type === 'line' ? [[it.x1, it.y1], [it.x2, it.y2]] : it.points;
      ctx.beginPath();
      pts.forEach(([px, py], i) => (i ? ctx.lineTo(px, py) : ctx.moveTo(px, py)));
      ctx.strokeStyle = it.stroke;
      ctx.lineWidth = it.width;
      ctx.lineJoin = 'round';
      ctx.stroke();
    } else if (it.type === 'circle') {
      ctx.beginPath();
      ctx.arc(it.cx, it.cy, it.r, 0, 2 * Math.PI);
      ctx.fillStyle = it.fill;
      ctx.fill();
    } else if (it.type === 'text') {
      ctx.font = `${it.weight ?? 400} ${it.size}px ${FIGURE_FONT}`;
      ctx.fillStyle = it.fill;
      ctx.textAlign = { start: 'left', middle: 'center', end: 'right' }[it.anchor];
      ctx.textBaseline = it.baseline === 'middle' ? 'middle' : 'alphabetic';
      ctx.translate(it.x, it.y);
      if (it.rotate) ctx.rotate((it.rotate * Math.PI) / 180);
      ctx.fillText(it.text, 0, 0);
    } else if (it.type === 'raster') {
      ctx.imageSmoothingEnabled = !!it.smooth;
      ctx.drawImage(rasterCanvas(it), it.x, it.y, it.w, it.h);
    }
    ctx.restore();
  }
  return { canvas, layout: fig };
}

// ---- PNG with text chunks ----

let crcTable = null;
function crc32(bytes) {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let i = 0; i < 256; i++) {
      let c = i;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[i] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (const b of bytes) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** An iTXt chunk (UTF-8 text, uncompressed). */
function itxt(keyword, text) {
  const enc = new TextEncoder();
  const k = enc.encode(keyword);
  const t = enc.encode(text);
  const data = new Uint8Array(k.length + 5 + t.length);
  data.set(k, 0); // keyword, then NUL, compression flag 0, method 0, empty language tag NUL, empty translated keyword NUL
  data.set(t, k.length + 5);
  return chunk('iTXt', data);
}

/** Inserts chunks (and a pHYs of `scale` × 96 dpi) right after a PNG's IHDR. */
export function withPngChunks(bytes, texts, scale = PNG_SCALE) {
  const ihdrEnd = 8 + 12 + new DataView(bytes.buffer, bytes.byteOffset).getUint32(8);
  const phys = new Uint8Array(9);
  const ppm = Math.round((96 * scale) / 0.0254);
  new DataView(phys.buffer).setUint32(0, ppm);
  new DataView(phys.buffer).setUint32(4, ppm);
  phys[8] = 1; // unit: metre
  const extra = [chunk('pHYs', phys), ...Object.entries(texts).map(([k, v]) => itxt(k, v))];
  const size = bytes.length + extra.reduce((a, c) => a + c.length, 0);
  const out = new Uint8Array(size);
  out.set(bytes.subarray(0, ihdrEnd), 0);
  let at = ihdrEnd;
  for (const c of extra) {
    out.set(c, at);
    at += c.length;
  }
  out.set(bytes.subarray(ihdrEnd), at);
  return out;
}

/** The figure as PNG bytes (Promise<Uint8Array>), with Title/Description/sinpe:plot text chunks. */
export async function figurePNG(spec, scale = PNG_SCALE) {
  // the caption's glyphs (e.g. 简体中文) must be loaded before the canvas draws them
  if (document.fonts?.load) {
    const all = [spec.title, spec.caption, spec.plot.xLabel, spec.plot.yLabel, spec.colorbar?.label].filter(Boolean).join(' ');
    await Promise.allSettled([document.fonts.load(`13px ${FIGURE_FONT}`, all)]);
  }
  const { canvas, layout } = figureCanvas(spec, scale);
  const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
  const bytes = new Uint8Array(await blob.arrayBuffer());
  const p = layout.plot;
  const texts = {
    Title: spec.title ?? '',
    Description: spec.caption ?? '',
    Software: 'sinpe lesson site',
    'sinpe:plot': [p.x, p.y, p.w, p.h].map((v) => +(v * scale).toFixed(2)).join(','),
  };
  if (layout.colorbar) {
    const c = layout.colorbar;
    texts['sinpe:colorbar'] = [c.x, c.y, c.w, c.h].map((v) => +(v * scale).toFixed(2)).join(',');
  }
  return withPngChunks(bytes, texts, scale);
}

export async function downloadFigurePNG(name, spec) {
  const bytes = await figurePNG(spec);
  download(name, new Blob([bytes], { type: 'image/png' }));
}

export function downloadFigureSVG(name, spec) {
  download(name, new Blob([figureSVG(spec)], { type: 'image/svg+xml' }));
}

/**
 * The two figure buttons of a chart or heatmap. spec() builds the figure from
 * the live view when clicked; name() is the file name without extension.
 */
export function figureButtons(app, { spec, name, className = '' }) {
  return h(
    'span',
    { class: `figure-buttons ${className}`.trim(), role: 'group', 'aria-label': app.t('figure.group') },
    h('button', { type: 'button', class: 'button export-figure-svg', onclick: () => downloadFigureSVG(`${name()}.svg`, spec()) }, app.t('figure.svg')),
    h('button', { type: 'button', class: 'button export-figure-png', onclick: () => downloadFigurePNG(`${name()}.png`, spec()) }, app.t('figure.png')),
  );
}

// ---- every heatmap and chart of a lesson ----

// The fields named in file names, when the lesson has them.
const NAME_FIELDS = ['d', 'layout', 'preset', 'cmap'];

/** "name = value" for each of the lesson's fields (enum values by their label). */
function parameterText(app, lesson, state) {
  return lesson.controls
    .filter((key) => FIELDS[key] && FIELDS[key].control !== 'none')
    .map((key) => {
      const value = state[key];
      const shown = FIELDS[key].type === 'enum' ? app.t(`${key}.${value}`, null, String(value)) : formatField(key, value);
      return `${app.t(`control.${key}`)} = ${shown}`;
    })
    .join(app.t('figure.listJoin'));
}

/**
 * The figure of a heatmap or chart element as it is drawn now: its plot, its
 * colour bar (heatmaps), and a caption naming what it shows (row range,
 * columns, the lesson's parameters, the colour scale), unless the lesson gave
 * its own caption.
 */
export function figureSpec(element, app, lesson) {
  const source = element.figureSource;
  const state = app.state;
  const plot = source.plot();
  const minus = (v) => String(v).replace('-', '−');
  // sentences, each closed by the language's full stop
  const sentences = [source.label.replace(/[.。]$/, '')];
  let colorbar = null;
  if (plot.kind === 'heatmap') {
    const scale = source.scale() ?? { cmap: state.cmap ?? 'rdbu', vmin: -1, vmax: 1, label: app.t('axis.value') };
    colorbar = scale;
    sentences.push(
      app.t('figure.cells', { label: plot.yLabel, first: plot.y0, last: plot.y0 + plot.rows - 1, firstColumn: plot.x0, lastColumn: plot.x0 + plot.columns - 1 }),
      app.t('figure.colour', { label: scale.label, vmin: minus(scale.vmin), vmax: minus(scale.vmax), cmap: app.t(`cmap.${scale.cmap}`, null, scale.cmap) }),
    );
  } else {
    sentences.push(app.t('figure.series', { names: plot.series.map((s) => s.name).join(app.t('figure.listJoin')) }));
  }
  sentences.push(parameterText(app, lesson, state));
  const stop = app.t('figure.stop');
  const own = source.info?.caption?.();
  const caption = own ?? sentences.map((s) => s + stop).join(app.t('figure.space'));
  return { title: source.info?.title?.(), caption: `${caption}${app.t('figure.space')}${app.t('figure.made', { version: app.pe?.version ?? '' })}`, plot, colorbar };
}

/** The file name (without extension) of a figure: lesson, figure number, key parameters, the row range. */
export function figureName(element, app, lesson, index) {
  const source = element.figureSource;
  if (source.info?.name) return source.info.name();
  const state = app.state;
  const plot = source.plot();
  const parts = ['sinpe', lesson.id, `${plot.kind === 'heatmap' ? 'heatmap' : 'chart'}${index + 1}`];
  for (const key of NAME_FIELDS) if (lesson.controls.includes(key)) parts.push(key === 'd' ? `d${state.d}` : String(state[key]));
  if (plot.kind === 'heatmap') parts.push(rowRangeName(plot.y0, plot.rows));
  return parts.join('_');
}

/**
 * Gives every heatmap and chart under root that has none yet its two figure
 * buttons (inside the <figure>, after the picture). Safe to call after every
 * render: figures made later (e.g. shown on demand) get theirs then.
 */
export function attachFigureExports(root, app, lesson) {
  const figures = [...root.querySelectorAll('figure.heatmap, figure.chart')].filter((f) => f.figureSource);
  figures.forEach((element, index) => {
    if (element.querySelector(':scope > .figure-buttons')) return;
    element.append(
      figureButtons(app, {
        spec: () => figureSpec(element, app, lesson),
        name: () => figureName(element, app, lesson, index),
      }),
    );
  });
}

/**
 * One-click views of the heatmap lesson that reproduce two well-known
 * figures: d2l's heatmap of P (60 positions × 32 dimensions, interleaved,
 * matplotlib's Blues) and the concatenated 20 × 512 table drawn with viridis.
 */
export function readyViews(app) {
  const view = (cls, label, patch) => h('button', { type: 'button', class: `button ${cls}`, onclick: () => app.setState(patch) }, app.t(label));
  return h(
    'div',
    { class: 'button-row ready-views', role: 'group', 'aria-label': app.t('figure.ready') },
    h('span', { class: 'button-row-label' }, app.t('figure.ready')),
    view('ready-d2l', 'figure.readyD2l', { d: 32, len: 60, start: 0, base: 10000, layout: 'interleaved', cmap: 'blues' }),
    view('ready-seed004', 'figure.readySeed004', { d: 512, len: 20, start: 0, base: 10000, layout: 'concat', cmap: 'viridis' }),
  );
}
