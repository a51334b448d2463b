// Display formulas fit their box, never hide a part of it sideways (a phone is
// 360 px wide). A box holds the formula as written (data-variant="wide") and,
// for a long one, a multi-line form of the same formula ("narrow", typeset when
// the box first needs it); the first that fits the box's width is shown, else
// the narrowest set smaller, down to MIN_SCALE (0.8 of the body text: KaTeX
// sets 1.08em). Chosen again whenever the box's width changes (rotation, window
// resize) and when fonts arrive.
// Only what still does not fit scrolls, with a faded edge (lib style.css).

import { whenIdle } from './idle.js';

export const MIN_SCALE = 0.8 / 1.08;

/** The width of a variant's formula as typeset, at scale 1 (its boxes, even where hidden or clipped). */
function naturalWidth(variant, scale) {
  const html = variant.querySelector('.katex-html') ?? variant;
  const range = document.createRange();
  range.selectNodeContents(html);
  return range.getBoundingClientRect().width / scale;
}

/** Chooses the box's variant and scale for its width; marks what still overflows. */
export function fitFormula(box) {
  const width = box.clientWidth;
  if (width > 0) {
    const scale = Number(box.style.getPropertyValue('--math-scale') || 1);
    // what the box's content takes beyond the glyphs' boxes (a pixel or two), once seen
    const slack = Number(box.dataset.slack || 0);
    const variants = [...box.querySelectorAll(':scope > .katex-display')];
    const widths = variants.map((v) => naturalWidth(v, scale) + slack);
    let pick = widths.findIndex((w) => w <= width);
    let next = 1;
    const later = narrowLater.get(box);
    if (pick < 0 && later) {
      // the formula as written does not fit: its narrow form is typeset now, then both are measured
      narrowLater.delete(box);
      const narrow = later();
      if (narrow) {
        box.append(narrow);
        fitFormula(box);
        return;
      }
    }
    if (pick < 0) {
      pick = widths.indexOf(Math.min(...widths));
      next = Math.max(MIN_SCALE, Math.floor((1000 * width) / widths[pick]) / 1000);
    }
    variants.forEach((v, i) => v.toggleAttribute('data-hidden', i !== pick));
    setScale(box, scale, next);
    const over = box.scrollWidth - box.clientWidth;
    if (over > 1 && over <= 8 && slack === 0) {
      box.dataset.slack = String(Math.ceil(over / next));
      fitFormula(box);
      return;
    }
  }
  markOverflow(box);
}

function setScale(box, from, to) {
  if (to === from) return;
  if (to === 1) box.style.removeProperty('--math-scale');
  else box.style.setProperty('--math-scale', String(to));
}

// Boxes are fitted when their size changes (the first layout included).
const resized = new ResizeObserver((entries) => {
  for (const { target } of entries) fitFormula(target);
});
// a formula's box keeps its size when KaTeX's fonts arrive, its content widens
document.fonts?.addEventListener('loadingdone', () => document.querySelectorAll('.math-display').forEach(fitFormula));

// the boxes whose narrow form is not typeset yet: box → a function that typesets it
const narrowLater = new WeakMap();

/** Fits `box` whenever its size changes; narrowLater() typesets its narrow form, if it has one, when first needed. */
export function watchFormula(box, later = null) {
  if (later) narrowLater.set(box, later);
  resized.observe(box);
}

/** `box` keeps the content of `from` (lib/dom.js show()): it takes its narrow form as well. */
export function narrowAsIn(box, from) {
  const later = narrowLater.get(from);
  if (later) narrowLater.set(box, later);
  else narrowLater.delete(box);
}

const boxesIn = (root) => [...(root.classList?.contains('math-display') ? [root] : []), ...(root.querySelectorAll?.('.math-display') ?? [])];

/** Stops watching the formula boxes in `root` (not shown after all: show() kept the older copy). */
export function unwatchFormulas(root) {
  for (const box of boxesIn(root)) resized.unobserve(box);
}

/**
 * Fits the formula boxes in `root` again once the page is idle (their texts
 * changed in place, their boxes' sizes did not: the observer does not report;
 * measured when idle, the page's layout is already done).
 */
export function refitLater(root) {
  const boxes = boxesIn(root);
  if (boxes.length) whenIdle(() => boxes.forEach((box) => box.isConnected && fitFormula(box)), 500);
}

// A display formula still wider than its box scrolls sideways; data-overflow
// (set while it does) shows a faded edge and a scrollbar as the hint that
// there is more, data-at-end once it is scrolled to its end.
function markOverflow(el) {
  const over = el.scrollWidth > el.clientWidth + 1;
  el.toggleAttribute('data-overflow', over);
  el.toggleAttribute('data-at-end', over && el.scrollLeft + el.clientWidth >= el.scrollWidth - 1);
  if (over && !el.dataset.watched) {
    el.dataset.watched = '1';
    el.addEventListener('scroll', () => markOverflow(el), { passive: true });
  }
}
