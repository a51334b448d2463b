// Previous / Next at the foot of a lesson, in the order of the lesson
// registry. Links to the neighbouring lesson's hash (in the current language)
// that, clicked, change lessons like the lesson menu: a history entry, and the
// settings left in that lesson come back; they open in a new tab too.
import { h } from './dom.js';

/** createPager(app, ids, current) → <nav> with up to two links. */
export function createPager(app, ids, current) {
  const { t } = app;
  const index = ids.indexOf(current);
  const nav = h('nav', { class: 'lesson-pager', 'aria-label': t('pager.label') });
  const link = (id, rel) => {
    const params = new URLSearchParams({ lesson: id, lang: app.state.lang });
    return h(
      'a',
      {
        href: `#${params}`,
        rel,
        class: `pager-link pager-${rel}`,
        'data-lesson': id,
        // through the site's state, which brings back the settings left in that lesson
        // (a new tab or window opens the link's defaults)
        onclick: (e) => {
          if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
          e.preventDefault();
          app.setState({ lesson: id });
        },
      },
      h('span', { class: 'pager-direction' }, t(`pager.${rel}`)),
      h('span', { class: 'pager-title' }, t(`lessons.${id}.nav`)),
    );
  };
  if (index > 0) nav.append(link(ids[index - 1], 'prev'));
  if (index >= 0 && index < ids.length - 1) nav.append(link(ids[index + 1], 'next'));
  return nav;
}
