// Numbers on the site are written by one helper through Intl.NumberFormat in
// the page's language: integers grouped from 10,000 on, by commas in English
// and in Chinese (CLDR's en-US and zh-CN), the same in readouts, sentences
// and axes; no hand formatting (toLocaleString) anywhere else, and no number
// in the strings grouped with a space, where a phone may wrap it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatInteger, formatSignificant, pageLang } from '../../web/src/lib/numbers.js';
import { fullInt } from '../../web/src/lib/figure/names.js';
import en from '../../web/src/i18n/en.js';
import zh from '../../web/src/i18n/zh.js';

const src = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'src');

function jsFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return jsFiles(path);
    return path.endsWith('.js') ? [path] : [];
  });
}

test('integers: grouped from 10,000 on, in both languages', () => {
  assert.equal(pageLang(), 'en', 'no page in Node: English');
  for (const lang of ['en', 'zh']) {
    assert.equal(formatInteger(4096, lang), '4096');
    assert.equal(formatInteger(65536, lang), '65,536');
    assert.equal(formatInteger(10000291, lang), '10,000,291');
    assert.equal(formatInteger(20473564, lang), '20,473,564');
  }
  // axis ticks and readouts by the same rule
  for (const v of [0, 9999, 10000, 1000002, 16777215]) assert.equal(fullInt(v), formatInteger(v));
  // table values to be read back: six significant digits, never grouped
  assert.equal(formatSignificant(3.0689e-7, 6, 'en'), '0.00000030689');
  assert.equal(formatSignificant(20473564.3, 6, 'zh'), '20473564');
});

test('no number is formatted by hand outside lib/numbers.js', () => {
  const files = jsFiles(src).filter((f) => !f.endsWith(join('lib', 'numbers.js')));
  assert.ok(files.length > 20, `${files.length} source files`);
  const offenders = files.filter((f) => /toLocaleString\s*\(/.test(readFileSync(f, 'utf8')));
  assert.deepEqual(offenders, []);
});

test('no number in the strings is grouped by a space (a phone may wrap it)', () => {
  const found = [];
  const walk = (o, path) => {
    if (typeof o === 'string') {
      const m = o.match(/(?<![\d.])\d{1,3}(?: \d{3})+(?!\d)/);
      if (m) found.push(`${path}: ${m[0]}`);
    } else if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) walk(v, `${path}.${k}`);
  };
  walk(en, 'en');
  walk(zh, 'zh');
  assert.ok(JSON.stringify(en).length > 10000, 'the tables were read');
  assert.deepEqual(found, []);
});

test('the strings’ prose writes integers from 10,000 on grouped, in both languages (not "base 10000", "100000")', () => {
  const all = (v, key, out = []) => {
    if (typeof v === 'string') out.push([key, v]);
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) all(x, key ? `${key}.${k}` : k, out);
    return out;
  };
  for (const [lang, table] of [['en', en], ['zh', zh]]) {
    const strings = all(table, '');
    assert.ok(strings.length > 900, `${lang}: ${strings.length} strings`);
    // outside $…$ maths and `code`, where a number is written as the code writes it
    const ungrouped = strings.filter(([, s]) => /(?<![\d.,\w])\d{5,}(?![\d\w])/.test(s.replace(/\$[^$]*\$|`[^`]*`/g, ' ')));
    assert.deepEqual(ungrouped.map(([key, s]) => `${lang} ${key}: ${s.slice(0, 60)}`), []);
  }
});
