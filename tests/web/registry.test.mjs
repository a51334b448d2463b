// The lesson registry (web/src/lessons/index.js) is the one list of lessons:
// it loads in Node without a DOM, so the browser tests take their lists of
// lessons from it, and no test keeps a list of its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

test('the registry loads in Node without a DOM; each lesson once, in one order', async () => {
  assert.equal(typeof globalThis.document, 'undefined');
  assert.equal(typeof globalThis.window, 'undefined');
  const { LESSONS, LESSON_IDS, lessonById } = await import('../../web/src/lessons/index.js');
  assert.ok(LESSON_IDS.length >= 9, `${LESSON_IDS.length} lessons`);
  assert.deepEqual(LESSON_IDS, LESSONS.map((l) => l.id));
  assert.equal(new Set(LESSON_IDS).size, LESSON_IDS.length, 'ids are unique');
  for (const id of LESSON_IDS) {
    assert.match(id, /^[a-z][a-z0-9-]*$/, `${id}: an id that is safe in a URL and a selector`);
    assert.equal(lessonById(id).id, id);
    assert.equal(typeof lessonById(id).module, 'function', `${id}: its module is loaded on demand`);
  }
});

test('no browser or site-model test keeps its own list of lessons', async () => {
  const { LESSON_IDS } = await import('../../web/src/lessons/index.js');
  const files = ['browser', 'web'].flatMap((dir) => readdirSync(join(root, 'tests', dir)).filter((f) => f.endsWith('.mjs')).map((f) => join(dir, f)));
  assert.ok(files.length >= 30, `${files.length} browser and site-model test files`);
  const ids = new Set(LESSON_IDS);
  for (const file of files) {
    const text = readFileSync(join(root, 'tests', file), 'utf8');
    // an array literal naming three or more lessons is a copy of the registry's list
    for (const [literal] of text.matchAll(/\[[^[\]]*\]/g)) {
      const named = [...literal.matchAll(/'([a-z0-9-]+)'/g)].map((m) => m[1]).filter((id) => ids.has(id));
      assert.ok(named.length < 3, `${file}: a hard-coded list of lessons ${literal.slice(0, 80)}; use LESSON_IDS from web/src/lessons/index.js`);
    }
  }
});

test('the README’s lesson table has one row per lesson of the registry', async () => {
  const { LESSON_IDS } = await import('../../web/src/lessons/index.js');
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Lesson site'), readme.indexOf('\n## ', readme.indexOf('## Lesson site') + 1));
  const rows = [...section.matchAll(/^\| (\d+) \| /gm)].map((m) => Number(m[1]));
  // numbered as the site numbers them: the first lesson (why attention needs positions) is 0
  assert.deepEqual(rows, LESSON_IDS.map((_, i) => i));
});
