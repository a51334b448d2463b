// What closes every lesson besides its questions: a three-point summary and
// the glossary, whose entries every use of a term in the lesson links to.
import { h, rich } from './dom.js';

/** The lesson's three points, from summary.<id> (en and zh tables). */
export function createSummary(app, id) {
  const points = app.t(`summary.${id}`);
  if (!Array.isArray(points)) return null;
  return h('section', { class: 'lesson-summary' }, h('h2', {}, app.t('summary.title')), h('ol', {}, points.map((p) => rich(p, 'li'))));
}

/** The glossary: a closed <details> of every term (glossary.terms), each entry #glossary-<key>. */
export function createGlossary(app) {
  const terms = app.t('glossary.terms');
  return h(
    'details',
    { class: 'glossary', id: 'glossary' },
    h('summary', {}, app.t('glossary.title')),
    h('p', { class: 'note' }, app.t('glossary.intro')),
    h('dl', {}, Object.entries(terms).map(([key, [name, text]]) => [Object.assign(rich(name, 'dt'), { id: `glossary-${key}`, tabIndex: -1 }), rich(text, 'dd')])),
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
  [/^[qk]$/, 'qk'],
  [/^[sL]$/, 's'],
];
function termOf(el) {
  if (el.tagName === 'CODE') return CODE_TERMS[el.textContent.trim()];
  const source = el.querySelector('annotation')?.textContent.trim() ?? '';
  // a term alone, or a formula defining it ("\\omega_i = …")
  const lhs = source.split('=')[0].trim();
  return TEX_TERMS.find(([re]) => re.test(source) || re.test(lhs))?.[1];
}

// Where a use of a term is not linked: inside other interactive, tabular or figure
// parts of the page, the readouts (rewritten at every cursor move), the clock's
// dials, the questions (rewritten as they are answered) and the glossary itself.
const NOT_LINKED = 'a, pre, button, label, select, textarea, output, table, svg, figure, h1, h2, h3, .lesson-controls, .quiz, .glossary, .dials';

/** A pattern of the glossary's prose words (glossary.words: term → 'word|word'), longest first, and the term of each. */
function proseWords(words) {
  const byWord = new Map();
  for (const [term, list] of Object.entries(words ?? {})) for (const w of String(list).split('|').filter(Boolean)) byWord.set(w.toLowerCase(), term);
  if (!byWord.size) return null;
  const escaped = [...byWord.keys()].sort((a, b) => b.length - a.length).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  // not inside a longer identifier or English word (database, d_model_x); Han text has no such boundary
  return { pattern: new RegExp(`(?<![A-Za-z0-9_])(?:${escaped.join('|')})(?![A-Za-z0-9_])`, 'gi'), byWord };
}

let jumpIds = 0;
function termLink(term, glossary, content) {
  // out of the tab order (a lesson's text links dozens of terms, which crowded its controls
  // out of reach); the glossary itself stays one tab stop away, at the lesson's end
  const link = h('a', { class: 'term-link', href: `#glossary-${term}`, 'data-term': term, 'data-jump-id': `term-${++jumpIds}`, tabindex: -1 });
  link.append(content);
  // the page's hash is its state: the click opens the glossary here instead of navigating;
  // the site makes the jump a history entry (Back returns to the link)
  link.addEventListener('click', (e) => {
    e.preventDefault();
    link.dispatchEvent(new CustomEvent('sinpe:jump', { bubbles: true, detail: { from: link.dataset.jumpId, to: `glossary-${term}` } }));
    glossary.open = true;
    const entry = glossary.querySelector(`#glossary-${term}`);
    entry.scrollIntoView({ block: 'center' });
    entry.focus({ preventScroll: true });
  });
  return link;
}

// the prose pattern of a glossary.words table, made once per table
const proseOf = new WeakMap();

/**
 * Links every use of a glossary term in the lesson's text to its entry: inline
 * code and inline formulas that name a term, and the term's prose words in
 * the page's language (glossary.words, e.g. "wavelength" / "波长") in the
 * lesson's paragraphs and lists. Uses already linked are left alone, so it
 * runs after every draw (a draw may rewrite text); `roots` (default: the
 * whole container) limits it to the parts a draw changed (see termLinker).
 * Returns the terms linked.
 */
export function linkTerms(container, glossary, words, roots = [container]) {
  const seen = new Set();
  // each root and what is inside it, no element twice
  const within = (selector) => {
    const found = new Set();
    for (const root of roots) {
      if (root.matches(selector)) found.add(root);
      for (const el of root.querySelectorAll(selector)) found.add(el);
    }
    return found;
  };
  for (const el of within('code, .math-inline')) {
    if (!container.contains(el) || el.closest(NOT_LINKED)) continue;
    const term = termOf(el);
    if (!term) continue;
    seen.add(term);
    const link = termLink(term, glossary, []);
    el.replaceWith(link);
    link.append(el);
  }
  if (words && typeof words === 'object' && !proseOf.has(words)) proseOf.set(words, proseWords(words));
  const prose = words && typeof words === 'object' ? proseOf.get(words) : null;
  if (!prose) return seen;
  const texts = [];
  for (const block of within('p, li')) {
    if (!container.contains(block) || block.closest(NOT_LINKED)) continue;
    const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.parentElement.closest(`${NOT_LINKED}, code, .katex, .math-inline`)) texts.push(node);
    }
  }
  for (const node of new Set(texts)) {
    const text = node.nodeValue;
    const parts = [];
    let last = 0;
    for (const m of text.matchAll(prose.pattern)) {
      const term = prose.byWord.get(m[0].toLowerCase());
      parts.push(text.slice(last, m.index), termLink(term, glossary, m[0]));
      seen.add(term);
      last = m.index + m[0].length;
    }
    if (!parts.length) continue;
    parts.push(text.slice(last));
    node.replaceWith(...parts.filter((x) => x !== ''));
  }
  return seen;
}

/**
 * linkTerms for a lesson's page after each of its draws, on the parts the
 * draws changed only: a MutationObserver notes where nodes were added since
 * the last pass, and link() scans those (the first pass, the whole page).
 * Scanning the whole page after every slider step cost a few ms a step.
 */
export function termLinker(container, glossary) {
  const changed = new Set();
  let first = true;
  const observer = new MutationObserver((records) => note(records));
  function note(records) {
    for (const r of records) {
      if (!r.addedNodes.length) continue;
      const target = r.target.nodeType === Node.ELEMENT_NODE ? r.target : r.target.parentElement;
      // nothing inside a figure, table, readout or control is ever linked: a step's new ticks,
      // dial marks and readout texts are not scanned
      if (!target || target.closest(NOT_LINKED)) continue;
      // a text rewritten inside a paragraph: the whole paragraph is scanned
      changed.add(target.closest('p, li') ?? target);
    }
  }
  observer.observe(container, { childList: true, subtree: true });
  return {
    link(words) {
      note(observer.takeRecords());
      const roots = first ? [container] : [...changed].filter((el) => el.isConnected);
      first = false;
      changed.clear();
      if (roots.length) linkTerms(container, glossary, words, roots);
      // the links just made are not changes to scan again
      observer.takeRecords();
    },
    disconnect: () => observer.disconnect(),
  };
}
