// The two languages of the site have the same keys (the site's own strings,
// i18n/<lang>.js, merged with each lesson's, lessons/<id>/strings.<lang>.js), the same shapes (string
// or list of paragraphs of the same length) and the same {placeholders}.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import en from '../../web/src/i18n/en.js';
import zh from '../../web/src/i18n/zh.js';
import { LESSONS } from '../../web/src/lessons/index.js';
import { mergeStrings, numberLessons } from '../../web/src/i18n/merge.js';

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

// ---- each lesson's strings, beside the lesson (lessons/<id>/strings.<lang>.js) ----

// the groups where a lesson's strings sit under its own id
const OWN = ['lessons', 'questions', 'summary', 'courseMap.outcomes'];

test("each lesson's strings have the same keys in en and zh, and sit under its own id", () => {
  assert.ok(LESSONS.length >= 10);
  for (const { id, strings } of LESSONS) {
    const keys = (table) => leaves(table).map(([k]) => k).sort();
    assert.ok(keys(strings.en).length > 5, `${id}: its strings are found`);
    assert.deepEqual(keys(strings.zh), keys(strings.en), `${id}: the same keys in en and zh`);
    for (const [key] of leaves(strings.en)) {
      const group = OWN.find((g) => key.startsWith(`${g}.`));
      if (group) assert.ok(key.startsWith(`${group}.${id}.`) || key === `${group}.${id}`, `${id} defines ${key}, another lesson's`);
    }
    // the lesson's title for the menu, and its line of the course map
    assert.equal(typeof strings.en.lessons?.[id]?.nav, 'string', `${id}: lessons.${id}.nav`);
    assert.equal(typeof strings.en.courseMap?.outcomes?.[id], 'string', `${id}: courseMap.outcomes.${id}`);
  }
});

test('the menu numbers the lessons in the registry order, from 0', () => {
  LESSONS.forEach(({ id }, n) => {
    assert.ok(en.lessons[id].nav.startsWith(`${n} · `), `en ${id}: ${en.lessons[id].nav}`);
    assert.ok(zh.lessons[id].nav.startsWith(`${n} · `), `zh ${id}: ${zh.lessons[id].nav}`);
  });
});

test('a lesson named as {lesson:<id>} reads as its number; every one is resolved; an unknown id is an error', () => {
  const ids = LESSONS.map((l) => l.id);
  assert.deepEqual(numberLessons({ a: ['see lesson {lesson:rope}', { b: '第 {lesson:attention} 课' }] }, ids), { a: [`see lesson ${ids.indexOf('rope')}`, { b: `第 ${ids.indexOf('attention')} 课` }] });
  assert.throws(() => numberLessons({ a: { b: 'lesson {lesson:nope}' } }, ids), /a\.b names the lesson "nope"/);
  for (const [lang, table] of [['en', en], ['zh', zh]]) assert.deepEqual(leaves(table).filter(([, v]) => /\{lesson:/.test(String(v))).map(([k]) => k), [], `${lang}: unresolved`);
  // the references are the same in both languages, lesson by lesson
  const refs = (table) => leaves(table).flatMap(([k, v]) => [...String(v).matchAll(/\{lesson:([\w-]+)\}/g)].map((m) => `${k} → ${m[1]}`)).sort();
  let count = 0;
  for (const { id, strings } of LESSONS) {
    assert.deepEqual(refs(strings.zh), refs(strings.en), `${id}: the same lessons named in en and zh`);
    count += refs(strings.en).length;
  }
  assert.ok(count >= 10, `${count} references found`);
});

test('merging the string tables: nested keys join, a key defined twice is an error naming it', () => {
  assert.deepEqual(mergeStrings({ a: { b: 'x' } }, [{ a: { c: ['y'] } }, { d: 'z' }]), { a: { b: 'x', c: ['y'] }, d: 'z' });
  assert.throws(() => mergeStrings({ a: { b: 'x' } }, { a: { b: 'y' } }), /a\.b is defined twice/);
  assert.throws(() => mergeStrings({ a: 'x' }, { a: { b: 'y' } }), /a is defined twice/);
  assert.throws(() => mergeStrings({ a: { b: 'y' } }, { a: 'x' }), /a is defined twice/);
});
