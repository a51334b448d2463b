// Previous / Next at the foot of a lesson, in the order of the lesson
// registry. Plain links to the neighbouring lesson's hash (in the current
// language): following one adds a history entry and goes through the site's
// hash navigation like any other lesson link; they open in a new tab too.
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
      },
      h('span', { class: 'pager-direction' }, t(`pager.${rel}`)),
      h('span', { class: 'pager-title' }, t(`lessons.${id}.nav`)),
    );
  };
  if (index > 0) nav.append(link(ids[index - 1], 'prev'));
  if (index >= 0 && index < ids.length - 1) nav.append(link(ids[index + 1], 'next'));
  return nav;
}
