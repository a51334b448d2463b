// `npm run bench`: runs the Node runner, the Chromium runner and the native
// benchmark one after another (each in its own process), prints one table per
// case with the ratios to the bounds measured in the same run and the goals
// as PASS/FAIL lines, and writes build/bench/latest.json.
//
//   node tests/bench/run.mjs [--quick] [--update-docs] [--skip-native] [--skip-node] [--skip-chromium]
//
// --quick: a reduced run (a few timed runs per method, the native benchmark
// from the generic build in build/native) that checks every value like the
// full run; its timings mean little.
// --update-docs: rewrites docs/performance.md (the whole file) from the run.
// Never asserts anything about time. The exit code is 1 when a runner fails or
// any sinpe value is outside the accuracy contract, else 0.
import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { BENCH, CONTRACT } from './cases.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const args = new Set(process.argv.slice(2));
const known = ['--quick', '--update-docs', '--skip-native', '--skip-node', '--skip-chromium'];
for (const a of args)
  if (!known.includes(a)) {
    console.error(`unknown argument ${a}; expected any of ${known.join(' ')}`);
    process.exit(2);
  }
const quick = args.has('--quick');
const outDir = `${root}build/bench`;
const nativeBuild = `${root}build/bench-native`;
mkdirSync(outDir, { recursive: true });

const failures = []; // runner failures and contract violations: the exit code
const loadBefore = loadavg();

// ------------------------------------------------------------------ runners

function runJson(name, cmd, cmdArgs) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    process.stderr.write(`\n== ${name}: ${cmd} ${cmdArgs.join(' ')}\n`);
    const child = spawn(cmd, cmdArgs, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (b) => (out += b));
    child.on('error', (e) => {
      failures.push(`${name}: ${e.message}`);
      resolve(null);
    });
    child.on('close', (code) => {
      process.stderr.write(`== ${name}: done in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
      if (code !== 0) {
        failures.push(`${name}: exit code ${code}`);
        return resolve(null);
      }
      try {
        resolve(JSON.parse(out));
      } catch (e) {
        failures.push(`${name}: bad JSON (${e.message})`);
        resolve(null);
      }
    });
  });
}

// The native benchmark: -O3 -march=native in build/bench-native, or (quick)
// the generic build that scripts/build.sh makes in build/native.
function nativeBinary() {
  if (quick) {
    const bin = `${root}build/native/sinpe_bench_native`;
    if (existsSync(bin)) return { bin, flags: 'generic Release build (build/native)' };
    failures.push('native: build/native/sinpe_bench_native is missing (run scripts/build.sh)');
    return null;
  }
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
    return { bin: `${nativeBuild}/sinpe_bench_native`, flags: '-O3 -march=native' };
  } catch (e) {
    writeFileSync(log, `${e.stdout ?? ''}${e.stderr ?? ''}`);
    process.stderr.write(`${e.stdout ?? ''}${e.stderr ?? ''}\n`);
    failures.push('native: build failed');
    return null;
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
  return { cpu: model, cores: cpus().length, widestSimd: simd, memoryGiB: Math.round(totalmem() / 2 ** 30), os, emscripten: emcc };
}

// ------------------------------------------------------------------ cases

const T = BENCH.table;
const R = BENCH.row;
const H = BENCH.heatmap;
const RC = BENCH.ropeCache;
const AR = BENCH.applyRope;
const MR = BENCH.mropeCache;
const HT = BENCH.halfTable;
const HR = BENCH.halfRopeCache;
// Half-precision methods: their error is the count of values that are not the float64 value rounded once.
const halfBound = (key) => (/float16/.test(key) ? 0 : CONTRACT.value);
// name (as cases.mjs reports it), unit, native key, contract bound of its sinpe values
const CASES = [
  { name: `table ${T.n}×${T.d}`, unit: 'ms', native: 'table4096x512', bound: CONTRACT.value, what: 'median ms' },
  { name: `row d=${R.d}, random pos`, unit: 'µs', native: 'row512', bound: CONTRACT.value, what: `${R.count} calls at random positions in [0, 2^24), µs per row` },
  // The native heatmap gives no error figure: its colour indices are checked here, in cases.mjs.
  { name: `heatmap ${H.n}×${H.d}`, unit: 'ms', native: 'heatmap2048x512', nativeUnchecked: true, bound: CONTRACT.colourIndex, what: 'median ms; error = max |colour index − float64 index|' },
  { name: `ropeCache ${RC.n}×${RC.rotaryDim}`, unit: 'ms', native: 'ropeCache131072x128', bound: CONTRACT.value, what: 'median ms; positions 0 … n−1' },
  {
    name: `applyRope ${AR.n}×${AR.heads}×${AR.headDim}`,
    unit: 'ms',
    native: 'applyRope2048x32x128',
    bound: CONTRACT.rotation,
    what: 'median ms, in place, half layout; error = max |x′ − exact| / (|x_a| + |x_b|)',
  },
  {
    name: `M-RoPE cache ${MR.n}×${MR.rotaryDim}`,
    unit: 'ms',
    native: 'mropeCache131072x128',
    bound: CONTRACT.value,
    what: `median ms; mropeSection [${MR.mropeSection}] (Qwen2-VL), base ${MR.base}, positions (t, h, w) = (i, i + i % 7, i + i % 11)`,
  },
  {
    name: `half table ${HT.n}×${HT.d}`,
    unit: 'ms',
    native: null,
    bound: CONTRACT.value,
    boundOf: halfBound,
    what: 'median ms; float16 / bfloat16 error = values that are not the float64 value rounded once',
  },
  {
    name: `half ropeCacheRows ${HR.n}×${HR.rotaryDim}`,
    unit: 'ms',
    native: 'ropeCacheRows131072x128Float16',
    // The native benchmark's error: max |decoded − float64|, half a float16 spacing below 1.
    nativeBound: 2 ** -12,
    bound: CONTRACT.value,
    boundOf: halfBound,
    what: 'median ms; positions 0 … n−1; float16 / bfloat16 error = values that are not the float64 value rounded once',
  },
];
const NATIVE_EXTRA = { 'row d=512, random pos': [], 'ropeCache 131072×128': [['ropeCacheRows131072x128', 'native C++ core: rope_cache_rows']], 'heatmap 2048×512': [['colour2048x512', 'native C++ core: colour stage alone (colourize)']] };
const BOUNDS = [
  ['js-fill', '×fill'],
  ['write-bound', '×write'],
  ['native', '×native'],
  ['js-idiomatic', '×JS'],
];

const isSinpe = (key) => key.startsWith('simd') || key.startsWith('baseline') || key === 'chunks-lifetime';

function find(result, caseName, key) {
  return result?.rows.find((r) => r.case === caseName && r.key === key) ?? null;
}

// Median in the case's unit (row case: µs per row).
function medianOf(result, native, c, key) {
  if (key === 'native') {
    const v = native?.cases?.[c.native]?.ms;
    return v == null ? null : c.unit === 'µs' ? v * 1000 : v;
  }
  const r = find(result, c.name, key);
  if (!r || r.reps === 0) return null;
  return c.unit === 'µs' ? r.ms * 1000 : r.ms;
}

function fmtTime(v) {
  if (v == null || !Number.isFinite(v)) return '—';
  if (v >= 100) return v.toFixed(0);
  if (v >= 10) return v.toFixed(1);
  if (v >= 1) return v.toFixed(2);
  if (v >= 0.1) return v.toFixed(3);
  return v.toFixed(4);
}

// time / bound: "2.9×" when slower than the bound, "1/26" when 26× faster.
function fmtRatio(t, bound) {
  if (t == null || bound == null || !(t > 0) || !(bound > 0)) return '—';
  const r = t / bound;
  if (r >= 1) return `${r >= 10 ? r.toFixed(0) : r.toFixed(2)}×`;
  const inv = 1 / r;
  return `1/${inv >= 10 ? inv.toFixed(0) : inv.toFixed(1)}`;
}

function fmtErr(e) {
  if (e == null) return '—';
  if (typeof e === 'string') return e;
  if (e === 0) return '0';
  if (Number.isInteger(e)) return String(e);
  return e.toExponential(1);
}

function markdownTable(header, rows, rightFrom = 1) {
  const all = [header, ...rows];
  const width = header.map((_, i) => Math.max(...all.map((r) => [...String(r[i])].length)));
  const right = (i) => i >= rightFrom;
  const line = (r) => `| ${r.map((cell, i) => (right(i) ? String(cell).padStart(width[i]) : String(cell).padEnd(width[i]))).join(' | ')} |`;
  const sep = `|${width.map((w, i) => (right(i) ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
  return [line(header), sep, ...rows.map(line)].join('\n');
}

// One case: every method with its medians and error, then the sinpe methods'
// ratios to each bound of the same run.
function caseTables(c, node, chromium, native) {
  const methods = [];
  for (const res of [node, chromium]) for (const r of res?.rows ?? []) if (r.case === c.name && !methods.some((m) => m.key === r.key)) methods.push(r);
  const rows = methods
    .filter((m) => m.reps > 0)
    .map(({ key, method }) => {
      const en = fmtErr(find(node, c.name, key)?.err);
      const ec = fmtErr(find(chromium, c.name, key)?.err);
      const err = !node ? ec : !chromium || en === ec ? en : `${en} / ${ec}`;
      return [method, fmtTime(medianOf(node, native, c, key)), fmtTime(medianOf(chromium, native, c, key)), err];
    });
  const nat = native?.cases?.[c.native];
  if (nat) {
    const v = medianOf(null, native, c, 'native');
    rows.push([`native C++ core, ${native.flags} (no JS, no copy)`, fmtTime(v), fmtTime(v), fmtErr(nat.err)]);
  }
  for (const [key, label] of NATIVE_EXTRA[c.name] ?? []) {
    const x = native?.cases?.[key];
    if (x) rows.push([label, fmtTime(x.ms), fmtTime(x.ms), fmtErr(x.err)]);
  }
  const main = markdownTable(['method', `Node ${c.unit}`, `Chromium ${c.unit}`, 'error'], rows);
  const ratioRows = methods
    .filter((m) => isSinpe(m.key) && m.reps > 0)
    .map(({ key, method }) => [
      method.replace(/^sinpe /, ''),
      ...BOUNDS.map(([b]) => fmtRatio(medianOf(node, native, c, key), medianOf(node, native, c, b))),
      ...BOUNDS.map(([b]) => fmtRatio(medianOf(chromium, native, c, key), medianOf(chromium, native, c, b))),
    ]);
  const ratios = markdownTable(['sinpe method', ...BOUNDS.map(([, l]) => `Node ${l}`), ...BOUNDS.map(([, l]) => `Chromium ${l}`)], ratioRows);
  return `**${c.name}** (${c.what})\n\n${main}\n\n${ratios}`;
}

function tables(node, chromium, native) {
  return CASES.map((c) => caseTables(c, node, chromium, native)).join('\n\n');
}

// ------------------------------------------------------------------ contract

// Every sinpe value (both flavours, both runtimes, native) within the
// contract, and every case checked in each runtime that ran: an error that is
// not a number at most the bound (NaN, Infinity, missing) is a violation.
function contractViolations(results, native) {
  const out = [];
  for (const res of results) {
    if (!res) continue;
    for (const c of CASES)
      if (!res.rows.some((r) => r.case === c.name && isSinpe(r.key) && typeof r.err === 'number'))
        out.push(`${res.env}: ${c.name}: no sinpe method checked`);
    for (const r of res.rows) {
      if (!isSinpe(r.key)) continue;
      const c = CASES.find((x) => x.name === r.case);
      const bound = r.key === 'chunks-lifetime' ? 0 : (c?.boundOf?.(r.key) ?? c?.bound);
      if (!(typeof r.err === 'number' && r.err <= bound)) out.push(`${res.env}: ${r.case}: ${r.method}: error ${errText(r.err)} (limit ${bound})`);
    }
  }
  if (native)
    for (const c of CASES) {
      if (c.native === null) continue; // no native counterpart
      const x = native.cases?.[c.native];
      const bound = c.nativeBound ?? c.bound;
      if (!x) out.push(`native: ${c.name}: missing`);
      else if (c.nativeUnchecked ? x.err !== null : !(typeof x.err === 'number' && x.err <= bound))
        out.push(`native: ${c.name}: error ${errText(x.err)} (limit ${bound})`);
    }
  return out;
}

// An error for a violation message: NaN and infinite errors reach here as null
// (JSON has neither), and so does a missing one.
const errText = (e) => (e == null ? 'NaN, infinite or missing' : fmtErr(e));

// The number of sinpe methods whose values were checked, over the runtimes that ran.
function checkedCount(results, native) {
  let n = 0;
  for (const res of results) n += res?.rows.filter((r) => isSinpe(r.key) && typeof r.err === 'number').length ?? 0;
  if (native) n += CASES.filter((c) => c.native !== null && !c.nativeUnchecked && typeof native.cases?.[c.native]?.err === 'number').length;
  return n;
}

// ------------------------------------------------------------------ goals

// The goals, each from one runtime's medians: [label, value, pass].
function goals(res, native, env) {
  if (!res) return [];
  const [Tc, Rc, Hc, RCc, ARc, MRc, HTc, HRc] = CASES;
  const m = (c, key) => medianOf(res, native, c, key);
  const out = [];
  const add = (text, pass, detail) => out.push({ env, text, pass, detail });
  const ratio = (a, b) => (a != null && b != null ? a / b : null);
  const line = (text, value, pass, detail) => add(text, value == null ? null : pass, detail);

  let r = ratio(m(Tc, 'simd'), m(Tc, 'js-fill'));
  line(`table(${T.n}, ${T.d}, {out}) ≤ 2.5× JS out.fill`, r, r <= 2.5, `${fmtTime(m(Tc, 'simd'))} ms vs ${fmtTime(m(Tc, 'js-fill'))} ms = ${r?.toFixed(2)}×`);
  r = ratio(m(Tc, 'simd-chunks'), m(Tc, 'js-fill'));
  line(
    `prepare(${T.d}).chunks(0, ${T.n}, …) ≤ 1.3× JS out.fill (callback reads the view)`,
    r,
    r <= 1.3,
    `${fmtTime(m(Tc, 'simd-chunks'))} ms vs ${fmtTime(m(Tc, 'js-fill'))} ms = ${r?.toFixed(2)}×`,
  );
  const need = env === 'node' ? 6 : 3.5;
  r = ratio(m(Rc, 'js-idiomatic'), m(Rc, 'simd-prepared'));
  line(
    `one row d=${R.d}, random position < 2^24, prepare(${R.d}).rows(p, 1, out) ≥ ${need}× faster than the idiomatic JS row`,
    r,
    r >= need,
    `${fmtTime(m(Rc, 'simd-prepared'))} µs vs ${fmtTime(m(Rc, 'js-idiomatic'))} µs = ${r?.toFixed(1)}×`,
  );
  r = ratio(m(Rc, 'js-idiomatic'), m(Rc, 'simd-encode'));
  line(`one row: encode([p], ${R.d}) faster than the idiomatic JS row`, r, r > 1, `${fmtTime(m(Rc, 'simd-encode'))} µs vs ${fmtTime(m(Rc, 'js-idiomatic'))} µs = ${r?.toFixed(2)}×`);
  r = ratio(m(Hc, 'js-idiomatic'), m(Hc, 'simd'));
  line(`heatmap ${H.n}×${H.d} ≥ 15× faster than the JS Uint32Array-LUT loop`, r, r >= 15, `${fmtTime(m(Hc, 'simd'))} ms vs ${fmtTime(m(Hc, 'js-idiomatic'))} ms = ${r?.toFixed(1)}×`);
  r = ratio(m(Hc, 'simd'), m(Hc, 'native'));
  line(`heatmap ${H.n}×${H.d} ≤ 1.3× the native heatmap`, r, r <= 1.3, `${fmtTime(m(Hc, 'simd'))} ms vs ${fmtTime(m(Hc, 'native'))} ms = ${r?.toFixed(2)}×`);
  r = ratio(m(RCc, 'js-idiomatic'), m(RCc, 'simd'));
  line(`ropeCache ${RC.n} positions × rotaryDim ${RC.rotaryDim} ≥ 20× faster than the JS float64 loop`, r, r >= 20, `${fmtTime(m(RCc, 'simd'))} ms vs ${fmtTime(m(RCc, 'js-idiomatic'))} ms = ${r?.toFixed(1)}×`);
  r = ratio(m(ARc, 'js-idiomatic'), m(ARc, 'simd'));
  line(
    `applyRope ${AR.n} tokens × ${AR.heads} heads × ${AR.headDim} (half) ≥ 2× faster than the JS loop with a float64 cache, copies included`,
    r,
    r >= 2,
    `${fmtTime(m(ARc, 'simd'))} ms vs ${fmtTime(m(ARc, 'js-idiomatic'))} ms = ${r?.toFixed(2)}×`,
  );
  r = ratio(m(MRc, 'simd'), m(RCc, 'simd'));
  line(
    `M-RoPE cache ${MR.n} tokens, rotaryDim ${MR.rotaryDim} (mropeSection [${MR.mropeSection}]) ≤ 1.5× the one-axis ropeCache of as many positions`,
    r,
    r <= 1.5,
    `${fmtTime(m(MRc, 'simd'))} ms vs ${fmtTime(m(RCc, 'simd'))} ms = ${r?.toFixed(2)}×; ${fmtRatio(m(MRc, 'simd'), m(MRc, 'js-fill'))} JS fill`,
  );
  r = ratio(m(MRc, 'js-idiomatic'), m(MRc, 'simd'));
  line(
    `M-RoPE cache ${MR.n} tokens ≥ 10× faster than the idiomatic JS loop`,
    r,
    r >= 10,
    `${fmtTime(m(MRc, 'simd'))} ms vs ${fmtTime(m(MRc, 'js-idiomatic'))} ms = ${r?.toFixed(1)}×`,
  );
  // One row: each per-call method within 1.5× the prepared encoder's same call
  // (rows into out against rows into out; encode's fresh array against the
  // prepared encode's fresh array), each flavour: the cost of the per-call plan.
  for (const flavour of ['simd', 'baseline'])
    for (const [key, call, preparedKey, preparedCall] of [
      ['rows', `rows(p, 1, ${R.d}, {out})`, 'prepared', 'prepare(d).rows(p, 1, out)'],
      ['encode', `encode([p], ${R.d})`, 'prepared-encode', 'prepare(d).encode([p])'],
    ]) {
      r = ratio(m(Rc, `${flavour}-${key}`), m(Rc, `${flavour}-${preparedKey}`));
      line(
        `one row (${flavour}): ${call} ≤ 1.5× ${preparedCall}`,
        r,
        r <= 1.5,
        `${fmtTime(m(Rc, `${flavour}-${key}`))} µs vs ${fmtTime(m(Rc, `${flavour}-${preparedKey}`))} µs = ${r?.toFixed(2)}×`,
      );
    }
  // Half precision: each dtype within 2× the float32 time of the same call, each flavour.
  for (const [c, call] of [
    [HTc, `table(${HT.n}, ${HT.d}, {dtype})`],
    [HRc, `ropeCacheRows(0, ${HR.n}, ${HR.rotaryDim}, {dtype})`],
  ])
    for (const flavour of ['simd', 'baseline'])
      for (const dtype of ['float16', 'bfloat16']) {
        r = ratio(m(c, `${flavour}-${dtype}`), m(c, flavour));
        line(
          `${dtype} output (${flavour}): ${call} ≤ 2× the float32 call`,
          r,
          r <= 2,
          `${fmtTime(m(c, `${flavour}-${dtype}`))} ms vs ${fmtTime(m(c, flavour))} ms = ${r?.toFixed(2)}×`,
        );
      }
  return out;
}

function goalLines(list, label) {
  return list.map((g) => `- ${g.pass == null ? 'N/A ' : g.pass ? 'PASS' : 'FAIL'} (${label}) ${g.text}: ${g.pass == null ? 'not measured' : g.detail}`).join('\n');
}

// ------------------------------------------------------------------ docs/performance.md

function docsPage(report) {
  const m = report.machine;
  return `# Performance

\`npm run bench\` (it builds first, then takes a few minutes) runs Node, headless
Chromium (Debian's \`chromium\` driven by \`playwright-core\`, cross-origin isolated so
\`performance.now()\` is fine-grained) and the native core built with \`-O3 -march=native\`,
each in its own process with both wasm flavours loaded side by side, prints the tables
below with the goals, and writes \`build/bench/latest.json\`. \`npm run bench -- --quick\`
(part of \`npm test\`) does the same with a few timed runs per method: it checks every
value and asserts nothing about time. \`npm run bench -- --update-docs\` rewrites this
file from the run.

Every figure is the median of at least ${report.effort.minReps} timed runs after a warm-up; the
methods of a case take turns run by run, so load from elsewhere hits them alike. Every value of
every sinpe method is checked against the float64 formula (the error column). The bounds, measured
in the same run: **JS fill** writes the same output array in plain JS (the memory bound);
the **write-only bound** copies the same number of bytes out of wasm memory with
\`out.set(view)\` in the package's chunk size, computing nothing; **native** is the same core
compiled for the CPU; the **idiomatic JS** loop computes each value with \`Math.sin\`/\`Math.cos\`
in float64 (frequencies or caches precomputed once). Ratios are time / bound: 2.5× = 2.5 times
the bound's time, 1/26 = 26 times faster.

Latest run (${report.date}): ${m.cpu}, ${m.cores} cores (${m.widestSimd}), ${m.memoryGiB} GiB, ${m.os};
${report.node?.runtime ?? 'Node: not run'}; ${report.chromium?.runtime ?? 'Chromium: not run'} (headless);
wasm built with Emscripten ${m.emscripten ?? '?'}; native: ${report.native?.compiler ?? 'not run'}, ${report.native?.flags ?? ''}.
Load average (1, 5, 15 min) ${report.loadAverage.before.join(', ')} before the run, ${report.loadAverage.after.join(', ')} after:
a shared machine, where the same case has differed by up to about 50 % between runs under load.

${report.tables}

Goals, from this run:

${report.goalText}
`;
}

function updateDocs(section) {
  writeFileSync(`${root}docs/performance.md`, section);
}

// ------------------------------------------------------------------ main

const q = quick ? ['--quick'] : [];
const node = args.has('--skip-node') ? null : await runJson('node', process.execPath, ['tests/bench/node.mjs', ...q]);
const chromium = args.has('--skip-chromium') ? null : await runJson('chromium', process.execPath, ['tests/bench/browser.mjs', ...q]);
let native = null;
if (!args.has('--skip-native')) {
  const nb = nativeBinary();
  if (nb) {
    native = await runJson('native', nb.bin, q);
    if (native) native.flags = nb.flags;
  }
}

const round2 = (xs) => xs.map((x) => +x.toFixed(2));
const report = {
  date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
  command: `node tests/bench/run.mjs ${[...args].join(' ')}`.trim(),
  quick,
  machine: machine(),
  loadAverage: { before: round2(loadBefore), after: round2(loadavg()) },
  effort: node?.effort ?? chromium?.effort ?? null,
  node,
  chromium,
  native,
};
report.tables = tables(node, chromium, native);
report.goals = [...goals(node, native, 'node'), ...goals(chromium, native, 'chromium')];
report.goalText = [goalLines(report.goals.filter((g) => g.env === 'node'), 'Node'), goalLines(report.goals.filter((g) => g.env === 'chromium'), 'Chromium')]
  .filter(Boolean)
  .join('\n');
const violations = contractViolations([node, chromium], native);
// The contract as a goal line too: the worst error of each kind over every sinpe method run.
{
  const worst = new Map();
  for (const res of [node, chromium])
    for (const r of res?.rows ?? []) {
      const c = CASES.find((x) => x.name === r.case);
      if (!c || !isSinpe(r.key) || r.key === 'chunks-lifetime' || typeof r.err !== 'number') continue;
      if (!(worst.get(c.bound)?.err >= r.err)) worst.set(c.bound, { err: r.err, where: `${res.env}, ${r.case}, ${r.method}` });
    }
  const parts = [...worst].map(([bound, w]) => `worst ${fmtErr(w.err)} of limit ${bound} (${w.where})`);
  const ran = [node, chromium].filter(Boolean).map((r) => r.env);
  report.goalText += `\n- ${violations.length ? 'FAIL' : 'PASS'} (${[...ran, native ? 'native' : null].filter(Boolean).join(', ')}) every sinpe value within the accuracy contract, SIMD and baseline: ${violations.length ? `${violations.length} outside` : parts.join('; ')}`;
}
report.contract = { violations, limits: CONTRACT };
const skipped = [...(node?.skipped ?? []), ...(chromium?.skipped ?? [])];
report.skipped = skipped;
failures.push(...violations.map((v) => `outside the contract: ${v}`));
// A method the package lacks is a failure, not a skipped row.
failures.push(...skipped.map((s) => `missing from the package: pe.${s.api} (${s.case})`));
report.failures = failures;

const m = report.machine;
console.log(`\nsinpe benchmark${quick ? ' (quick: few runs, timings indicative only)' : ''}, ${report.date}`);
console.log(`${m.cpu}, ${m.cores} cores (${m.widestSimd}), ${m.os}; load average ${report.loadAverage.before.join(' ')} → ${report.loadAverage.after.join(' ')}`);
console.log(`${node?.runtime ?? 'Node: not run'} | ${chromium?.runtime ?? 'Chromium: not run'} | native: ${native ? `${native.compiler}, ${native.flags}` : 'not run'}\n`);
console.log(report.tables);
console.log(`\nGoals (reported, never asserted):\n${report.goalText}`);
for (const s of skipped) console.log(`MISSING: pe.${s.api} (${s.case}): its methods were not run`);
console.log(`\naccuracy contract: ${violations.length === 0 ? 'every sinpe value within it' : `${violations.length} violation(s)`}`);
// scripts/test.sh reads this line for the suite's count.
console.log(`bench: ${checkedCount([node, chromium], native)} sinpe methods checked against the float64 reference`);

writeFileSync(`${outDir}/latest.json`, `${JSON.stringify(report, null, 1)}\n`);
// scripts/test.sh prints the lines suites append to SINPE_SUMMARY.
if (process.env.SINPE_SUMMARY) {
  const checked = checkedCount([node, chromium], native);
  const passed = report.goals.filter((g) => g.pass).length;
  appendFileSync(
    process.env.SINPE_SUMMARY,
    `bench${quick ? ' --quick' : ''}: ${checked} sinpe methods checked (Node, Chromium${native ? ', native' : ''}), ${violations.length} outside the contract; goals ${passed}/${report.goals.length} PASS${quick ? ' (quick timings, indicative only)' : ''}\n`,
  );
}
console.log('wrote build/bench/latest.json');
if (args.has('--update-docs')) {
  if (quick || !node || !chromium || !native) {
    failures.push('--update-docs needs a full run with Node, Chromium and native');
  } else {
    updateDocs(docsPage(report));
    console.log('rewrote docs/performance.md');
  }
}
if (failures.length) {
  console.error(`\nfailures:\n${failures.map((f) => `  ${f}`).join('\n')}`);
  process.exit(1);
}
