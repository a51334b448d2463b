// docs/architecture.md's file map against the tree, both ways: every file or
// folder it names (in backticks) exists, and every source file under cpp/ and
// js/ is named there, so a file added, renamed or split away cannot leave the
// map behind.
//
// How a name is read: `a/b/c.cpp` is a path from the repository's root (or,
// failing that, from the folder of the path named before it in the same table
// cell or paragraph: `lib/maths/` after `web/src/lib/`); a bare `c.cpp` is in
// the folder of the last path named before it in that cell or paragraph
// (`glue.cpp` after `cpp/bindings/bindings.cpp`), else it must be the base
// name of exactly one file of the tree; `{a,b}.hpp` names both; `<id>` stands
// for any one folder name (`web/src/lessons/<id>/index.js`: at least one
// lesson has it). Build outputs under dist/ are files the build writes
// (npm test builds before this suite runs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const MAP = 'docs/architecture.md';
// The folders whose every file the map must name.
const MAPPED = ['cpp', 'js'];
// Where a bare base name is looked for.
const SEARCHED = ['cpp', 'js', 'web/src', 'tests', 'scripts', 'docs', 'dist'];

function filesUnder(dir) {
  const abs = join(ROOT, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs, { recursive: true })
    .map((f) => posix.join(dir, f.split('\\').join('/')))
    .filter((f) => !f.split('/').includes('node_modules') && statSync(join(ROOT, f)).isFile());
}

/** `{a,b}` expanded: every spelling a name stands for. */
function expand(name) {
  const m = /\{([^{}]*)\}/.exec(name);
  if (!m) return [name];
  return m[1].split(',').flatMap((alt) => expand(name.slice(0, m.index) + alt + name.slice(m.index + m[0].length)));
}

/** The paths (files or folders, folders ending in /) of the tree that a path pattern with `<id>` segments matches. */
function matches(pattern) {
  const folder = pattern.endsWith('/');
  const parts = pattern.replace(/\/$/, '').split('/');
  let found = [''];
  for (const part of parts) {
    found = found.flatMap((base) => {
      const abs = join(ROOT, base);
      if (!existsSync(abs) || !statSync(abs).isDirectory()) return [];
      if (/^<[^>]+>$/.test(part)) return readdirSync(abs).filter((n) => statSync(join(abs, n)).isDirectory()).map((n) => posix.join(base, n));
      return existsSync(join(abs, part)) ? [posix.join(base, part)] : [];
    });
  }
  return found.filter((p) => statSync(join(ROOT, p)).isDirectory() === folder).map((p) => (folder ? `${p}/` : p));
}

const FILE_NAME = /^[\w<{][\w<>{},.\-/]*(\.(cpp|hpp|h|def|js|mjs|cjs|ts|json|md|sh|py|css|html)|\/)$/;

/** Every name the map gives, with the paths it resolves to (empty: not found) and why. */
export function readMap() {
  const text = readFileSync(join(ROOT, MAP), 'utf8');
  const searched = SEARCHED.flatMap(filesUnder);
  const out = [];
  // A table cell or a paragraph is one context.
  const blocks = text.split(/\n\s*\n/).flatMap((block) => (block.trimStart().startsWith('|') ? block.split('|') : [block]));
  for (const block of blocks) {
    let folder = null;
    for (const [, token] of block.matchAll(/`([^`]+)`/g)) {
      if (!FILE_NAME.test(token)) continue;
      for (const name of expand(token)) {
        let paths = [];
        let how;
        let pattern = name; // the name as a path from the root, <id> kept
        if (name.includes('/')) {
          paths = matches(name);
          how = 'from the root';
          for (let f = folder; paths.length === 0 && f; f = f.includes('/') ? f.slice(0, f.lastIndexOf('/')) : null) {
            pattern = posix.join(f, name) + (name.endsWith('/') ? '/' : '');
            paths = matches(pattern);
            how = `from ${f}/`;
          }
        } else {
          if (folder) {
            paths = matches(posix.join(folder, name));
            how = `in ${folder}/`;
          }
          if (paths.length === 0) {
            paths = searched.filter((f) => posix.basename(f) === name);
            how = paths.length > 1 ? `ambiguous: ${paths.length} files of that name (${paths.slice(0, 4).join(', ')}…); name its folder` : 'by its base name';
            if (paths.length > 1) paths = [];
          }
        }
        out.push({ name, paths, how });
        if (name.includes('/') && paths.length > 0) folder = pattern.endsWith('/') ? pattern.replace(/\/$/, '') : posix.dirname(pattern);
        else if (!name.includes('/') && paths.length === 1) folder = posix.dirname(paths[0]);
      }
    }
  }
  return out;
}

test(`every file and folder ${MAP} names exists`, () => {
  const names = readMap();
  assert.ok(names.length >= 40, `${names.length} names read from ${MAP}`);
  const missing = names.filter((n) => n.paths.length === 0).map((n) => `${n.name} (${n.how})`);
  assert.deepEqual(missing, [], `names in ${MAP} that are no file or folder of the tree`);
});

test(`every source file under ${MAPPED.join('/, ')}/ is named in ${MAP}`, () => {
  const named = new Set(readMap().flatMap((n) => n.paths));
  const files = MAPPED.flatMap(filesUnder);
  assert.ok(files.length >= 40, `${files.length} files under ${MAPPED.join(', ')}`);
  const unnamed = files.filter((f) => !named.has(f));
  assert.deepEqual(unnamed, [], `files missing from ${MAP}'s map`);
});

test('the map reader resolves a path, a bare name in its folder, braces and <id>', () => {
  assert.deepEqual(expand('cpp/include/sinpe/{sinpe,rope}.hpp'), ['cpp/include/sinpe/sinpe.hpp', 'cpp/include/sinpe/rope.hpp']);
  assert.deepEqual(matches('cpp/src/kernel.cpp'), ['cpp/src/kernel.cpp']);
  assert.deepEqual(matches('cpp/src/'), ['cpp/src/']);
  assert.deepEqual(matches('cpp/src/no-such-file.hpp'), []);
  assert.ok(matches('web/src/lessons/<id>/index.js').length >= 2, 'lessons with an index.js');
});
