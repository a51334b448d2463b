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
