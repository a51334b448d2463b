// Where the reader is in a lesson, kept across a rebuild of its page (a
// language switch) and across a jump within it (a glossary link, a history
// entry whose Back returns to the link).

/**
 * Where the reader is: the lesson's section (or header) at the top of the
 * window, by its index among the lesson's sections (the same in every
 * language), and how far into it the window's top is, as a fraction of its height.
 */
export function readingPosition() {
  const blocks = [...document.querySelectorAll('article.lesson > h1.lesson-title, article.lesson > section, article.lesson > details, article.lesson > nav')];
  const top = stickyTop();
  for (const [index, el] of blocks.entries()) {
    const r = el.getBoundingClientRect();
    if (r.bottom > top) return { index, fraction: r.height ? Math.max(0, (top - r.top) / r.height) : 0, scrollY: window.scrollY };
  }
  return null;
}

/** The height of what stays pinned at the window's top (the header, a pinned panel), whose text is not being read. */
function stickyTop() {
  let top = 0;
  for (const el of document.querySelectorAll('body > header, .site-header')) {
    const style = getComputedStyle(el);
    if (style.position === 'sticky' || style.position === 'fixed') top = Math.max(top, el.getBoundingClientRect().bottom);
  }
  return top;
}

/** Scrolls the rebuilt page so that the reading position's block is where it was (again once late drawing settles). */
export function keepReadingPosition(anchor) {
  const place = () => {
    const blocks = [...document.querySelectorAll('article.lesson > h1.lesson-title, article.lesson > section, article.lesson > details, article.lesson > nav')];
    const el = blocks[anchor.index];
    if (!el) return;
    const r = el.getBoundingClientRect();
    window.scrollTo({ top: window.scrollY + r.top - stickyTop() + anchor.fraction * r.height, behavior: 'instant' });
  };
  place();
  // charts measure their width and sections render once in view: place again after those
  requestAnimationFrame(() => requestAnimationFrame(place));
}

// A jump within the lesson (a glossary link) is a history entry: the entry left
// behind records where the reader was, and Back returns there (lib/learn.js
// sends 'sinpe:jump' before it scrolls).
export function trackJumps(flushHash) {
  document.addEventListener('sinpe:jump', (e) => {
    flushHash();
    // the link's place in the window: sections drawn meanwhile may move it within the page
    const top = e.target instanceof Element ? e.target.getBoundingClientRect().top : 0;
    history.replaceState({ returnTo: window.scrollY, from: e.detail?.from ?? null, top }, '', location.href);
    history.pushState({ jump: e.detail?.to ?? null }, '', location.href);
  });
}

/** Back to a place in the lesson a jump left: its scroll position, and focus on the link followed. */
export function returnFromJump(saved) {
  const link = saved.from ? document.querySelector(`article.lesson [data-jump-id="${CSS.escape(saved.from)}"]`) : null;
  // the link where it was in the window (else the scroll position left)
  const place = () => (link ? window.scrollBy({ top: link.getBoundingClientRect().top - saved.top, behavior: 'instant' }) : window.scrollTo({ top: saved.returnTo, behavior: 'instant' }));
  place();
  requestAnimationFrame(() => requestAnimationFrame(place));
  link?.focus({ preventScroll: true });
}

