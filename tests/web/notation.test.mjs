// One meaning per letter across the course: every letter a lesson's
// formulas use (its $…$ TeX in both languages, with its questions and
// summary, and the displayed formulas its folder imports from lib/maths) is
// in that lesson's notation list, drawn from the one course-wide table; and
// the mixed uses the lessons had are gone (k for a distance, θ for a
// frequency, q for a position, i and j for tokens).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import en from '../../web/src/i18n/en.js';
import zh from '../../web/src/i18n/zh.js';
import { SYMBOLS, notationOf } from '../../web/src/model/notation.js';
import { LESSONS as REGISTRY, LESSON_IDS } from '../../web/src/lessons/index.js';

// every lesson of the registry, and the letters each lists (its entry's `letters`)
const LESSONS = LESSON_IDS;
const LESSON_SYMBOLS = Object.fromEntries(REGISTRY.map((l) => [l.id, l.letters]));
// strings kept outside lessons.<id> that a lesson shows: the waves lesson's clock picture
const SHOWN = { waves: ['clock'] };

const flat = (v) => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.flatMap(flat) : v && typeof v === 'object' ? Object.values(v).flatMap(flat) : []);

/** Every string of a lesson: its text, questions and summary. */
function lessonStrings(table, id) {
  return [...flat(table.lessons[id]), ...flat(table.questions[id]), ...flat(table.summary[id]), ...(SHOWN[id] ?? []).flatMap((key) => flat(table[key]))];
}

const GREEK = { omega: 'ω', lambda: 'λ', theta: 'θ', alpha: 'α', beta: 'β', ell: 'ℓ', varphi: 'φ', phi: 'φ', psi: 'ψ', gamma: 'γ', Delta: 'Δ', tau: 'τ', eta: 'η', upsilon: 'υ', mu: 'μ', kappa: 'κ' };
const OPERATORS = /\\(sin|cos|tan|log|ln|exp|max|min|sum|prod|frac|cdot|dots|ldots|approx|lfloor|rfloor|left|right|big|Big|quad|qquad|times|langle|rangle|in|mathbb|sqrt|le|leq|ge|geq|to|mapsto|infty|mid|pi|equiv|neq|pm|not|begin|end|[,;!: ])/g;

/** The letters of a TeX formula: subscripts are labels or indices, named apart; \text{…} is words. */
export function lettersOf(source) {
  let s = source.replace(/\\(text|mathrm|operatorname|texttt|textbf)\{[^}]*\}/g, ' ');
  s = s.replace(/\^\{[^}]*\}|\^./g, (m) => ` ${m.slice(1)} `); // exponents hold letters too
  s = s.replace(/_\{[^}]*\}|_./g, (m) => ` ${m.slice(1).replace(/[{}]/g, '')} `);
  s = s.replace(OPERATORS, ' ');
  s = s.replace(/\\([A-Za-z]+)/g, (m, name) => (GREEK[name] ? ` ${GREEK[name]} ` : ' '));
  const out = new Set();
  for (const m of s.matchAll(/PE|pos|(?<![A-Za-z])[A-Za-zα-ωΔℓ](?:')?(?![A-Za-z])/g)) out.add(m[0]);
  return out;
}

// the displayed formulas' modules (lib/maths), by file name
const mathsDir = new URL('../../web/src/lib/maths/', import.meta.url);
const MATHS = Object.fromEntries(await Promise.all(readdirSync(mathsDir).map(async (f) => [f, await import(new URL(f, mathsDir))])));

/** The TeX of every displayed formula a lesson shows: the constants its folder's files import from lib/maths (tex and narrow forms). */
function lessonFormulas(id) {
  const dir = new URL(`../../web/src/lessons/${id}/`, import.meta.url);
  const out = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.js'))) {
    const source = readFileSync(new URL(file, dir), 'utf8');
    for (const [, names, from] of source.matchAll(/import\s*\{([^}]*)\}\s*from\s*'\.\.\/\.\.\/lib\/maths\/([\w.-]+)'/g)) {
      for (const name of names.split(',').map((n) => n.trim().split(/\s+as\s+/)[0]).filter(Boolean)) {
        const value = MATHS[from]?.[name];
        if (typeof value !== 'object' || value === null) continue; // a function (an evaluator's helper), not a formula
        // one formula { tex, narrow? } or a table of them (SCALING_FORMULAS)
        for (const f of 'tex' in value ? [value] : Object.values(value)) {
          assert.equal(typeof f.tex, 'string', `${id}/${file}: ${name} is a formula`);
          out.push(f.tex, ...(f.narrow ? [f.narrow] : []));
        }
      }
    }
  }
  return out;
}

/** letter → [where] for a lesson in one language (its displayed formulas are the same in both). */
function lessonLetters(table, id) {
  const where = new Map();
  const inline = lessonStrings(table, id).flatMap((text) => [...text.replace(/`[^`]*`/g, '').matchAll(/\$([^$]+)\$/g)].map((m) => m[1]));
  for (const tex of [...inline, ...lessonFormulas(id)]) {
    for (const l of lettersOf(tex)) where.set(l, [...(where.get(l) ?? []), tex]);
  }
  return where;
}

test('the displayed formulas are found: every lib/maths formula is shown by some lesson', () => {
  const shown = new Set(LESSONS.flatMap(lessonFormulas));
  const all = Object.values(MATHS).flatMap((m) => Object.values(m.FORMULAS ?? {})).flatMap((f) => [f.tex, ...(f.narrow ? [f.narrow] : [])]);
  assert.ok(all.length >= 15, `${all.length} formulas in lib/maths`);
  for (const tex of all) assert.ok(shown.has(tex), `shown by no lesson: ${tex.slice(0, 60)}`);
});

test('every lesson has its notation list, drawn from the course-wide table in both languages', () => {
  assert.ok(LESSONS.length >= 10, `${LESSONS.length} lessons`);
  for (const id of LESSONS) assert.ok(Array.isArray(LESSON_SYMBOLS[id]) && LESSON_SYMBOLS[id].length >= 2, `${id}: its registry entry lists its letters`);
  for (const [id, symbols] of Object.entries(LESSON_SYMBOLS)) {
    for (const s of symbols) assert.ok(SYMBOLS[s], `${id}: ${s} is in the course table`);
    assert.equal(new Set(symbols).size, symbols.length, `${id}: each symbol once`);
    for (const lang of ['en', 'zh']) {
      const rows = notationOf(symbols, lang);
      assert.equal(rows.length, symbols.length);
      for (const r of rows) assert.ok(r.meaning.length >= 4 && /[\u4e00-\u9fff]/.test(r.meaning) === (lang === 'zh'), `${id} ${lang} ${r.symbol}: ${r.meaning}`);
    }
  }
});

for (const [lang, table] of [
  ['en', en],
  ['zh', zh],
]) {
  test(`${lang}: every letter of every lesson's formulas is in that lesson's notation, with the course's one meaning`, () => {
    const problems = [];
    for (const id of LESSONS) {
      const letters = lessonLetters(table, id);
      assert.ok(letters.size >= 2, `${id}: formulas found (${[...letters.keys()]})`);
      for (const [l, where] of letters) if (!LESSON_SYMBOLS[id].includes(l)) problems.push(`${id}: ${l} (in $${where[0]}$) is not in its notation`);
    }
    assert.deepEqual(problems, []);
  });

  test(`${lang}: a distance is m, k only the key vector; θ an angle; q the query; i, j pairs`, () => {
    for (const id of LESSONS) {
      const text = lessonStrings(table, id).join('\n').replace(/`[^`]*`/g, '');
      const where = `${lang} ${id}`;
      // a distance written k: p + k, offset/distance k, k = 0 … (the placeholder {k} is a value, not a letter)
      assert.doesNotMatch(text, /\b(p|pos)\s*\+\s*k\b|(offset|distance|偏移|距离)\s*\$?k\b|(?<![{\w])k = [0-9{]|M_k|\\omega_i k\b|cos\(k·/, `${where}: k for a distance`);
      // θ with a frequency's index alone (θ_i) is a frequency
      assert.doesNotMatch(text, /\\theta_[ij]\b|θ_[ij]\b/, `${where}: θ for a frequency`);
      // q as a position: PE(q), q − p
      assert.doesNotMatch(text, /PE\(q\)|\bq\s*[-−]\s*p\b/, `${where}: q for a position`);
      // tokens numbered i, j (q_i, k_j, x_i, a_{ij})
      assert.doesNotMatch(text, /[qkvx]_[ij]\b|a_\{ij\}/, `${where}: i, j for tokens`);
      // the multimodal sections' letters that meant something else elsewhere: h, w, t, m for an image's
      // size and merge (h is YaRN's, m the offset), s for a start or a section (s is the factor), y, x
      // for a patch (x is a vector), v, x, m, e in the ulp formula, c for YaRN's pair (c is a column)
      const shown = [text, ...lessonFormulas(id)].join('\n');
      assert.doesNotMatch(shown, /\\lfloor [hw]\/m|\$[hw] \\times [hw]\$|m \\times m|\bs\s*\+\s*\\(tau|max)|\bs_[thw]\b|y \\cdot w|\(y, x\)|\bm = (10|7)\b|\|v - x\||\bc\(\\beta/, `${where}: a multimodal or scaling letter with a second meaning`);
    }
    // the controls that set the distance say m
    assert.doesNotMatch(table.control.k, /\bk\b/);
    assert.doesNotMatch(table.control.span, /\bk\b/);
  });
}

test('the attention lesson defines R(p) and ω_i in the paragraph that first uses them', () => {
  for (const table of [en, zh]) {
    const pos = table.lessons.attention.posText;
    const first = (re) => pos.findIndex((p) => re.test(p));
    const omega = first(/\\omega_i/);
    assert.match(pos[omega], /\\omega_i\$ (is the frequency|是第)/);
    const rotation = first(/R\(p\)/);
    assert.match(pos[rotation], /(Write|记) \$R\(p\)\$/);
  }
});
