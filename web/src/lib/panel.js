// The fold of a lesson's controls panels. On a phone each panel is pinned to
// the top of the screen while its figure scrolls under it, so it would cover
// the text the learner reads; its toggle folds it to one button. Open or
// folded is the lesson's state (field `panel`), so it is kept per lesson,
// across Previous / Next and a language switch, and in the URL. On a wide
// screen the panel is not pinned and the toggle is not shown.
import { h } from './dom.js';

let uid = 0;

/** Puts a toggle at the head of every controls panel in `container`; returns { update(state) }. */
export function attachPanelToggles(container, app) {
  const toggles = new Map(); // panel → its button
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
      for (const panel of container.querySelectorAll('.lesson-controls')) if (!toggles.has(panel)) add(panel);
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
