// The SVG backend of the figure layout: a stand-alone SVG document.
import { layoutFigure, FIGURE_FONT } from './layout.js';
import { rasterCanvas } from './canvas.js';

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

