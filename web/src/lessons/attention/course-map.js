// The course map at the site's start: every lesson of the course, in the
// registry's order (app.lessons), as a link with one line on what the
// learner can do after it (courseMap.outcomes.<id> in the strings).
import { h } from '../../lib/dom.js';

export function createCourseMap(app) {
  const { t } = app;
  const list = h('ol', { class: 'course-map-list' });
  for (const id of app.lessons) {
    const params = new URLSearchParams({ lesson: id, lang: app.state.lang });
    list.append(
      h(
        'li',
        { 'data-lesson': id },
        h(
          'a',
          {
            href: `#${params}`,
            'aria-current': id === app.state.lesson ? 'page' : null,
            onclick: (e) => {
              e.preventDefault();
              app.setState({ lesson: id });
            },
          },
          t(`lessons.${id}.nav`),
        ),
        h('span', { class: 'course-map-outcome' }, t(`courseMap.outcomes.${id}`)),
      ),
    );
  }
  return h('nav', { class: 'course-map', 'aria-label': t('courseMap.title') }, h('h2', {}, t('courseMap.title')), h('p', {}, t('courseMap.intro')), list);
}
