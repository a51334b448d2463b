// The module's raw surface against its one caller: every function the
// bindings register (cpp/bindings/*.cpp, Embind's `function("_name", ...)`,
// and post.js's `Module['_name']`) is called somewhere in js/, so no binding
// is kept alive by nothing; and the bindings include only the core's public
// headers (cpp/include/sinpe/), never its private ones (cpp/src/).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const BINDINGS = join(ROOT, 'cpp/bindings');
const PUBLIC = join(ROOT, 'cpp/include/sinpe');

const read = (dir, f) => readFileSync(join(dir, f), 'utf8');
const filesOf = (dir, re) =>
  readdirSync(dir, { recursive: true })
    .map((f) => f.split('\\').join('/'))
    .filter((f) => re.test(f) && !f.split('/').includes('node_modules'));

/** The names the bindings register, with the file of each. */
function registered() {
  const names = [];
  for (const f of filesOf(BINDINGS, /\.cpp$/))
    for (const m of read(BINDINGS, f).matchAll(/\bfunction\(\s*"(\w+)"/g)) names.push({ name: m[1], file: f });
  for (const m of read(BINDINGS, 'post.js').matchAll(/\bModule\[\s*'(\w+)'\s*\]\s*=/g)) names.push({ name: m[1], file: 'post.js' });
  return names;
}

test('the bindings register functions (the scan reads them)', () => {
  const names = registered().map((r) => r.name);
  // Three the package cannot do without, named by hand: the scan must find them.
  for (const name of ['_plan', '_ropeCache', '_detachViews']) assert.ok(names.includes(name), `${name} not found by the scan`);
  assert.equal(new Set(names).size, names.length, `a name registered twice: ${names}`);
});

test('every registered binding is called from js/', () => {
  const js = filesOf(join(ROOT, 'js'), /\.(js|mjs|cjs)$/)
    .map((f) => read(join(ROOT, 'js'), f))
    .join('\n');
  const unused = registered().filter(({ name }) => !new RegExp(`(?<![\\w$])${name}(?![\\w$])`).test(js));
  assert.deepEqual(
    unused.map(({ name, file }) => `${name} (cpp/bindings/${file})`),
    [],
    'registered but never called from js/: remove the binding, or call it',
  );
});

test('the bindings include only the public headers', () => {
  const publicHeaders = new Set(readdirSync(PUBLIC));
  const local = new Set(filesOf(BINDINGS, /\.hpp$/));
  const bad = [];
  let quoted = 0;
  for (const f of filesOf(BINDINGS, /\.(cpp|hpp)$/))
    for (const m of read(BINDINGS, f).matchAll(/^\s*#\s*include\s*"([^"]+)"/gm)) {
      quoted++;
      const inc = m[1];
      const ok = local.has(inc) || (inc.startsWith('sinpe/') && publicHeaders.has(inc.slice('sinpe/'.length)));
      if (!ok) bad.push(`${f}: #include "${inc}"`);
    }
  assert.ok(quoted > 0, 'no quoted #include found in cpp/bindings/');
  assert.deepEqual(bad, [], 'the bindings may include their own headers and cpp/include/sinpe/ only');
});
