// `npm run bench`: builds the native benchmark with -O3 -march=native, runs the
// Node runner, the Chromium runner and the native benchmark one after another
// (each in its own process), prints one table, the issue's criteria as report
// lines, and writes build/bench/latest.json plus the committed copy
// tests/bench/latest.json.
//
//   node tests/bench/run.mjs [--update-readme] [--skip-native] [--skip-node] [--skip-chromium]
//
// --update-readme rewrites README.md's performance section (the text after the
// `<!-- section: performance -->` marker, up to the next section marker).
// A benchmark, not a test: the exit code is 0 unless a runner crashed.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { BENCH } from './cases.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const args = new Set(process.argv.slice(2));
const outDir = `${root}build/bench`;
const nativeBuild = `${root}build/bench-native`;
mkdirSync(outDir, { recursive: true });

const crashed = [];
const loadBefore = loadavg()[0];

// ------------------------------------------------------------------ runners

function runJson(name, cmd, cmdArgs, opts = {}) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    process.stderr.write(`\n== ${name}: ${cmd} ${cmdArgs.join(' ')}\n`);
    const child = spawn(cmd, cmdArgs, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], ...opts });
    let out = '';
    child.stdout.on('data', (b) => (out += b));
    child.on('error', (e) => {
      crashed.push(`${name}: ${e.message}`);
      resolve(null);
    });
    child.on('close', (code) => {
      process.stderr.write(`== ${name}: done in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
      if (code !== 0) {
        crashed.push(`${name}: exit code ${code}`);
        return resolve(null);
      }
      try {
        resolve(JSON.parse(out));
      } catch (e) {
        crashed.push(`${name}: bad JSON (${e.message})`);
        resolve(null);
      }
    });
  });
}

function buildNative() {
  const log = `${outDir}/native-build.log`;
  process.stderr.write(`\n== native: building build/bench-native (-O3 -march=native), log in build/bench/native-build.log\n`);
  try {
    let text = '';
    if (!existsSync(`${nativeBuild}/CMakeCache.txt`))
      text += execFileSync('cmake', ['-S', root, '-B', nativeBuild, '-DCMAKE_BUILD_TYPE=Release', '-DSINPE_NATIVE_ARCH=ON', '-DSINPE_TESTS=OFF'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    text += execFileSync('cmake', ['--build', nativeBuild, '--target', 'sinpe_bench_native', `-j${cpus().length}`], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    writeFileSync(log, text);
    return true;
  } catch (e) {
    writeFileSync(log, `${e.stdout ?? ''}${e.stderr ?? ''}`);
    process.stderr.write(`${e.stdout ?? ''}${e.stderr ?? ''}\n`);
    crashed.push('native: build failed');
    return false;
  }
}

// ------------------------------------------------------------------ machine

function sh(cmd, cmdArgs) {
  try {
    return execFileSync(cmd, cmdArgs, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

function machine() {
  const cpuinfo = existsSync('/proc/cpuinfo') ? readFileSync('/proc/cpuinfo', 'utf8') : '';
  const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1] ?? cpus()[0]?.model ?? 'unknown';
  const flags = /^flags\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.split(' ') ?? [];
  const simd = ['avx512f', 'avx2', 'sse4_2'].find((f) => flags.includes(f)) ?? 'unknown';
  const osRelease = existsSync('/etc/os-release') ? readFileSync('/etc/os-release', 'utf8') : '';
  const os = /^PRETTY_NAME="?([^"\n]+)"?$/m.exec(osRelease)?.[1] ?? process.platform;
  const emcc = /\d+\.\d+\.\d+/.exec(sh('emcc', ['--version'])?.split('\n')[0] ?? '')?.[0] ?? null;
  return {
    cpu: model,
    cores: cpus().length,
    widestSimd: simd,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    os,
    emscripten: emcc,
  };
}

// ------------------------------------------------------------------ table

const CASES = [
  { name: `table ${BENCH.tableA.n}×${BENCH.tableA.d}`, native: `table${BENCH.tableA.n}x${BENCH.tableA.d}`, unit: 'ms' },
  { name: `table ${BENCH.tableB.n}×${BENCH.tableB.d}`, native: `table${BENCH.tableB.n}x${BENCH.tableB.d}`, unit: 'ms' },
  { name: `row d=${BENCH.rows.d}, random pos`, native: `row${BENCH.rows.d}`, unit: 'µs', perRow: true },
  {
    name: `row d=${BENCH.rows.d}, random pos < 2^19 (diagnostic)`,
    native: `row${BENCH.rows.d}below2^19`,
    unit: 'µs',
    perRow: true,
    max: '2^19',
  },
  ...BENCH.heatmap.starts.map((s) => ({
    name: `heatmap ${BENCH.heatmap.n}×${BENCH.heatmap.d} @${s}`,
    native: `heatmap${BENCH.heatmap.n}x${BENCH.heatmap.d}@${s}`,
    unit: 'ms',
  })),
];

const NATIVE_METHOD = 'native C++ core, -O3 -march=native (no JS, no copy)';

function find(result, caseName, key) {
  return result?.rows.find((r) => r.case === caseName && r.key === key) ?? null;
}

function fmtTime(ms, unit) {
  if (ms == null || !Number.isFinite(ms)) return '—';
  const v = unit === 'µs' ? ms * 1000 : ms;
  if (v >= 100) return v.toFixed(0);
  if (v >= 10) return v.toFixed(1);
  if (v >= 1) return v.toFixed(2);
  if (v >= 0.1) return v.toFixed(3);
  return v.toFixed(4);
}

function fmtRatio(ms, ref) {
  if (ms == null || ref == null || !(ref > 0)) return '—';
  const r = ms / ref;
  return `${r >= 10 ? r.toFixed(0) : r >= 1 ? r.toFixed(1) : r.toFixed(2)}×`;
}

function fmtErr(e) {
  if (e == null) return '—';
  if (typeof e === 'string') return e;
  if (e === 0) return '0';
  return e.toExponential(1);
}

// Rows of one case: [method, node ms, ×SIMD, chromium ms, ×SIMD, error].
function caseRows(c, node, chromium, native) {
  const keys = [];
  for (const res of [node, chromium])
    for (const r of res?.rows ?? []) if (r.case === c.name && !keys.some((k) => k.key === r.key)) keys.push(r);
  const simdNode = find(node, c.name, 'simd')?.ms;
  const simdChromium = find(chromium, c.name, 'simd')?.ms;
  const rows = keys.map(({ key, method }) => {
    const n = find(node, c.name, key);
    const b = find(chromium, c.name, key);
    const en = fmtErr(n?.err);
    const eb = fmtErr(b?.err);
    const err = !n ? eb : !b || en === eb ? en : `${en} / ${eb}`;
    return [method, fmtTime(n?.ms, c.unit), fmtRatio(n?.ms, simdNode), fmtTime(b?.ms, c.unit), fmtRatio(b?.ms, simdChromium), err];
  });
  const nat = native?.cases?.[c.native];
  if (nat)
    rows.push([NATIVE_METHOD, fmtTime(nat.ms, c.unit), fmtRatio(nat.ms, simdNode), fmtTime(nat.ms, c.unit), fmtRatio(nat.ms, simdChromium), fmtErr(nat.err)]);
  return rows;
}

function markdownTable(header, rows) {
  const all = [header, ...rows];
  const width = header.map((_, i) => Math.max(...all.map((r) => [...String(r[i])].length)));
  const right = (i) => i > 0 && i < 5;
  const line = (r) =>
    `| ${r.map((cell, i) => (right(i) ? String(cell).padStart(width[i]) : String(cell).padEnd(width[i]))).join(' | ')} |`;
  const sep = `|${width.map((w, i) => (right(i) ? `${'-'.repeat(w + 1)}:` : `${'-'.repeat(w + 2)}`)).join('|')}|`;
  return [line(header), sep, ...rows.map(line)].join('\n');
}

function tables(node, chromium, native) {
  return CASES.map((c) => {
    const what = c.perRow ? `${BENCH.rows.count} calls at random positions in [0, ${c.max ?? '2^24'}), µs per row` : 'median ms';
    const header = ['method', `Node ${c.unit}`, '×SIMD', `Chromium ${c.unit}`, '×SIMD', c.name.startsWith('heatmap') ? 'colour index err' : 'max abs err'];
    return `**${c.name}** (${what})\n\n${markdownTable(header, caseRows(c, node, chromium, native))}`;
  }).join('\n\n');
}

// ------------------------------------------------------------------ criteria

const SINPE_KEYS = ['simd', 'simd-alloc', 'simd-encode', 'baseline', 'baseline-alloc', 'baseline-encode'];

function criteria(res, native) {
  if (!res) return [];
  const A = CASES[0].name;
  const ms = (c, k) => find(res, c, k)?.ms;
  const out = [];
  const add = (pass, text) => out.push({ pass, text });
  const simd = ms(A, 'simd');
  const idiom = ms(A, 'js-idiomatic');
  const bound = ms(A, 'write-bound');
  const base = ms(A, 'baseline');
  add(simd * 40 <= idiom, `${A} SIMD ≤ 1/40 of idiomatic JS: ${fmtTime(simd)} ms vs ${fmtTime(idiom)} ms = 1/${(idiom / simd).toFixed(1)}`);
  add(simd <= 4 * bound, `${A} SIMD ≤ 4× write-only bound: ${fmtTime(simd)} ms vs ${fmtTime(bound)} ms = ${(simd / bound).toFixed(2)}×`);
  add(base * 10 <= idiom, `${A} baseline ≥ 10× faster than idiomatic JS: ${fmtTime(base)} ms vs ${fmtTime(idiom)} ms = ${(idiom / base).toFixed(1)}×`);
  let worst = { err: -1 };
  for (const r of res.rows)
    if (SINPE_KEYS.includes(r.key) && typeof r.err === 'number' && !(r.err <= worst.err)) worst = r;
  if (native) for (const [k, v] of Object.entries(native.cases)) if (typeof v.err === 'number' && v.err > worst.err) worst = { err: v.err, case: k, method: 'native' };
  add(worst.err >= 0 && worst.err <= 2.5e-7, `max abs error of every sinpe row ≤ 2.5e-7: worst ${worst.err.toExponential(2)} (${worst.case}, ${worst.method})`);
  for (const c of CASES.filter((c) => c.name.startsWith('heatmap'))) {
    const h = ms(c.name, 'simd');
    add(h <= 4, `${c.name} SIMD ≤ 4 ms: ${fmtTime(h)} ms`);
  }
  const R = CASES[2].name;
  const rowIdiom = ms(R, 'js-idiomatic');
  for (const k of ['simd', 'simd-encode']) {
    const r = find(res, R, k);
    add(r.ms < rowIdiom, `one row (d=512, random position) ${r.method.replace(/^sinpe SIMD: /, '')} < idiomatic JS row: ${fmtTime(r.ms, 'µs')} µs vs ${fmtTime(rowIdiom, 'µs')} µs`);
  }
  return out;
}

function criteriaText(label, list) {
  return list.map((c) => `- ${c.pass ? 'PASS' : 'FAIL'} (${label}) ${c.text}`).join('\n');
}

// ------------------------------------------------------------------ README

const MARKER = '<!-- section: performance -->';

function readmeSection(report) {
  const m = report.machine;
  return `${MARKER}

## Performance

Rerun with \`npm run bench\` (it installs what is missing and builds first, then takes
about a minute). It runs Node, headless Chromium (Debian's \`chromium\` driven by
\`playwright-core\`, cross-origin isolated so \`performance.now()\` is fine-grained) and
the native core (\`-O3 -march=native\`), each in one process with both wasm flavours
loaded side by side, prints the tables below with the issue's criteria, and writes
\`build/bench/latest.json\` (copy: \`tests/bench/latest.json\`).
\`npm run bench -- --update-readme\` also rewrites this section.

Every figure is the median of at least ${BENCH.minReps} timed runs after a warm-up; the
methods of a case take turns run by run (the allocating variants among themselves), so
load from elsewhere hits them alike. ×SIMD
is the time relative to sinpe SIMD in the same runtime. Every value of every method is
checked against the float64 formula (all 4096×512 and 65536×64 values, all 1000 random
rows, positions up to 2^24 − 1). The **write-only bound** fills the same output through
the same chunked copy path from wasm without computing anything; **JS out.fill(1)** is the
plain memory bound. All JS loops write into a preallocated \`Float32Array\`: *idiomatic* =
frequencies precomputed once in float64, then \`Math.sin\`/\`Math.cos\` of \`pos * inv[k]\`;
*seed-style* = \`pos / Math.pow(10000, 2i/d)\` per value, as in the course notebooks;
*float32 angle* = \`Math.fround(pos * ω32)\`, what a float32 \`arange * div_term\` (PyTorch
default dtype) computes, shown for its error. The heatmap's error column is the largest
difference between the colour index used and the one the float64 value gives (1 = a
value within rounding of a bin edge). The *diagnostic* single-row case keeps positions
below 2^19, so every angle stays below 2^19·π/2 ≈ 823550, beyond which V8's float64
`Math.sin`/`Math.cos` (and xsimd's `sincos`, which sinpe no longer uses for its anchors)
switch to a slow per-value range reduction.

Latest run (${report.date}): ${m.cpu}, ${m.cores} cores (${m.widestSimd}), ${m.memoryGiB} GiB, ${m.os};
${report.node?.runtime ?? 'Node: not run'}; ${report.chromium?.runtime ?? 'Chromium: not run'} (headless);
wasm built with Emscripten ${m.emscripten ?? '?'}; native: ${report.native?.compiler ?? 'not run'}.
Shared, noisy machine (1-minute load average ${report.loadAverage.before} before the run, ${report.loadAverage.after} after):
expect ±20 % between runs.

${report.tables}

The issue's criteria, from this run:

${report.criteriaText}
`;
}

function updateReadme(section) {
  const path = `${root}README.md`;
  const text = readFileSync(path, 'utf8');
  const at = text.indexOf(MARKER);
  if (at < 0) throw new Error(`README.md has no ${MARKER} marker`);
  const next = text.indexOf('<!-- section:', at + MARKER.length);
  const tail = next < 0 ? '' : `\n${text.slice(next)}`;
  writeFileSync(path, `${text.slice(0, at)}${section}${tail}`);
}

// ------------------------------------------------------------------ main

const node = args.has('--skip-node') ? null : await runJson('node', process.execPath, ['tests/bench/node.mjs']);
const chromium = args.has('--skip-chromium') ? null : await runJson('chromium', process.execPath, ['tests/bench/browser.mjs']);
const native = args.has('--skip-native') || !buildNative() ? null : await runJson('native', `${nativeBuild}/sinpe_bench_native`, []);

const report = {
  date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
  command: 'npm run bench',
  machine: machine(),
  loadAverage: { before: +loadBefore.toFixed(2), after: +loadavg()[0].toFixed(2) },
  node,
  chromium,
  native: native && { ...native, flags: '-O3 -march=native' },
};
report.tables = tables(node, chromium, native);
report.criteria = { node: criteria(node, native), chromium: criteria(chromium, native) };
report.criteriaText = [criteriaText('Node', report.criteria.node), criteriaText('Chromium', report.criteria.chromium)]
  .filter(Boolean)
  .join('\n');

const m = report.machine;
console.log(`\nsinpe benchmark, ${report.date}`);
console.log(`${m.cpu}, ${m.cores} cores (${m.widestSimd}), ${m.os}; load average ${report.loadAverage.before} → ${report.loadAverage.after}`);
console.log(`${node?.runtime ?? 'Node: not run'} | ${chromium?.runtime ?? 'Chromium: not run'} | native: ${native?.compiler ?? 'not run'}\n`);
console.log(report.tables);
console.log(`\nCriteria (issue 3), reported, not asserted:\n${report.criteriaText}`);

const json = `${JSON.stringify(report, null, 1)}\n`;
writeFileSync(`${outDir}/latest.json`, json);
writeFileSync(`${root}tests/bench/latest.json`, json);
console.log('\nwrote build/bench/latest.json and tests/bench/latest.json');
if (args.has('--update-readme')) {
  updateReadme(readmeSection(report));
  console.log('rewrote the performance section of README.md');
}
if (crashed.length) {
  console.error(`\nrunner failures:\n${crashed.map((c) => `  ${c}`).join('\n')}`);
  process.exit(1);
}
