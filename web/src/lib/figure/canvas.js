// The canvas backend of the figure layout: a figure painted on a 2-D canvas
// (the PNG export), and the raster items both backends draw from.
import { layoutFigure, FIGURE_FONT, PNG_SCALE } from './layout.js';

/** A raster item (heatmap cells, colour bar) as a canvas of one pixel per cell. */
export function rasterCanvas(item) {
  const c = document.createElement('canvas');
  c.width = item.columns;
  c.height = item.rows;
  const img = new ImageData(item.columns, item.rows);
  img.data.set(item.rgba.subarray ? item.rgba.subarray(0, item.columns * item.rows * 4) : item.rgba);
  c.getContext('2d').putImageData(img, 0, 0);
  return c;
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

