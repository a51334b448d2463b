// Where the reader is in a lesson, kept across a rebuild of its page (a
// language switch) and across a jump within it (a glossary link, a history
// entry whose Back returns to the link).

// The blocks a place is counted in: the children of the lesson's (or page's)
// article, and within the one at the window's top, its own children; the same
// structure in every language, so a place found in one is found in the other.
const ARTICLE = '#lesson > article';

// blocks shown, and not pinned (a phone's controls panel stays at the top while the text scrolls under it)
function childrenOf(el) {
  return [...el.children].filter((c) => c.getClientRects().length > 0 && getComputedStyle(c).position !== 'sticky');
}

/**
 * Where the reader is: the block of the lesson (or page) at the top of the
 * window and, within it, the child block there, by their indices (the same in
 * every language), and how far into the innermost one the window's top is, as
 * a fraction of its height (or, when it is in the space before that block, how
 * far above it). Null when nothing is shown.
 */
export function readingPosition() {
  const article = document.querySelector(ARTICLE);
  if (!article) return null;
  const top = stickyTop();
  const path = [];
  let fraction = 0;
  let gap = 0; // the window's top is in the space before the block, this far above it
  let box = article;
  for (let depth = 0; depth < 2; depth++) {
    const blocks = childrenOf(box);
    const index = blocks.findIndex((el) => el.getBoundingClientRect().bottom > top);
    if (index < 0) break;
    const r = blocks[index].getBoundingClientRect();
    path.push(index);
    fraction = r.height ? Math.max(0, (top - r.top) / r.height) : 0;
    gap = Math.max(0, r.top - top);
    // the top of the window is above this block: its place is its own top
    if (r.top >= top) break;
    box = blocks[index];
  }
  return path.length ? { path, fraction, gap, scrollY: window.scrollY } : null;
}

/** The height of what stays pinned at the window's top (the header, a pinned panel), whose text is not being read. */
function stickyTop() {
  let top = 0;
  for (const el of document.querySelectorAll('.site-header, #lesson .lesson-controls')) {
    const style = getComputedStyle(el);
    if (style.position !== 'sticky' && style.position !== 'fixed') continue;
    const r = el.getBoundingClientRect();
    // a panel is pinned while it sits at its sticky offset, under the header
    if (el.classList.contains('site-header') || (r.top <= top + 1 && r.bottom > top)) top = Math.max(top, r.bottom);
  }
  return top;
}

/**
 * The reading position at the top of a section of the lesson (its element
 * marked data-section="id"), for keepReadingPosition: a link that opens a
 * lesson at a section (`#lesson=rope&section=precision`). Null if there is none.
 */
export function sectionPosition(id) {
  const article = document.querySelector(ARTICLE);
  const el = article?.querySelector(`:scope > [data-section="${CSS.escape(id)}"]`);
  const index = el ? childrenOf(article).indexOf(el) : -1;
  return index < 0 ? null : { path: [index], fraction: 0, gap: 0 };
}

/**
 * Lands a newly built lesson (in `main`) at its title, or at the section a link named (`section=`):
 * placed like a reading position after a language switch, again while the sections above it
 * draw and change height. Focus goes to the lesson.
 */
export function landAt(main, section = null) {
  main.focus({ preventScroll: true });
  const at = section && sectionPosition(section);
  if (at) keepReadingPosition(at);
  else main.querySelector('h1.lesson-title')?.scrollIntoView({ block: 'start' });
}

/** Scrolls the rebuilt page so that the reading position's block is where it was (again once late drawing settles). */
export function keepReadingPosition(anchor) {
  // → whether the window had to move
  const place = () => {
    let el = document.querySelector(ARTICLE);
    for (const index of anchor.path) el = el && childrenOf(el)[index];
    if (!el) return false;
    const r = el.getBoundingClientRect();
    const by = r.top - stickyTop() + anchor.fraction * r.height - anchor.gap;
    if (Math.abs(by) < 0.5) return false;
    window.scrollTo({ top: window.scrollY + by, behavior: 'instant' });
    return true;
  };
  place();
  // charts measure their width, sections render once in view and figures drawn later change their
  // height: place again each frame while the page settles (until it stayed put for 20 frames), until the
  // reader scrolls or 2 s have passed; then the browser's scroll anchoring keeps it
  // (html[data-placing] meanwhile: the tests wait for it to go)
  const stop = () => {
    cancelAnimationFrame(frame);
    delete document.documentElement.dataset.placing;
    for (const type of READER_INPUT) removeEventListener(type, stop, { capture: true });
  };
  stopPlacing();
  stopPlacing = stop;
  for (const type of READER_INPUT) addEventListener(type, stop, { capture: true, passive: true });
  document.documentElement.dataset.placing = 'true';
  const until = performance.now() + 2000;
  let frame = 0;
  let still = 0;
  const again = () => {
    still = place() ? 0 : still + 1;
    // a figure computed across frames (aria-busy) may still change the page's height above the place
    const busy = document.querySelector('#lesson [aria-busy="true"]');
    if ((still < 20 || busy) && performance.now() < (busy ? until + 6000 : until)) frame = requestAnimationFrame(again);
    else stop();
  };
  frame = requestAnimationFrame(again);
}
const READER_INPUT = ['wheel', 'touchstart', 'keydown', 'pointerdown'];
let stopPlacing = () => {}; // the placing under way (a second switch ends the first's)

// A jump within the lesson (a glossary link) is a history entry: the entry left
// behind records where the reader was, and Back returns there (lib/learn.js
// sends 'sinpe:jump' before it scrolls). It records the place twice: the link's
// place in the window (Back to the same page), and the reading position
// (Back to a page rebuilt meanwhile, in another language: the link is a new
// element there, the same block is at the same index).
export function trackJumps(flushHash) {
  document.addEventListener('sinpe:jump', (e) => {
    flushHash();
    // the link's place in the window: sections drawn meanwhile may move it within the page
    const top = e.target instanceof Element ? e.target.getBoundingClientRect().top : 0;
    const place = readingPosition();
    history.replaceState({ returnTo: window.scrollY, from: e.detail?.from ?? null, top, place }, '', location.href);
    history.pushState({ jump: e.detail?.to ?? null }, '', location.href);
  });
}

/**
 * Back to a place in the lesson a jump left: its scroll position, and focus on
 * the link followed. rebuilt: the page was built anew for this entry (its
 * language differs from the page Back left): the reading position is kept
 * while the new page settles.
 */
export function returnFromJump(saved, { rebuilt = false } = {}) {
  if (rebuilt) {
    if (saved.place) keepReadingPosition(saved.place);
    else window.scrollTo({ top: saved.returnTo, behavior: 'instant' });
    return;
  }
  const link = saved.from ? document.querySelector(`article.lesson [data-jump-id="${CSS.escape(saved.from)}"]`) : null;
  // the link where it was in the window (else the scroll position left)
  const place = () => (link ? window.scrollBy({ top: link.getBoundingClientRect().top - saved.top, behavior: 'instant' }) : window.scrollTo({ top: saved.returnTo, behavior: 'instant' }));
  place();
  requestAnimationFrame(() => requestAnimationFrame(place));
  link?.focus({ preventScroll: true });
}
