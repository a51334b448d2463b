// The Chinese words of an exported SVG, in the site's own Noto Sans SC. An SVG
// file is opened where the page's fonts are not: in a viewer, an editor, or
// drawn as an image, on a machine that may have no Chinese font at all. So
// the faces of Noto Sans SC that hold the figure's Chinese characters (the
// unicode-range parts the site's stylesheet declares) go into the file, each
// as a data: URL in an @font-face of its own <style>; a figure without
// Chinese gets none.

const FAMILY = 'Noto Sans SC';
const CJK = /[\u2e80-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]/u;

/** The code point ranges of a unicode-range value ("U+4e00-4e2f, U+3000"): [[lo, hi], …]. */
export function unicodeRanges(value) {
  const out = [];
  for (const part of String(value).split(',')) {
    const m = part.trim().match(/^U\+([0-9a-f?]+)(?:-([0-9a-f]+))?$/i);
    if (!m) continue;
    if (m[1].includes('?')) out.push([parseInt(m[1].replace(/\?/g, '0'), 16), parseInt(m[1].replace(/\?/g, 'f'), 16)]);
    else out.push([parseInt(m[1], 16), parseInt(m[2] ?? m[1], 16)]);
  }
  return out;
}

/** Every @font-face rule of the document's stylesheets (imported ones included) for `family`. */
function fontFaces(family) {
  const found = [];
  const walk = (rules) => {
    for (const rule of rules) {
      if (rule instanceof CSSFontFaceRule) {
        if (rule.style.getPropertyValue('font-family').replace(/["']/g, '').trim() === family) found.push(rule);
      } else if (rule instanceof CSSImportRule && rule.styleSheet) walk(readRules(rule.styleSheet));
      else if (rule.cssRules) walk(rule.cssRules);
    }
  };
  for (const sheet of document.styleSheets) walk(readRules(sheet));
  return found;
}

function readRules(sheet) {
  try {
    return sheet.cssRules;
  } catch {
    return []; // a stylesheet of another origin
  }
}

async function dataURL(url) {
  if (url.startsWith('data:')) return url;
  const blob = await (await fetch(url)).blob();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^;,]*/, 'data:font/woff2'));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
}

/**
 * Puts into `svg` (a composed figure) the faces of the site's Noto Sans SC
 * that its Chinese characters need. Returns how many faces it embedded.
 */
export async function embedCJKFaces(svg) {
  const chars = new Set();
  for (const t of svg.querySelectorAll('text, title, desc')) for (const c of t.textContent) if (CJK.test(c)) chars.add(c.codePointAt(0));
  if (chars.size === 0) return 0;
  const needed = fontFaces(FAMILY).filter((rule) => {
    const ranges = unicodeRanges(rule.style.getPropertyValue('unicode-range') || 'U+0-10FFFF');
    return [...chars].some((c) => ranges.some(([lo, hi]) => c >= lo && c <= hi));
  });
  const css = await Promise.all(
    needed.map(async (rule) => {
      const src = rule.style.getPropertyValue('src').match(/url\(\s*["']?([^"')]+)["']?\s*\)/)?.[1];
      if (!src) return '';
      const url = await dataURL(new URL(src, rule.parentStyleSheet?.href ?? document.baseURI).href);
      const weight = rule.style.getPropertyValue('font-weight') || '400';
      const range = rule.style.getPropertyValue('unicode-range');
      return `@font-face{font-family:"${FAMILY}";font-style:normal;font-weight:${weight};src:url(${url}) format("woff2");${range ? `unicode-range:${range};` : ''}}`;
    }),
  );
  const rules = css.filter(Boolean);
  if (rules.length === 0) return 0;
  const style = document.createElementNS('http://www.w3.org/2000/svg', 'style');
  style.textContent = rules.join('\n');
  svg.insertBefore(style, svg.firstChild);
  // first in the list, as the page's Chinese text has it (style.css): after system-ui and
  // another family, Chromium drew the characters as empty boxes rather than in these faces
  const family = svg.getAttribute('font-family');
  if (family && !family.startsWith(`'${FAMILY}'`)) svg.setAttribute('font-family', `'${FAMILY}', ${family}`);
  return rules.length;
}
