// 简体中文 terms: one name per term (web/src/i18n/zh-terms.js), used by the
// Chinese strings and no variant of it anywhere in the strings or the lessons.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import zh from '../../web/src/i18n/zh.js';
import { ZH_TERMS } from '../../web/src/i18n/zh-terms.js';

const ROOT = new URL('../../web/src/', import.meta.url).pathname;
const sources = (dir) => readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.js') ? [join(dir, e.name)] : []));
const FILES = [...sources('i18n'), ...sources('lessons')].filter((f) => f !== join('i18n', 'zh-terms.js'));

const flat = (v) => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.flatMap(flat) : v && typeof v === 'object' ? Object.values(v).flatMap(flat) : []);

test('every canonical Chinese term is used by the Chinese strings', () => {
  const text = flat(zh).join('\n');
  assert.ok(FILES.length > 20, `${FILES.length} files read`);
  for (const term of ZH_TERMS) assert.ok(text.includes(term.zh), `${term.en}: ${term.zh} is used`);
});

test('no variant of a Chinese term, in any string or lesson', () => {
  const found = [];
  for (const file of FILES) {
    const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
    lines.forEach((line, n) => {
      for (const term of ZH_TERMS) for (const variant of term.not) if (variant.test(line)) found.push(`${file}:${n + 1}: ${variant} for ${term.zh} (${term.en})`);
    });
  }
  assert.deepEqual(found, []);
});
