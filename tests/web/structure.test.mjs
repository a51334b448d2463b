// The shape of the site's sources (web/src): no import cycle (static or
// dynamic import), no lesson module that imports the lesson registry (what a
// lesson needs comes in its context), and no file over 350 lines except the
// i18n string tables.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../web/src');
const MAX_LINES = 350;
const REGISTRY = 'lessons/index.js';
// the registry's own importers besides main.js: state.js reads fields and defaults from it, the string tables each lesson's strings
const MAY_IMPORT_REGISTRY = new Set(['main.js', 'state.js', 'i18n/en.js', 'i18n/zh.js']);

function sources(dir = SRC) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.m?js$/.test(name) ? [path] : [];
  });
}

// Every module specifier of a file: `import … from '…'`, `import '…'`,
// `export … from '…'` and `import('…')`, with comments removed first.
export function importsOf(text) {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const out = [];
  const patterns = [/\bimport\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*['"]([^'"]+)['"]/g, /\bexport\s[^'";]*?\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g];
  for (const re of patterns) for (const m of code.matchAll(re)) out.push(m[1]);
  return out;
}

/** The graph of relative imports among web/src: file (relative to web/src) → files it imports. */
function importGraph() {
  const graph = new Map();
  for (const path of sources()) {
    const edges = importsOf(readFileSync(path, 'utf8'))
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => relative(SRC, resolve(dirname(path), spec)));
    graph.set(relative(SRC, path), edges);
  }
  return graph;
}

/** The cycles of a graph, each as the path that closes it (depth-first search). */
export function cyclesOf(graph) {
  const state = new Map(); // 1: on the stack, 2: done
  const stack = [];
  const cycles = [];
  const visit = (node) => {
    state.set(node, 1);
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 1) cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 2);
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return cycles;
}

test('the import parser sees static, side-effect, re-export and dynamic imports', () => {
  const text = "import a from './a.js';\nimport './b.css';\nexport { c } from './c.js';\nconst d = () => import('./d.js');\n// import x from './commented.js';\nimport {\n  e,\n  f,\n} from '../e.js';";
  assert.deepEqual(importsOf(text).sort(), ['../e.js', './a.js', './b.css', './c.js', './d.js']);
});

test('the cycle finder finds a cycle and none in a tree', () => {
  const cyclic = new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]);
  assert.deepEqual(cyclesOf(cyclic), [['a', 'b', 'c', 'a']]);
  assert.deepEqual(cyclesOf(new Map([['a', ['b', 'c']], ['b', ['c']], ['c', []]])), []);
});

test('web/src has the modules this test reads (a wrong path would check nothing)', () => {
  const graph = importGraph();
  assert.ok(graph.size > 30, `only ${graph.size} modules found under ${SRC}`);
  assert.ok(graph.has('main.js') && graph.has(REGISTRY), 'main.js and the lesson registry are found');
  // the registry reaches every lesson module through its dynamic imports
  assert.ok(graph.get(REGISTRY).filter((f) => f.startsWith('lessons/')).length >= 9, 'the registry imports the lessons');
});

test('no import cycle among the modules of web/src (dynamic imports included)', () => {
  const cycles = cyclesOf(importGraph());
  assert.deepEqual(cycles.map((c) => c.join(' → ')), []);
});

test('no lesson module imports the lesson registry (or state.js, which imports it)', () => {
  const offenders = [];
  for (const [file, edges] of importGraph()) {
    if (MAY_IMPORT_REGISTRY.has(file) || file === REGISTRY) continue;
    for (const target of edges) if (target === REGISTRY || target === 'state.js') offenders.push(`${file} → ${target}`);
  }
  assert.deepEqual(offenders, []);
});

test(`no file under web/src over ${MAX_LINES} lines, except the i18n string tables`, () => {
  const sizes = sources()
    .filter((path) => !relative(SRC, path).startsWith('i18n/'))
    .map((path) => [relative(SRC, path), readFileSync(path, 'utf8').split('\n').length - 1]);
  assert.ok(sizes.length > 30);
  const long = sizes.filter(([, n]) => n > MAX_LINES).map(([file, n]) => `${file}: ${n} lines`);
  assert.deepEqual(long, []);
});

// ---- one folder per lesson, named by id ----

const LESSONS_DIR = join(SRC, 'lessons');

/** The registry's ids, read from its entries' `id: '…'` fields (the registry itself imports no DOM). */
async function registryIds() {
  const { LESSON_IDS } = await import('../../web/src/lessons/index.js');
  return LESSON_IDS;
}

/** The lesson folders: every directory directly under web/src/lessons. */
const lessonFolders = () => readdirSync(LESSONS_DIR).filter((name) => statSync(join(LESSONS_DIR, name)).isDirectory());

// The parameters of each `mount(` a file defines (a method or a function), and whether it returns figures().
export function mountsOf(text) {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return [...code.matchAll(/(?:^|\s)(?:export\s+)?(?:function\s+)?mount\s*\(([^)]*)\)\s*\{/g)].map((m) => m[1].replace(/\s+/g, ' ').trim());
}

test('the contract finder sees method and function mounts and their parameters', () => {
  assert.deepEqual(mountsOf('export default {\n  id: "x",\n  mount(root, ctx) {\n  },\n};'), ['root, ctx']);
  assert.deepEqual(mountsOf('export function mount(root, app, controlsElement) {}\n// mount(a) {'), ['root, app, controlsElement']);
  assert.deepEqual(mountsOf('const view = module.mount(container, ctx);'), []);
});

test('every lesson of the registry has its folder lessons/<id>/ whose index.js exports { id, mount(root, ctx) }', async () => {
  const ids = await registryIds();
  assert.ok(ids.length >= 10, `${ids.length} lessons in the registry`);
  for (const id of ids) {
    const path = join(LESSONS_DIR, id, 'index.js');
    assert.ok(statSync(path, { throwIfNoEntry: false })?.isFile(), `lessons/${id}/index.js exists`);
    const text = readFileSync(path, 'utf8');
    assert.match(text, /^export default \{$/m, `lessons/${id}/index.js has a default export`);
    assert.match(text, new RegExp(`^  id: '${id}',$`, 'm'), `lessons/${id}/index.js names its id`);
    assert.deepEqual(mountsOf(text), ['root, ctx'], `lessons/${id}/index.js: mount(root, ctx)`);
    for (const lang of ['en', 'zh']) assert.ok(statSync(join(LESSONS_DIR, id, `strings.${lang}.js`), { throwIfNoEntry: false })?.isFile(), `lessons/${id}/strings.${lang}.js exists`);
  }
});

test('every folder under web/src/lessons is a lesson of the registry', async () => {
  const ids = await registryIds();
  const folders = lessonFolders();
  assert.ok(folders.length >= 10, `${folders.length} folders`);
  assert.deepEqual(folders.filter((f) => !ids.includes(f)), [], 'folders the registry does not list');
  // and web/src/lessons holds nothing else but the registry
  assert.deepEqual(readdirSync(LESSONS_DIR).filter((name) => !folders.includes(name)), ['index.js']);
});

test('every mount under web/src/lessons (lessons and their sections) is mount(root, ctx) and returns update and figures()', () => {
  const found = [];
  for (const path of sources(LESSONS_DIR)) {
    const text = readFileSync(path, 'utf8');
    const mounts = mountsOf(text);
    if (!mounts.length) continue;
    const file = relative(SRC, path);
    found.push(file);
    assert.deepEqual(mounts, mounts.map(() => 'root, ctx'), `${file}: mount(root, ctx)`);
    assert.match(text, /\bfigures: \(\) =>/, `${file}: returns figures()`);
    assert.match(text, /\bupdate\((s|state)\b/, `${file}: returns update(state, …)`);
  }
  // the ten lessons, the rope lesson's nine sections and the attention lesson's three
  assert.ok(found.length >= 22, `${found.length} mounts found: ${found.join(', ')}`);
});

test("no file outside a lesson's folder imports from it, but the registry (its index.js and strings)", () => {
  const offenders = [];
  for (const [file, edges] of importGraph()) {
    for (const target of edges) {
      const m = /^lessons\/([^/]+)\/(.+)$/.exec(target);
      if (!m || file.startsWith(`lessons/${m[1]}/`)) continue;
      if (file === REGISTRY && /^(index|strings\.(en|zh))\.js$/.test(m[2])) continue;
      offenders.push(`${file} → ${target}`);
    }
  }
  assert.deepEqual(offenders, []);
});

// A lesson is named by its id: a number ("Lesson" or "第 … 课" with a digit) goes stale when one is inserted.
const NUMBERED = /\blessons? \d|第 ?\d+(?:[–、]\d+)* ?课/i;

/** Every .js/.mjs file under a directory (recursively), and with styles, every .css and .html file too. */
const scripts = (dir, styles = false) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? scripts(join(dir, e.name), styles) : (styles ? /\.(m?js|css|html)$/ : /\.m?js$/).test(e.name) ? [join(dir, e.name)] : [],
  );

test('the numbering finder catches the ways lessons were numbered', () => {
  for (const s of ['// Lesson 9: rotary', "test('lesson 3 shows'", 'lessons 1–6', '（第 9 课）', '第 1–8 课', '（第 1、6 课）']) assert.match(s, NUMBERED, s);
  for (const s of ['// the rope lesson', 'lesson {lesson:formula}', '第 {lesson:rope} 课', 'lessons.rope.mm', 'lesson-3']) assert.doesNotMatch(s, NUMBERED, s);
});

test('no lesson number in web/ (scripts, styles and the page: comments and text; a lesson names another as {lesson:<id>}) nor in tests/ (names and comments)', () => {
  const TESTS = resolve(SRC, '../../tests');
  const WEB = resolve(SRC, '..');
  // this file's own examples of numbering (the finder's test above) are the one exception
  const files = [...scripts(WEB, true), ...scripts(TESTS)].filter((path) => path !== fileURLToPath(import.meta.url));
  assert.ok(files.length > 100, `${files.length} files read`);
  for (const kind of ['.css', '.html']) assert.ok(files.some((f) => f.endsWith(kind)), `a ${kind} file read`);
  const found = [];
  for (const path of files) {
    readFileSync(path, 'utf8')
      .split('\n')
      .forEach((line, n) => {
        if (NUMBERED.test(line)) found.push(`${relative(resolve(SRC, '../..'), path)}:${n + 1}: ${line.trim().slice(0, 100)}`);
      });
  }
  assert.deepEqual(found, []);
});

test("a lesson reads only its own strings: no key lessons.<other>.…, questions.<other>.… or summary.<other> in its folder", async () => {
  const ids = await registryIds();
  const found = [];
  let read = 0;
  for (const id of lessonFolders()) {
    for (const path of sources(join(LESSONS_DIR, id))) {
      read++;
      for (const m of readFileSync(path, 'utf8').matchAll(/['"`](lessons|questions|summary|courseMap\.outcomes)\.([\w-]+)\b/g)) {
        if (ids.includes(m[2]) && m[2] !== id) found.push(`${relative(SRC, path)}: ${m[1]}.${m[2]}`);
      }
    }
  }
  assert.ok(read > 30, `${read} files read`);
  assert.deepEqual(found, []);
});
