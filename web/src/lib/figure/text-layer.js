// The Chinese words of a figure's PNG, drawn on its canvas. The PNG is the
// exported SVG drawn as an image (lib/figure/png.js), and an SVG drawn as an
// image sees none of the page's fonts: on a machine without a system CJK font
// its Chinese would be empty boxes. The page has the site's Noto Sans SC, and
// a canvas draws with the page's fonts once document.fonts has loaded them:
// so each SVG text with CJK characters is taken out of the SVG and painted on
// the canvas over the drawn image, where and as the SVG would have drawn it.

import { recordPainted } from '../probe.js';

const CJK = /[\u2e80-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]/;

/** The font shorthand of a text's computed style (canvas ctx.font). */
const fontOf = (cs) => `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;

/**
 * Takes the texts with CJK characters out of `svg` (a composed figure, not in
 * the document) and returns paint(ctx, scale), which draws them on a canvas
 * holding the figure drawn at `scale` image pixels per SVG unit.
 */
export async function takeCJKTexts(svg, fontFamily) {
  const texts = [...svg.querySelectorAll('text')].filter((t) => CJK.test(t.textContent));
  if (texts.length === 0) return () => {};
  // the page's fonts for those words, before the layout that places them
  const sizes = new Set(texts.map((t) => `${t.closest('[font-weight]')?.getAttribute('font-weight') ?? 400} ${t.closest('[font-size]')?.getAttribute('font-size') ?? 12}px`));
  const words = texts.map((t) => t.textContent).join('');
  await Promise.allSettled([...sizes].map((s) => document.fonts.load(`${s} ${fontFamily}`, words)));
  // laid out off screen in a shadow root: the page's own styles do not reach it
  const host = document.createElement('div');
  for (const [k, v] of Object.entries({ all: 'initial', position: 'fixed', left: '-100000px', top: '0', visibility: 'hidden', 'pointer-events': 'none' })) host.style.setProperty(k, v);
  host.attachShadow({ mode: 'open' }).append(svg);
  document.body.append(host);
  let items;
  try {
    const toRoot = svg.getScreenCTM().inverse();
    // each run (a text node, or a tspan: a subscript, lib/subscript.js) at its own place and size
    items = texts.flatMap((t) => {
      const m = toRoot.multiply(t.getScreenCTM());
      let at = 0;
      return [...t.childNodes].flatMap((node) => {
        const content = node.textContent;
        const first = at;
        at += content.length;
        if (!content) return [];
        const cs = getComputedStyle(node.nodeType === Node.TEXT_NODE ? t : node);
        const start = t.getStartPositionOfChar(first);
        const stroke = cs.stroke !== 'none' && parseFloat(cs.strokeWidth) > 0;
        return [{ m, x: start.x, y: start.y, text: content, font: fontOf(cs), fill: cs.fill, stroke: stroke ? cs.stroke : null, strokeWidth: parseFloat(cs.strokeWidth) }];
      });
    });
    recordPainted(items.map((it) => it.text));
  } finally {
    host.remove();
  }
  texts.forEach((t) => t.remove());
  return (ctx, scale) => {
    for (const it of items) {
      ctx.save();
      ctx.setTransform(scale * it.m.a, scale * it.m.b, scale * it.m.c, scale * it.m.d, scale * it.m.e, scale * it.m.f);
      Object.assign(ctx, { font: it.font, textAlign: 'left', textBaseline: 'alphabetic' });
      if (it.stroke) {
        Object.assign(ctx, { strokeStyle: it.stroke, lineWidth: it.strokeWidth, lineJoin: 'round' });
        ctx.strokeText(it.text, it.x, it.y);
      }
      ctx.fillStyle = it.fill;
      ctx.fillText(it.text, it.x, it.y);
      ctx.restore();
    }
  };
}
