// A lesson's notation table: what each letter of its formulas means, from
// the course-wide table (model/notation.js), folded under the introduction.
import { h, rich } from './dom.js';
import { notationOf } from '../model/notation.js';

/** The <details> notation table of a lesson (its registry entry; null if it lists no letters). */
export function createNotation(app, lesson) {
  const rows = notationOf(lesson.letters, app.state.lang);
  if (!rows.length) return null;
  return h(
    'details',
    { class: 'notation' },
    h('summary', {}, app.t('notation.title')),
    h(
      'table',
      { class: 'data notation-table' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, app.t('notation.symbol')), h('th', { scope: 'col' }, app.t('notation.meaning')))),
      h(
        'tbody',
        {},
        rows.map((r) => h('tr', { 'data-symbol': r.symbol }, h('th', { scope: 'row' }, r.symbol.replace("'", '′')), rich(r.meaning, 'td'))),
      ),
    ),
  );
}
