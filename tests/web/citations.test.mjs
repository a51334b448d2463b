// The code cites only what is in the repository: a comment (or any text) of
// the site, the package or the core that names a Markdown file names one the
// repository has (docs/maths.md for the maths, with a section that exists),
// never the notes outside it the project was built from (REFERENCE*.md,
// STYLE.md, seeds/, ../shared/, absolute paths of the build machine).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DIRS = ['web/src', 'js', 'cpp'];
const EXT = /\.(m?js|ts|cpp|hpp|h|def|css|html)$/;

function files(dir) {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return files(path);
    return EXT.test(e.name) ? [path] : [];
  });
}

const OUTSIDE = [/REFERENCE[\w-]*\.md/, /STYLE\.md/, /(^|[\s'"`(/])seeds\//, /\.\.\/shared\b/, /\/work\//];
// "docs/maths.md §2" or "docs/maths.md, section 2.3": the section numbers the page has
const maths = readFileSync(join(root, 'docs/maths.md'), 'utf8');
const sections = new Set([...maths.matchAll(/^#{2,4} (\d+(?:\.\d+)*)\./gm)].map((m) => m[1]));

test('no file of the site, package or core cites a file outside the repository', () => {
  const all = DIRS.flatMap(files);
  assert.ok(all.length > 80, `${all.length} files scanned`);
  assert.ok(sections.size >= 5, `docs/maths.md sections: ${[...sections]}`);
  const found = [];
  for (const file of all) {
    readFileSync(join(root, file), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        const at = `${file}:${i + 1}`;
        for (const re of OUTSIDE) if (re.test(line)) found.push(`${at}: ${line.trim()}`);
        for (const m of line.matchAll(/([\w./-]+\.md)\b(?:\s*(?:§|section )(\d+(?:\.\d+)*))?/g)) {
          const [, cited, section] = m;
          const path = [join(root, cited), join(root, dirname(file), cited)].find((p) => existsSync(p));
          if (!path) found.push(`${at}: ${cited} is not in the repository`);
          else if (section && relative(root, path) === 'docs/maths.md' && !sections.has(section)) found.push(`${at}: docs/maths.md has no section ${section}`);
        }
      });
  }
  assert.deepEqual(found, []);
});
