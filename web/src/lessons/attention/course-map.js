// The course map at the site's start: every lesson of the course, in the
// registry's order (the context's lessonIds), as a link with one line on what the
// learner can do after it (courseMap.outcomes.<id> in the strings).
import { h } from '../../lib/dom.js';

export function createCourseMap(ctx) {
  const { t } = ctx;
  const list = h('ol', { class: 'course-map-list' });
  for (const id of ctx.lessonIds) {
    const params = new URLSearchParams({ lesson: id, lang: ctx.state.lang });
    list.append(
      h(
        'li',
        { 'data-lesson': id },
        h(
          'a',
          {
            href: `#${params}`,
            'aria-current': id === ctx.state.lesson ? 'page' : null,
            onclick: (e) => {
              e.preventDefault();
              ctx.setState({ lesson: id });
            },
          },
          t(`lessons.${id}.nav`),
        ),
        h('span', { class: 'course-map-outcome' }, t(`courseMap.outcomes.${id}`)),
      ),
    );
  }
  return h('nav', { class: 'course-map', 'aria-label': t('courseMap.title') }, h('h2', {}, t('courseMap.title')), h('p', {}, t('courseMap.intro', { count: ctx.lessonIds.length })), list);
}
