// The fold of a lesson's controls panels. On a phone a panel whose open height
// fits in the share of the screen a pinned panel may take (--pinned-share in
// style.css, 30 %) is pinned to the top of the screen while its figure scrolls
// under it; a taller one is marked panel-tall and stays in the page above its
// figure, every control in sight (measured on every change of its size or of
// the screen's, never from a list of lessons: a language, a width, a lesson's
// added controls change it). No panel scrolls inside. Its toggle folds it to
// one button, pinned at the right, so it covers none of the text the learner
// reads; opening a tall panel from there brings it into view. Open or
// folded is the lesson's state (field `panel`), so it is kept per lesson,
// across Previous / Next and a language switch, and in the URL. On a wide
// screen the panel is not pinned and the toggle is not shown.
//
// A section's own panel is pinned inside the lesson's, which is pinned for the
// whole lesson: while the inner one is at the top of the screen the outer one
// lets go (class panel-behind: back in its place in the lesson), so the two
// never sit on each other.
import { h } from './dom.js';

let uid = 0;

/** The share of the screen's height a pinned panel may take: --pinned-share in style.css (0.3). */
export function pinnedShare() {
  const share = Number(getComputedStyle(document.documentElement).getPropertyValue('--pinned-share'));
  return share > 0 && share < 1 ? share : 0.3;
}

/** Puts a toggle at the head of every controls panel in `container`; returns { update(state) }. */
export function attachPanelToggles(container, app) {
  const toggles = new Map(); // panel → its button
  const outers = new Map(); // panel → the panels pinned around it (whose parent holds it)
  const atTop = new Set(); // inner panels now in the top share of the screen
  const share = pinnedShare();
  let opening = null; // the panel whose toggle was just pressed to open it
  // the top share of the screen, the most a pinned panel takes: an inner panel there is
  // pinned or about to be, and the outer one lets go before the inner one slides under it
  const pinned = new IntersectionObserver(
    (entries) => {
      for (const { target, isIntersecting } of entries) atTop[isIntersecting ? 'add' : 'delete'](target);
      const behind = new Set([...atTop].flatMap((p) => outers.get(p) ?? []));
      for (const panel of toggles.keys()) if (panel.classList.contains('panel-behind') !== behind.has(panel)) panel.classList.toggle('panel-behind', behind.has(panel));
    },
    { rootMargin: `0px 0px -${Math.round((1 - share) * 100)}% 0px` },
  );
  // an open panel taller than the share is not pinned (panel-tall); folded, it keeps its last mark.
  // Pinned or not, its height is the same: marking it does not change what is measured.
  function measure(panel) {
    if (panel.classList.contains('folded') || panel.getClientRects().length === 0) return;
    const tall = panel.getBoundingClientRect().height > share * window.innerHeight;
    if (panel.classList.contains('panel-tall') !== tall) panel.classList.toggle('panel-tall', tall);
    if (panel === opening) {
      opening = null;
      // opened from its pinned toggle, a tall panel goes back to its place in the page: bring it into view
      const top = panel.getBoundingClientRect().top - (document.querySelector('.site-header')?.getBoundingClientRect().bottom ?? 0);
      if (tall && (top < 0 || top > window.innerHeight / 2)) window.scrollBy(0, top - 8);
    }
  }
  const sizes = new ResizeObserver((entries) => entries.forEach(({ target }) => measure(target)));
  // the screen's height changes the share: measure again (a lesson replaced since stops listening)
  const onResize = () => {
    if (container.isConnected) return void toggles.forEach((_, panel) => measure(panel));
    window.removeEventListener('resize', onResize);
    sizes.disconnect();
    pinned.disconnect();
  };
  window.addEventListener('resize', onResize);
  function add(panel) {
    if (!panel.id) panel.id = `lesson-controls-${++uid}`;
    const button = h('button', {
      type: 'button',
      class: 'button panel-toggle',
      'aria-controls': panel.id,
      onclick: () => {
        opening = app.state.panel === 'closed' ? panel : null;
        app.setState({ panel: app.state.panel === 'closed' ? 'open' : 'closed' });
      },
    });
    panel.prepend(button);
    toggles.set(panel, button);
    sizes.observe(panel);
  }
  return {
    update(state) {
      // panels a lesson adds after its first draw get theirs too
      const added = [...container.querySelectorAll('.lesson-controls')].filter((panel) => !toggles.has(panel));
      added.forEach(add);
      if (added.length > 0) {
        for (const panel of toggles.keys()) {
          const around = [...toggles.keys()].filter((o) => o !== panel && o.parentElement.contains(panel));
          if (around.length > 0 && !outers.has(panel)) pinned.observe(panel);
          outers.set(panel, around);
        }
      }
      const open = state.panel !== 'closed';
      const text = app.t(open ? 'site.panelHide' : 'site.panelShow');
      // written only when they change: a rewritten text is a new node to lay out on every render
      for (const [panel, button] of toggles) {
        if (panel.classList.contains('folded') === open) panel.classList.toggle('folded', !open);
        if (button.getAttribute('aria-expanded') !== String(open)) button.setAttribute('aria-expanded', String(open));
        if (button.textContent !== text) button.textContent = text;
      }
    },
  };
}
