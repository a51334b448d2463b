// Small DOM helpers. Text always goes in as text nodes (never innerHTML), and
// maths is typeset by KaTeX into DOM nodes (katex.render), which the strict
// Content-Security-Policy allows.
import katex from 'katex';
import { watchFormula, unwatchFormulas, refitLater, narrowAsIn } from './math-fit.js';
// labels with subscripts (λ_i): lib/subscript.js
export { setSvgLabel, htmlLabel } from './subscript.js';
import { texIn } from './maths/words.js';

/** h('div', { class: 'x', onclick: f }, child, 'text', …) */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2), value);
      unseen.add(el);
    } else if (key === 'class') el.className = value;
    else if (key === 'text') el.textContent = value;
    else if (key in el && typeof value !== 'string') {
      el[key] = value;
      unseen.add(el);
    } else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

// Elements h() gave a listener or a property, which their attributes do not show:
// show() never keeps an older element in the place of one of them.
const unseen = new WeakSet();

/** Sets an attribute only when its text changes (each write restyles the element). */
export function setAttr(el, name, value) {
  const v = String(value);
  if (el.getAttribute(name) !== v) el.setAttribute(name, v);
}

export function svgEl(tag, attrs = {}) {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

// Typeset formulas by source: lessons typeset the same texts on every redraw,
// and a copy of KaTeX's output costs far less than typesetting again.
const typeset = new Map();

function typesetCopy(source, display) {
  const key = `${display ? 'D' : 'I'}${source}`;
  let template = typeset.get(key);
  if (!template) {
    template = document.createElement(display ? 'div' : 'span');
    template.className = display ? 'math-display' : 'math-inline';
    katex.render(source, template, { displayMode: display, throwOnError: false, output: 'htmlAndMathml' });
    if (typeset.size > 2000) typeset.clear();
    typeset.set(key, template);
  }
  return template.cloneNode(true);
}

/**
 * Typesets TeX into a new span (display = block). A display formula fits its
 * box (lib/math-fit.js): `narrow`, the same formula on more lines, is shown
 * where the formula as written is too wide.
 */
export function tex(source, display = false, narrow = null) {
  const el = typesetCopy(source, display);
  if (!display) return el;
  el.firstElementChild?.setAttribute('data-variant', 'wide');
  // the narrow form is typeset when a box first needs it (most boxes never do)
  const later =
    narrow && narrow !== source
      ? () => {
          const other = typesetCopy(narrow, true).firstElementChild;
          other?.setAttribute('data-variant', 'narrow');
          other?.setAttribute('data-hidden', '');
          return other;
        }
      : null;
  watchFormula(el, later);
  return el;
}

/** A displayed formula of lib/maths ({ tex, narrow? }) with its \text{…} in the reader's words. */
export function formula(f, words = null) {
  return tex(texIn(f, words), true, texIn(f, words, 'narrow'));
}

/**
 * A paragraph of lesson text with a tiny markup: $tex$ for maths, `code`,
 * **strong**. The strings come from the i18n files, never from the URL.
 */
export function rich(text, tag = 'p') {
  const el = document.createElement(tag);
  const parts = String(text).split(/(\$[^$]+\$|`[^`]+`|\*\*[^*]+\*\*)/);
  for (const part of parts) {
    if (part === '') continue;
    if (part.startsWith('$') && part.endsWith('$') && part.length > 1) el.append(tex(part.slice(1, -1)));
    else if (part.startsWith('`') && part.endsWith('`') && part.length > 1) el.append(h('code', {}, part.slice(1, -1)));
    else if (part.startsWith('**') && part.endsWith('**')) el.append(h('strong', {}, part.slice(2, -2)));
    else el.append(document.createTextNode(part));
  }
  return el;
}

/** Several paragraphs (an array of strings or one string). */
export function paragraphs(texts) {
  return (Array.isArray(texts) ? texts : [texts]).map((t) => rich(t));
}

/** Number formatting for readouts: fixed digits, with a true minus sign. */
export function fmt(v, digits = 4) {
  if (v === undefined || v === null || Number.isNaN(v)) return '—';
  if (v !== 0 && (Math.abs(v) < 10 ** -digits || Math.abs(v) >= 1e7)) return v.toExponential(Math.max(1, digits - 1)).replace(/-/g, '−');
  return v.toFixed(digits).replace('-', '−');
}

/** Formats with a TeX-friendly minus. */
export function fmtTex(v, digits = 4) {
  if (v !== 0 && (Math.abs(v) < 10 ** -digits || Math.abs(v) >= 1e7)) {
    const [m, e] = v.toExponential(Math.max(1, digits - 1)).split('e');
    return `${m}\\times10^{${Number(e)}}`;
  }
  return v.toFixed(digits);
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

// What each box filled by show() shows, by the key it was filled for.
const shownKeys = new WeakMap();

/**
 * Fills `box` with build()'s node or nodes, unless it already shows what `key`
 * names (a string that determines them: the text, or the TeX source). A step
 * that leaves a text or formula as it was leaves its nodes alone: no
 * typesetting, no glossary linking, no style or layout of them again.
 * A box filled this way is filled only this way.
 */
export function show(box, key, build) {
  if (shownKeys.get(box) === key) return box;
  const filled = shownKeys.has(box);
  shownKeys.set(box, key);
  const nodes = [build()].flat().map((n) => (n instanceof Node ? n : document.createTextNode(String(n))));
  // A new state that changes a few texts or parts (a formula's or a table's
  // numbers) changes only those in the page: fewer new elements to style and lay out.
  const old = box.childNodes;
  if (filled && old.length === nodes.length && nodes.every((n, i) => sameRoot(old[i], n))) {
    nodes.forEach((n, i) => {
      morphChildren(old[i], n);
      unwatchFormulas(n);
      refitLater(old[i]);
    });
  } else clear(box).append(...nodes);
  return box;
}

/** Whether `a` can stay in the place of `b`: both texts, or elements alike but for their content (name, attributes). */
function alike(a, b) {
  const type = a.nodeType;
  if (type !== b.nodeType) return false;
  if (type === Node.TEXT_NODE) return true;
  if (type !== Node.ELEMENT_NODE || a.nodeName !== b.nodeName || a.namespaceURI !== b.namespaceURI || unseen.has(a) || unseen.has(b)) return false;
  const attributes = b.attributes;
  const n = attributes.length;
  if (a.attributes.length !== n) return false;
  for (let i = 0; i < n; i++) {
    const { name, value } = attributes[i];
    if (a.getAttribute(name) !== value) return false;
  }
  return true;
}

// a formula shown in its narrow form (lib/math-fit.js) is typeset anew: its form is chosen again
const sameRoot = (a, b) => alike(a, b) && !a.querySelector?.(':scope > [data-variant="narrow"]:not([data-hidden])');

/**
 * Makes the content of `a` that of `b` (a node alike() to it), keeping a's
 * nodes where b's are alike: texts are copied; a node that is not alike, or a
 * list of children of another length, is replaced by b's.
 */
function morphChildren(a, b) {
  if (a.nodeType === Node.TEXT_NODE) {
    if (a.data !== b.data) a.data = b.data;
    return;
  }
  if (a.classList.contains('math-display')) narrowAsIn(a, b);
  if (a.childNodes.length !== b.childNodes.length) {
    a.replaceChildren(...b.childNodes);
    return;
  }
  // (siblings by nextSibling, taken before a child moves: no arrays, no closures)
  let c = a.firstChild;
  let d = b.firstChild;
  while (c !== null) {
    const nextC = c.nextSibling;
    const nextD = d.nextSibling;
    if (alike(c, d)) morphChildren(c, d);
    else a.replaceChild(d, c);
    c = nextC;
    d = nextD;
  }
}

/** show() of paragraphs of lesson text (an array of strings or one string). */
export function showParagraphs(box, texts) {
  return show(box, JSON.stringify(texts), () => paragraphs(texts));
}
