// The core's limits (vocabulary.def's SINPE_LIMIT lines, in the package as
// `vocabulary.limits`, dist/sinpe-vocabulary.js) are written once: the JS
// layer, the CLI and the site read them from the vocabulary
// (`vocabulary.limits.maxAbsPosition`, web/src/model/fields.js's MAX_POSITION)
// instead of repeating them as literals, which would silently disagree the
// day a limit changes. This test looks for each limit's value written as a
// literal in the code of js/ and web/ — 16777216, 16_777_216, 16,777,216,
// 2 ** 24, Math.pow(2, 24), 1 << 24, 0x1000000 and the like, derived here
// from the vocabulary's values — outside comments.
//
// Values that also mean something else are searched only where they mean the
// limit: maxDModel (65536 = 2^16, also a position or the number of 16-bit
// patterns) on a line that names a width (dModel, headDim, rotaryDim,
// d_model); maxRopeAxes (4) is not searched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import vocabulary from '../../dist/sinpe-vocabulary.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SCANNED = ['js', 'web'];
const CODE = /\.(m?js|html)$/;

// Literals known to be there, each with why; an entry whose literal is gone fails, so the list cannot outlive them.
const ALLOWED = [];

const WIDTH_NAMES = /\b(dModel|headDim|rotaryDim|d_model|head_dim)\b/;
const ONLY_WHERE = { maxDModel: WIDTH_NAMES };
const NOT_SEARCHED = new Set(['maxRopeAxes']);

/** Every way code may write the integer v as a literal, as one RegExp. */
function literalsOf(v) {
  const digits = String(v);
  const grouped = (sep) => digits.replace(/\B(?=(\d{3})+$)/g, sep);
  const forms = [digits, grouped('_'), grouped(',')].map((f) => `(?<![\\w.])${f.replace(/,/g, ',')}(?:\\.0+)?(?!\\w|\\.\\d|,\\d)`);
  const k = Math.log2(v);
  if (Number.isInteger(k)) {
    forms.push(`\\b2\\s*\\*\\*\\s*${k}\\b`, `Math\\.pow\\(\\s*2\\s*,\\s*${k}\\s*\\)`, `\\b1\\s*<<\\s*${k}\\b`, `\\b0x0*${v.toString(16)}\\b`, `\\b2\\s*\\*\\*\\s*\\(\\s*${k}\\s*\\)`);
  }
  return new RegExp(forms.join('|'), 'i');
}

/** The line with its comment removed (a // after the start or a space, and one-line /* … *\/). */
function code(line) {
  return line.replace(/\/\*.*?\*\//g, '').replace(/(^|\s)\/\/.*$/, '$1');
}

function files(dir) {
  return readdirSync(join(ROOT, dir), { recursive: true })
    .map((f) => posix.join(dir, f.split('\\').join('/')))
    .filter((f) => CODE.test(f) && !f.split('/').includes('node_modules') && statSync(join(ROOT, f)).isFile());
}

/** [file, line number, limit name, text] for every literal of a limit outside comments. */
function findLiterals() {
  const limits = Object.entries(vocabulary.limits).filter(([name, v]) => !NOT_SEARCHED.has(name) && Number.isInteger(v) && v >= 1000);
  const found = [];
  for (const file of SCANNED.flatMap(files)) {
    let inBlock = false;
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .forEach((raw, i) => {
        let line = raw;
        if (inBlock) {
          const end = line.indexOf('*/');
          if (end < 0) return;
          line = line.slice(end + 2);
          inBlock = false;
        }
        line = code(line);
        const open = line.indexOf('/*');
        if (open >= 0) {
          line = line.slice(0, open);
          inBlock = true;
        }
        for (const [name, v] of limits) {
          if (ONLY_WHERE[name] && !ONLY_WHERE[name].test(line)) continue;
          if (literalsOf(v).test(line)) found.push({ file, line: i + 1, limit: name, text: raw.trim().slice(0, 120) });
        }
      });
  }
  return found;
}

test('the finder knows the ways a limit is written, and skips comments', () => {
  const re = literalsOf(2 ** 24);
  for (const s of ['x <= 2 ** 24', 'x<2**24', 'Math.pow(2, 24)', '1 << 24', '0x1000000', '16777216', '16_777_216', "'1 to 16,777,216.'", '16777216.0', 'x < 2 ** 24 - 1'])
    assert.match(s, re, s);
  for (const s of ['167772160', '2 ** 240', '0x10000000', '1677721.6', 'e16777216', '2 ** 2']) assert.doesNotMatch(s, re, s);
  assert.equal(code('const a = 1; // 2 ** 24'), 'const a = 1; ');
  assert.equal(code("fetch('http://x/2') /* 2 ** 24 */"), "fetch('http://x/2') ");
});

test(`no literal of the core's limits (${Object.keys(vocabulary.limits).join(', ')}) in js/ or web/ outside the vocabulary`, () => {
  assert.ok(vocabulary.limits.maxAbsPosition > 1000, `vocabulary.limits: ${JSON.stringify(vocabulary.limits)}`);
  const found = findLiterals();
  const allowed = (f) => ALLOWED.some((a) => a.file === f.file && a.limit === f.limit);
  const stale = ALLOWED.filter((a) => !found.some((f) => f.file === a.file && f.limit === a.limit));
  assert.deepEqual(stale, [], 'entries of ALLOWED whose literal is gone: remove them');
  assert.deepEqual(
    found.filter((f) => !allowed(f)).map((f) => `${f.file}:${f.line}: ${f.limit} (${vocabulary.limits[f.limit]}): ${f.text}`),
    [],
    'read these limits from the vocabulary (js/: vocabulary.limits from dist/sinpe-vocabulary.js or ../sinpe.js; web/: web/src/model/fields.js)',
  );
});

// The options' rules (vocabulary.def's rule column: positive, count, fraction,
// …) are the core's: js/ and web/ ask it (the plan's status, or
// `followsRule` for a value needed before any plan) and word its refusals; no
// code branches on a rule's name to re-check it (the site's translation of
// each rule's wording is keyed by the name, never compared with it).
const RULE_NAMES = ['positive', 'finite', 'index', 'count', 'length', 'fraction', 'any'];
const RULE_BRANCH = new RegExp(
  `\\brule\\s*[!=]==?\\s*['"\`]|['"\`](?:${RULE_NAMES.join('|')})['"\`]\\s*[!=]==?\\s*[\\w.?]*\\brule\\b|case\\s+['"\`](?:${RULE_NAMES.join('|')})['"\`]\\s*:`,
);

test('the finder of rule checks finds each way of branching on a rule name', () => {
  for (const s of ["if (option.rule === 'positive')", "o.rule !== 'count' &&", "'fraction' === opt.rule", "case 'positive':"]) assert.match(s, RULE_BRANCH, s);
  for (const s of ["rule: 'positive'", "const rule = RULE_OF_STATUS.get(s)", "RULE_WORDS[o.rule]", "numberType('count', count)"]) assert.doesNotMatch(s, RULE_BRANCH, s);
});

test('no code in js/ or web/ branches on an option rule’s name (the rules are the core’s)', () => {
  const found = [];
  for (const file of SCANNED.flatMap(files))
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .forEach((raw, i) => {
        if (RULE_BRANCH.test(code(raw))) found.push(`${file}:${i + 1}: ${raw.trim().slice(0, 120)}`);
      });
  assert.ok(files('js').length > 10, 'the files of js/ were found');
  assert.deepEqual(found, [], 'ask the core (the plan, or engine.followsRule) instead');
});
