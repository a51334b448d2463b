// The package and the lesson site in WebKitGTK (tests/browser/webkitgtk.mjs:
// Debian's WebKitWebDriver and MiniBrowser on Xvfb), beside Chromium and
// Firefox ESR:
//   the package: its packed tarball installed into a fresh project, the Vite
//   consumer app (tests/consumers/app) and the esbuild one (with --all, the
//   webpack 5 and Rollup apps too) built and served under the strict consumer CSP; both
//   flavours (auto and simd: false; checks.js forces each)
//   and the module worker checked against the float64 references by the same
//   checks as in the other engines (tests/consumers/verify.mjs); the flavour
//   'auto' picks must be the one WebAssembly.validate of a SIMD module allows;
//   the lesson site: build/site served under the site's own CSP; lessons
//   formula, heatmap and rope (1, 2 and 9) load with no console error or
//   warning, page error, CSP violation or failed request, and show values
//   recomputed here (the maths, d3's colormaps), not read from the site's
//   code; the first other lesson of the registry loads as cleanly (with --all,
//   npm run test:webkit, every other lesson). The esbuild app and that lesson
//   are the quick form's smoke of the --all path.
// WebDriver classic has no console events: a probe script, served first in
// every page, records them, and each page's record is read after its checks.
// Prints one line per check, then a count line (also appended to
// $SINPE_SUMMARY); exits 1 when any check fails or when the browser cannot be
// started (a missing driver or Xvfb is a failure, not a skip).
import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchWebKit } from './webkitgtk.mjs';
import { root, expectedColor, numbersIn } from './helpers.mjs';
import { buildVite, buildWebpack, buildEsbuild, buildRollup } from '../consumers/bundlers.mjs';
import { serve } from '../consumers/serve.mjs';
import { verify } from '../consumers/verify.mjs';
import { contentSecurityPolicy } from '../../web/vite.config.js';
import { LESSON_IDS } from '../../web/src/lessons/index.js';

const ALL = process.argv.includes('--all');
const results = [];
/** One check: fn gets expect(condition, message) and returns a detail line; a check that asserted nothing fails. */
async function check(name, fn) {
  const t0 = performance.now();
  let asserted = 0;
  const expect = (ok, message) => {
    asserted++;
    if (!ok) throw new Error(typeof message === 'function' ? message() : message);
  };
  try {
    const detail = await fn(expect);
    if (asserted === 0) throw new Error('the check asserted nothing');
    results.push({ name, ok: true, asserted });
    console.log(`  ok    ${name} (${((performance.now() - t0) / 1000).toFixed(1)} s, ${asserted} assertions)${detail ? `: ${detail}` : ''}`);
  } catch (e) {
    results.push({ name, ok: false, asserted });
    console.log(`  FAIL  ${name}: ${e && e.stack ? e.stack : e}`);
  }
}

// Runs in every page before its own scripts: records what a console listener would see.
function probe() {
  const problems = [];
  window.__probe = problems;
  const text = (args) => args.map((a) => (a && a.stack ? a.stack : String(a))).join(' ');
  for (const level of ['error', 'warn']) {
    const original = console[level];
    console[level] = (...args) => {
      problems.push(`console ${level}: ${text(args)}`);
      original.apply(console, args);
    };
  }
  // capture: failed loads of scripts, images and styles fire 'error' on their element, not on window
  window.addEventListener(
    'error',
    (e) => problems.push(e.target === window ? `page error: ${e.message} (${e.filename}:${e.lineno})` : `failed to load: ${e.target.src || e.target.href}`),
    true,
  );
  window.addEventListener('unhandledrejection', (e) => problems.push(`unhandled rejection: ${text([e.reason])}`));
  document.addEventListener('securitypolicyviolation', (e) => problems.push(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
}
const PROBE = `(${probe})();\n`;

// (module (func (result v128) (v128.const i64x2 0 0))): valid only where WebAssembly SIMD is.
const SIMD_MODULE = [0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 22, 1, 20, 0, 253, 12, ...new Array(16).fill(0), 11];
// the same function returning i32 0: valid in every engine with WebAssembly
const PLAIN_MODULE = [0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 127, 3, 2, 1, 0, 10, 6, 1, 4, 0, 65, 0, 11];
if (!WebAssembly.validate(new Uint8Array(SIMD_MODULE)) || !WebAssembly.validate(new Uint8Array(PLAIN_MODULE))) throw new Error('the probe modules are not valid wasm in Node');

let webkit;
try {
  webkit = await launchWebKit();
} catch (e) {
  console.log(`  FAIL  starting WebKitGTK (WebKitWebDriver + MiniBrowser on Xvfb): ${e.stack}`);
  results.push({ name: 'starting WebKitGTK', ok: false, asserted: 0 });
}
const driver = webkit?.driver;

/** Polls a page condition (a function run in the page) until it holds. */
async function until(condition, what, ms = 30000) {
  const end = Date.now() + ms;
  for (;;) {
    if (await driver.executeScript(`return (${condition})();`)) return;
    if (Date.now() > end) throw new Error(`${what}: not after ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Opens url in a fresh document (about:blank first, so a new hash is a new load, not a hash change). */
async function open(url) {
  await driver.get('about:blank');
  await driver.get(url);
  const probed = await driver.executeScript('return Array.isArray(window.__probe);');
  if (!probed) throw new Error(`${url}: the probe script did not run`);
}

const problemsOf = () => driver.executeScript('return window.__probe.slice();');
const failedRequests = (server, first) => server.requests.slice(first).filter((q) => q.status !== 200).map((q) => `${q.status}: ${q.path}`);

// ---------------------------------------------------------------- the package
// The Vite app; with --all, the webpack 5, esbuild and Rollup apps too. The
// quick form (npm test) also runs one app of --all's, the esbuild one (the
// fastest to build), so the path only --all takes cannot rot unseen.
const BUNDLERS = [
  ['Vite', buildVite, 'quick'],
  ['webpack 5', buildWebpack],
  ['esbuild', buildEsbuild, 'smoke of --all'],
  ['Rollup', buildRollup],
].filter(([, , quick]) => ALL || quick);
if (driver) {
  let project;
  try {
    project = execFileSync('bash', [join(root, 'scripts/pack-into-project.sh'), 'module'], { encoding: 'utf8' }).trim().split('\n').pop();
    cpSync(join(root, 'tests/consumers/app'), join(project, 'app'), { recursive: true });
    const installedDir = join(project, 'node_modules/sinpe.wasm');
    const version = JSON.parse(readFileSync(join(installedDir, 'package.json'), 'utf8')).version;
    const wasmBytes = { simd: readFileSync(join(installedDir, 'dist/sinpe-simd.wasm')), baseline: readFileSync(join(installedDir, 'dist/sinpe-baseline.wasm')) };
    const simd = await driver.executeScript(`return WebAssembly.validate(new Uint8Array(${JSON.stringify(SIMD_MODULE)}));`);
    const plain = await driver.executeScript(`return WebAssembly.validate(new Uint8Array(${JSON.stringify(PLAIN_MODULE)}));`);
    for (const [bundler, build] of BUNDLERS) {
      await check(`${webkit.version}: the ${bundler} app from the packed tarball, both flavours${bundler === 'Vite' ? ', worker' : ''}`, async (expect) => {
        const out = join(project, `dist-${bundler.split(' ')[0].toLowerCase()}`);
        await build(project, out);
        const app = { bundler, server: await serve(out, { probe: PROBE }) };
        try {
          await open(app.server.url);
          await until(() => window.__result !== undefined, 'window.__result');
          const result = await driver.executeScript('return window.__result;');
          const problems = [...(await problemsOf()), ...failedRequests(app.server, 0)];
          // the checks run in Chromium and Firefox ESR: they throw on any difference
          const detail = verify(app, result, app.server.requests, problems, { version, wasmBytes });
          expect(plain === true, `WebAssembly.validate of a plain module: ${plain}`);
          // simd: true loads only where the engine validates SIMD; simd: false never uses it
          expect(result.flavours.simd.simd === simd && result.flavours.baseline.simd === false, `flavours: ${JSON.stringify(result.flavours.simd.simd)}, ${JSON.stringify(result.flavours.baseline.simd)}; SIMD validates: ${simd}`);
          // 'auto' (the Vite app's sinpe()) picks SIMD exactly where it validates
          if (bundler === 'Vite') expect(result.simd === simd, `sinpe() picked simd ${result.simd}; WebAssembly.validate of a SIMD module: ${simd}`);
          return `${bundler === 'Vite' ? `WebAssembly SIMD ${simd ? 'supported' : 'not supported'}, auto picks ${result.simd ? 'SIMD' : 'baseline'}; ` : ''}${detail}`;
        } finally {
          await app.server.close();
        }
      });
    }
  } catch (e) {
    console.log(`  FAIL  the package in WebKitGTK: ${e.stack}`);
    results.push({ name: 'the package in WebKitGTK', ok: false, asserted: 0 });
  } finally {
    if (project) rmSync(project, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- the lesson site
/** The canvas' pixels as [r, g, b] rows, read through a scratch canvas (the page's own is never read back). */
function canvasPixels(selector) {
  return driver.executeScript(
    `const canvas = document.querySelector(arguments[0]);
     const scratch = document.createElement('canvas');
     scratch.width = canvas.width;
     scratch.height = canvas.height;
     const ctx = scratch.getContext('2d', { willReadFrequently: true });
     ctx.drawImage(canvas, 0, 0);
     const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
     const rows = [];
     for (let y = 0; y < canvas.height; y++) {
       const row = [];
       for (let x = 0; x < canvas.width; x++) row.push([data[4 * (y * canvas.width + x)], data[4 * (y * canvas.width + x) + 1], data[4 * (y * canvas.width + x) + 2]]);
       rows.push(row);
     }
     return rows;`,
    selector,
  );
}

/** Every cell of a heatmap canvas against d3's colormap of the value the formula gives (±2 per channel). */
async function expectHeatmap(expect, selector, values, cmap = 'rdbu') {
  const pixels = await canvasPixels(selector);
  expect(pixels.length === values.length && pixels[0].length === values[0].length, `${selector}: ${pixels[0]?.length}×${pixels.length} cells, want ${values[0].length}×${values.length}`);
  values.forEach((row, y) =>
    row.forEach((v, x) => {
      const want = expectedColor(cmap, v);
      const got = pixels[y][x];
      expect(
        got.every((c, i) => Math.abs(c - want[i]) <= 2),
        () => `${selector} (${x}, ${y}): value ${v} should be ${want}, got ${got}`,
      );
    }),
  );
  return values.length * values[0].length;
}

/** Row p of the sinusoidal table: column 2i is sin(p·base^(−2i/d)), 2i+1 its cos (interleaved), or the sines then the cosines (concat). */
function peRow(p, d, base, layout) {
  const row = new Array(d);
  for (let i = 0; i < d / 2; i++) {
    const angle = p * base ** ((-2 * i) / d);
    if (layout === 'interleaved') [row[2 * i], row[2 * i + 1]] = [Math.sin(angle), Math.cos(angle)];
    else [row[i], row[i + d / 2]] = [Math.sin(angle), Math.cos(angle)];
  }
  return row;
}

const near = (a, b, tolerance) => Math.abs(a - b) <= tolerance;

// What each named lesson must show, from its own parameters (the URL sets them; none is a site default).
const CONTENT = {
  formula: {
    hash: '&d=6&len=5&base=100',
    async check(expect) {
      const [d, len, base] = [6, 5, 100];
      const want = Array.from({ length: len }, (_, p) => peRow(p, d, base, 'interleaved'));
      const cells = await driver.executeScript(`return [...document.querySelectorAll('.lesson-formula .pe-table tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent));`);
      expect(cells.length === len && cells.every((r) => r.length === d), `table: ${cells.length} rows of ${cells.map((r) => r.length)}, want ${len} of ${d}`);
      // four decimals shown: within half a unit of the last digit (and float32)
      want.forEach((row, p) => row.forEach((v, c) => expect(near(numbersIn(cells[p][c])[0], v, 5e-5 + 1e-6), () => `table row ${p} column ${c}: ${cells[p][c]}, formula ${v}`)));
      const pixels = await expectHeatmap(expect, '.lesson-formula .heatmap-canvas', want);
      return `${len}×${d} table (base ${base}) as sin/cos give, ${pixels} heatmap cells in d3's RdBu`;
    },
  },
  heatmap: {
    hash: '&d=24&len=12&start=0&base=1000&layout=concat&cmap=rdbu',
    async check(expect) {
      const [d, len, start, base] = [24, 12, 0, 1000];
      const want = Array.from({ length: len }, (_, r) => peRow(start + r, d, base, 'concat'));
      const pixels = await expectHeatmap(expect, '.lesson-heatmap .heatmap-canvas', want);
      // row 0 holds sin 0 = 0 in the first half: RdBu's middle entry (index 128 of 256), computed by d3 here
      return `${len}×${d} canvas (base ${base}, sines then cosines): ${pixels} cells in d3's RdBu, the sines of position 0 in its middle colour rgb(${expectedColor('rdbu', 0)})`;
    },
  },
  rope: {
    hash: '&pos=7&base=10000',
    async check(expect) {
      const [pos, base, r] = [7, 10000, 8];
      const omega = (j) => base ** ((-2 * j) / r);
      // the layouts table rotates x = (0.1, …, 0.8) (float32) at position 7, pairs (j, j + 4) or (2j, 2j + 1)
      const x = Array.from({ length: r }, (_, i) => Math.fround((i + 1) / 10));
      const rotate = (pairs) => {
        const y = x.slice();
        pairs.forEach(([a, b], j) => {
          const [c, s] = [Math.cos(pos * omega(j)), Math.sin(pos * omega(j))];
          [y[a], y[b]] = [x[a] * c - x[b] * s, x[b] * c + x[a] * s];
        });
        return y;
      };
      const pairs = Array.from({ length: r / 2 }, (_, j) => j);
      const want = { half: rotate(pairs.map((j) => [j, j + r / 2])), interleaved: rotate(pairs.map((j) => [2 * j, 2 * j + 1])) };
      for (const layout of ['half', 'interleaved']) {
        const cells = await driver.executeScript(`return [...document.querySelectorAll('.rope-layout-table[data-layout="' + arguments[0] + '"] tbody .rotated-cell')].map((td) => td.textContent);`, layout);
        expect(cells.length === r, `${layout}: ${cells.length} rotated cells`);
        cells.forEach((text, i) => expect(near(numbersIn(text)[0], want[layout][i], 1.5e-5), () => `${layout} [${i}]: ${text}, rotation gives ${want[layout][i]}`));
      }
      // each dial's drawn hand is its drawn ghost (the query pair) turned by pos·ω_j: read from the SVG geometry
      const dials = await driver.executeScript(
        `return [...document.querySelectorAll('.rope-dials .dial')].map((d) => ['.dial-ghost', '.dial-hand'].map((s) => ['x2', 'y2'].map((k) => Number(d.querySelector(s).getAttribute(k)))));`,
      );
      expect(dials.length === r / 2, `${dials.length} dials, want ${r / 2}`);
      dials.forEach(([[gx, gy], [hx, hy]], j) => {
        // SVG y grows downwards: the pair (a, b) is drawn at (x, −y)
        const [c, s] = [Math.cos(pos * omega(j)), Math.sin(pos * omega(j))];
        const [a, b] = [gx * c - -gy * s, -gy * c + gx * s];
        expect(Math.hypot(gx, gy) > 1, `dial ${j}: ghost of length ${Math.hypot(gx, gy)}`);
        expect(near(hx, a, 1e-4) && near(-hy, b, 1e-4), () => `dial ${j}: hand drawn at (${hx}, ${-hy}), the ghost turned by ${pos}·ω_${j} is (${a}, ${b})`);
      });
      return `16 rotated values (half and interleaved) and ${dials.length} dial hands turned by ${pos}·ω_j`;
    },
  },
};

if (driver) {
  const served = mkdtempSync(join(tmpdir(), 'sinpe-site-'));
  let site;
  try {
    execFileSync('bash', ['scripts/build-site.sh'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    cpSync(join(root, 'build/site'), served, { recursive: true }); // a private copy: other work may rebuild build/site
    site = await serve(served, { csp: contentSecurityPolicy, probe: PROBE });
    await check(`the lessons checked by content are in the site's registry`, (expect) => {
      for (const lesson of Object.keys(CONTENT)) expect(LESSON_IDS.includes(lesson), `lesson ${lesson} is not in LESSON_IDS (${LESSON_IDS})`);
      return Object.keys(CONTENT)
        .map((lesson) => `${lesson} (lesson ${LESSON_IDS.indexOf(lesson)}, as the site numbers it)`)
        .join(', ');
    });
    // --all: every other lesson of the registry too, with its defaults (npm run test:webkit);
    // the quick form, the first of them (a smoke of --all's path).
    const others = LESSON_IDS.filter((lesson) => !CONTENT[lesson])
      .slice(0, ALL ? undefined : 1)
      .map((lesson) => ({ lesson, hash: '' }));
    const visits = [...Object.entries(CONTENT).map(([lesson, c]) => ({ lesson, ...c })), ...others];
    for (const { lesson, hash, check: content } of visits) {
      const name = `lesson ${lesson}: ${content ? 'loads cleanly, shows the values the maths gives' : 'loads cleanly'}`;
      await check(name, async (expect) => {
        const first = site.requests.length;
        await open(`${site.url}#lesson=${lesson}${hash}`);
        await until(() => document.documentElement.dataset.ready === 'true', 'html[data-ready]');
        await driver.executeAsyncScript('const done = arguments[0]; requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 30)));');
        const shown = await driver.executeScript(`return [document.querySelector('article.lesson')?.dataset.lesson, document.querySelector('h1.lesson-title')?.textContent ?? ''];`);
        expect(shown[0] === lesson && shown[1].trim().length > 0, `shows lesson ${shown[0]} titled "${shown[1]}", want ${lesson}`);
        const detail = content ? await content(expect) : `"${shown[1].trim()}"`;
        const problems = [...(await problemsOf()), ...failedRequests(site, first)];
        const shownProblems = problems.slice(0, 10).concat(problems.length > 10 ? [`… and ${problems.length - 10} more`] : []);
        expect(problems.length === 0, () => `${problems.length} console errors or warnings, page errors, CSP violations or failed requests:\n${shownProblems.join('\n')}`);
        return detail;
      });
    }
  } catch (e) {
    console.log(`  FAIL  the lesson site in WebKitGTK: ${e.stack}`);
    results.push({ name: 'the lesson site in WebKitGTK', ok: false, asserted: 0 });
  } finally {
    await site?.close();
    rmSync(served, { recursive: true, force: true });
  }
}

await webkit?.close();

const passed = results.filter((r) => r.ok);
const failed = results.filter((r) => !r.ok);
const assertions = results.reduce((n, r) => n + r.asserted, 0);
const line =
  `WebKitGTK${webkit ? ` ${webkit.version.replace(/^MiniBrowser /, '')} (MiniBrowser)` : ''}: ${passed.length}/${results.length} checks passed, ${assertions} assertions ` +
  `(${BUNDLERS.map(([b]) => b).join(', ')} apps from the packed tarball, both flavours; lessons ${Object.keys(CONTENT).join(', ')} clean and by content; ` +
  `${ALL ? 'every other lesson clean' : `of --all's, lesson ${LESSON_IDS.find((lesson) => !CONTENT[lesson])} clean (npm run test:webkit: every lesson, every app)`})` +
  `${failed.length ? `; FAILED: ${failed.map((r) => r.name).join('; ')}` : ''}`;
console.log(line);
if (process.env.SINPE_SUMMARY) appendFileSync(process.env.SINPE_SUMMARY, `${line}\n`);
process.exitCode = failed.length === 0 && results.length > 0 ? 0 : 1;
