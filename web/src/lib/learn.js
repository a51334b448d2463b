// What closes every lesson besides its questions: a three-point summary and
// the glossary, whose entries the first use of each term in the lesson links to.
import { h } from './dom.js';

/** The lesson's three points, from summary.<id> (en and zh tables). */
export function createSummary(app, id) {
  const points = app.t(`summary.${id}`);
  if (!Array.isArray(points)) return null;
  return h('section', { class: 'lesson-summary' }, h('h2', {}, app.t('summary.title')), h('ol', {}, points.map((p) => h('li', {}, p))));
}

/** The glossary: a closed <details> of every term (glossary.terms), each entry #glossary-<key>. */
export function createGlossary(app) {
  const terms = app.t('glossary.terms');
  return h(
    'details',
    { class: 'glossary', id: 'glossary' },
    h('summary', {}, app.t('glossary.title')),
    h('p', { class: 'note' }, app.t('glossary.intro')),
    h('dl', {}, Object.entries(terms).map(([key, [name, text]]) => [h('dt', { id: `glossary-${key}`, tabindex: -1 }, name), h('dd', {}, text)])),
  );
}

// Which glossary entry a piece of code text or a formula's TeX source names.
// div_term: the tutorials' name for the vector of frequencies
const CODE_TERMS = { d_model: 'd_model', max_len: 'max_len', base: 'base', rope_theta: 'base', div_term: 'omega' };
const TEX_TERMS = [
  [/^d(_\{?\\?(text\{)?model\}?\}?)?$/, 'd_model'],
  [/^\\text\{base\}$/, 'base'],
  [/^\\omega(_\{?\w+\}?)?$/, 'omega'],
  [/^\\lambda(_\{?\w+\}?)?$/, 'lambda'],
  [/^(p|pos|\\text\{pos\})$/, 'p'],
  [/^2?[ij]$/, 'i'],
  [/^r$/, 'r'],
  [/^m$/, 'offset'],
  [/^q$/, 'qk'],
  [/^[sL]$/, 's'],
];
function termOf(el, lesson) {
  if (el.tagName === 'CODE') return CODE_TERMS[el.textContent.trim()];
  const source = el.querySelector('annotation')?.textContent.trim() ?? '';
  // k is the offset in lessons 0 and 6, the key vector in lesson 9
  if (source === 'k') return lesson === 'rope' ? 'qk' : 'offset';
  // a term alone, or a formula defining it ("\\omega_i = …")
  const lhs = source.split('=')[0].trim();
  return TEX_TERMS.find(([re]) => re.test(source) || re.test(lhs))?.[1];
}

/**
 * Wraps the first use of each glossary term in `container` (inline code and
 * inline formulas of the lesson's text) in a link that opens the glossary at
 * its entry. The link's click is handled here: the page's hash is its state.
 */
export function linkTerms(container, glossary, lesson) {
  const seen = new Set();
  for (const el of container.querySelectorAll('code, .math-inline')) {
    if (el.closest('a, pre, button, label, table, .lesson-controls, .quiz, .glossary')) continue;
    const term = termOf(el, lesson);
    if (!term || seen.has(term)) continue;
    seen.add(term);
    const link = h('a', { class: 'term-link', href: `#glossary-${term}`, 'data-term': term });
    el.replaceWith(link);
    link.append(el);
    link.addEventListener('click', (e) => {
      e.preventDefault();
      glossary.open = true;
      const entry = glossary.querySelector(`#glossary-${term}`);
      entry.scrollIntoView({ block: 'center' });
      entry.focus({ preventScroll: true });
    });
  }
  return seen;
}
