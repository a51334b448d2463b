// The fit of the lessons' controls panels on a phone (used by panel-fit.test.mjs
// and panel.test.mjs): run in the page with every section laid out and every
// panel open, it places each panel at the top of the screen (under the header)
// and reports, per panel, what a learner would miss:
// - `scrolls`: the panel scrolls inside (scrollHeight > clientHeight + 1), hiding controls;
// - `tooTall`: it is pinned there (computed position sticky, and still at the
//   top after a further scroll) and taller than the share of the screen a
//   pinned panel may take (--pinned-share in style.css, read from the page);
// - `cut`: drawn controls (input, select, textarea, button) whose box is not
//   inside the panel's box, or the panel not inside the screen below the header.
// Returns { share, panels: [{ what, height, pinned, scrolls, tooTall, cut: [] }] }.
export async function panelFit() {
  const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  for (const s of document.querySelectorAll('.lesson-section')) s.style.contentVisibility = 'visible';
  await frame();
  const share = Number(getComputedStyle(document.documentElement).getPropertyValue('--pinned-share'));
  const header = document.querySelector('.site-header').getBoundingClientRect().height;
  const name = (el) => (el.labels?.[0]?.textContent ?? el.getAttribute('aria-label') ?? el.textContent ?? el.value ?? el.tagName).trim().slice(0, 30);
  const panels = [];
  for (const panel of document.querySelectorAll('article.lesson .lesson-controls')) {
    if (panel.getClientRects().length === 0) continue;
    const section = panel.closest('[data-section]')?.dataset.section ?? panel.closest('section')?.querySelector('h2')?.textContent.trim() ?? 'lesson';
    const first = [...panel.querySelectorAll('label, legend')].map((l) => l.textContent.trim()).find(Boolean) ?? '';
    const what = `${section.slice(0, 24)} (${first.slice(0, 24)})`;
    // the panel's top under the header, then a little further: a pinned panel stays there
    scrollTo(0, panel.getBoundingClientRect().top + scrollY - header);
    await frame();
    scrollBy(0, 40);
    await frame();
    const r = panel.getBoundingClientRect();
    const pinned = getComputedStyle(panel).position === 'sticky' && Math.abs(r.top - header) <= 1;
    // in view: a panel not pinned is placed back with its top under the header
    if (!pinned) {
      scrollBy(0, r.top - header);
      await frame();
    }
    const box = panel.getBoundingClientRect();
    const cut = [];
    if (box.top < header - 1 || box.bottom > innerHeight + 1) cut.push(`the panel (${Math.round(box.top)}–${Math.round(box.bottom)} px of ${innerHeight})`);
    for (const c of panel.querySelectorAll('input, select, textarea, button')) {
      const b = c.getBoundingClientRect();
      if (!c.checkVisibility()) continue; // not drawn at all (hidden by the lesson): not a control on offer
      const inside = b.width > 0 && b.height > 0 && b.top >= box.top - 1 && b.bottom <= box.bottom + 1 && b.left >= box.left - 1 && b.right <= box.right + 1;
      if (!inside) cut.push(`${c.tagName.toLowerCase()} "${name(c)}"`);
    }
    panels.push({
      what,
      height: Math.round(box.height),
      pinned,
      scrolls: panel.scrollHeight > panel.clientHeight + 1 ? `${panel.scrollHeight} px of content in ${panel.clientHeight}` : null,
      tooTall: pinned && box.height > share * innerHeight ? `${Math.round(box.height)} px pinned, ${Math.round((100 * box.height) / innerHeight)} % of ${innerHeight}` : null,
      cut,
    });
  }
  return { share, panels };
}
