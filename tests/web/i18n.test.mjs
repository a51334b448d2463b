// The two languages of the site have the same keys, the same shapes (string
// or list of paragraphs of the same length) and the same {placeholders}.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import en from '../../web/src/i18n/en.js';
import zh from '../../web/src/i18n/zh.js';

/** [dotted key, value] for every leaf (strings and arrays of strings). */
function leaves(table, prefix = '') {
  const out = [];
  for (const [key, value] of Object.entries(table)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === 'object' && !Array.isArray(value)) out.push(...leaves(value, path));
    else out.push([path, value]);
  }
  return out;
}

const placeholders = (v) => [...new Set((Array.isArray(v) ? v.join('\n') : v).match(/\{\w+\}/g) ?? [])].sort();

test('en and zh have the same keys', () => {
  const enKeys = leaves(en).map(([k]) => k).sort();
  const zhKeys = leaves(zh).map(([k]) => k).sort();
  assert.deepEqual(zhKeys.filter((k) => !enKeys.includes(k)), [], 'keys only in zh');
  assert.deepEqual(enKeys.filter((k) => !zhKeys.includes(k)), [], 'keys only in en');
});

test('each key has the same shape and placeholders in both languages', () => {
  const zhLeaves = new Map(leaves(zh));
  for (const [key, value] of leaves(en)) {
    const other = zhLeaves.get(key);
    assert.equal(Array.isArray(other), Array.isArray(value), `${key}: string in one language, list in the other`);
    if (Array.isArray(value)) assert.equal(other.length, value.length, `${key}: ${value.length} paragraphs in en, ${other.length} in zh`);
    assert.equal(typeof (Array.isArray(value) ? value[0] : value), 'string', key);
    assert.deepEqual(placeholders(other), placeholders(value), `${key}: placeholders differ`);
  }
});

test('lesson text markup is balanced ($tex$, `code`, **bold**)', () => {
  for (const [lang, table] of [['en', en], ['zh', zh]]) {
    for (const [key, value] of leaves(table)) {
      for (const text of Array.isArray(value) ? value : [value]) {
        assert.equal((text.match(/`/g) ?? []).length % 2, 0, `${lang} ${key}: odd number of backticks`);
        // inside `code` a $ or ** is literal (Python's power operator)
        const prose = text.replace(/`[^`]*`/g, '');
        const unescaped = prose.replace(/\\\$/g, '');
        assert.equal((unescaped.match(/\$/g) ?? []).length % 2, 0, `${lang} ${key}: odd number of $`);
        assert.equal((prose.match(/\*\*/g) ?? []).length % 2, 0, `${lang} ${key}: unbalanced **`);
      }
    }
  }
});
