// Small DOM helpers. Text always goes in as text nodes (never innerHTML), and
// maths is typeset by KaTeX into DOM nodes (katex.render), which the strict
// Content-Security-Policy allows.
import katex from 'katex';
import { watchFormula } from './math-fit.js';
import { texIn } from './maths/words.js';

/** h('div', { class: 'x', onclick: f }, child, 'text', …) */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (key === 'class') el.className = value;
    else if (key === 'text') el.textContent = value;
    else if (key in el && typeof value !== 'string') el[key] = value;
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
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
  if (narrow && narrow !== source) {
    const other = typesetCopy(narrow, true).firstElementChild;
    other?.setAttribute('data-variant', 'narrow');
    other?.setAttribute('data-hidden', '');
    if (other) el.append(other);
  }
  watchFormula(el);
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
  shownKeys.set(box, key);
  clear(box).append(...[build()].flat());
  return box;
}

/** show() of paragraphs of lesson text (an array of strings or one string). */
export function showParagraphs(box, texts) {
  return show(box, JSON.stringify(texts), () => paragraphs(texts));
}
