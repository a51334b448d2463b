// PNG files of figures, with the caption and the plot rectangle stored as
// iTXt chunks and the resolution as pHYs.
import { composeFigure, FIGURE_FONT } from './compose.js';
import { takeCJKTexts } from './text-layer.js';

export const PNG_SCALE = 2; // image pixels per CSS pixel

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

/**
 * The figure as PNG bytes (Promise<Uint8Array>): the exported SVG (the
 * on-screen drawing, lib/figure/compose.js) rasterised by the browser through
 * an Image and a canvas, with Title/Description/sinpe:plot text chunks. Its
 * Chinese words are painted on the canvas in the site's font (lib/figure/text-layer.js).
 */
export async function figurePNG(element, spec, scale = PNG_SCALE) {
  // the caption's glyphs (e.g. 简体中文) must be loaded before the image is drawn
  if (document.fonts?.load) {
    const all = [spec.title, spec.caption, spec.plot.xLabel, spec.plot.yLabel, spec.colorbar?.label].filter(Boolean).join(' ');
    await Promise.allSettled([document.fonts.load(`13px ${FIGURE_FONT}`, all)]);
  }
  const figure = composeFigure(element, spec, { scale });
  // its Chinese words are drawn on the canvas with the site's font (an SVG image sees no page font)
  const paintCJK = await takeCJKTexts(figure.svg, FIGURE_FONT);
  const source = new XMLSerializer().serializeToString(figure.svg);
  const url = URL.createObjectURL(new Blob([source], { type: 'image/svg+xml' }));
  const image = new Image();
  try {
    image.src = url;
    await image.decode();
  } finally {
    URL.revokeObjectURL(url);
  }
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(figure.width * scale);
  canvas.height = Math.round(figure.height * scale);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0, canvas.width, canvas.height);
  paintCJK(ctx, canvas.width / figure.width);
  const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
  const bytes = new Uint8Array(await blob.arrayBuffer());
  const rect = (r) => [r.x, r.y, r.w, r.h].map((v) => +(v * scale).toFixed(2)).join(',');
  const texts = { Title: spec.title ?? '', Description: spec.caption ?? '', Software: 'sinpe lesson site', 'sinpe:plot': rect(figure.plot) };
  if (figure.colorbar) texts['sinpe:colorbar'] = rect(figure.colorbar);
  return withPngChunks(bytes, texts, scale);
}
