// The fold of a lesson's controls panels. On a phone each panel is pinned to
// the top of the screen while its figure scrolls under it, so it would cover
// the text the learner reads; its toggle folds it to one button. Open or
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

/** Puts a toggle at the head of every controls panel in `container`; returns { update(state) }. */
export function attachPanelToggles(container, app) {
  const toggles = new Map(); // panel → its button
  const outers = new Map(); // panel → the panels pinned around it (whose parent holds it)
  const atTop = new Set(); // inner panels now in the top 30 % of the screen
  // the top 30 % of the screen, the most a pinned panel takes (style.css): an inner panel there is
  // pinned or about to be, and the outer one lets go before the inner one slides under it
  const pinned = new IntersectionObserver(
    (entries) => {
      for (const { target, isIntersecting } of entries) atTop[isIntersecting ? 'add' : 'delete'](target);
      const behind = new Set([...atTop].flatMap((p) => outers.get(p) ?? []));
      for (const panel of toggles.keys()) if (panel.classList.contains('panel-behind') !== behind.has(panel)) panel.classList.toggle('panel-behind', behind.has(panel));
    },
    { rootMargin: '0px 0px -70% 0px' },
  );
  function add(panel) {
    if (!panel.id) panel.id = `lesson-controls-${++uid}`;
    const button = h('button', {
      type: 'button',
      class: 'button panel-toggle',
      'aria-controls': panel.id,
      onclick: () => app.setState({ panel: app.state.panel === 'closed' ? 'open' : 'closed' }),
    });
    panel.prepend(button);
    toggles.set(panel, button);
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
