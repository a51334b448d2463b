// Where a keyboard step's time goes (a tool, not a test): builds the site
// unminified (build/site-profile), opens a lesson, steps one slider with the
// arrow keys under Chromium's sampling profiler (CDP), and prints the step
// times and the functions with the most self time (and total time of the
// site's own functions).
//
// Usage: node tests/browser/profile-step.mjs '#lesson=waves&len=1024' [slider-key] [steps]
// (steps 0: the profile of the page's load and first render instead)
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { launch, root } from './helpers.mjs';
import { serveFolder } from './serve.mjs';
import { timedKeyStep } from './key-step.mjs';

const [hash = '#lesson=waves', key = '', stepsArg = '10'] = process.argv.slice(2);
const STEPS = Number(stepsArg);
const out = join(root, 'build', 'site-profile');
execFileSync('node', ['node_modules/vite/bin/vite.js', 'build', '--config', 'web/vite.config.js', '--logLevel', 'warn', '--minify', 'false', '--outDir', out], { cwd: root, stdio: 'inherit' });
const server = await serveFolder(out);
const browser = await launch();
try {
  const page = await browser.context.newPage();
  const t0 = Date.now();
  if (STEPS === 0) {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
    await page.goto(`${server.url}${hash}`);
    await page.waitForSelector('html[data-ready="true"]');
    const { profile } = await cdp.send('Profiler.stop');
    console.log('first render', await page.evaluate(() => window.sinpeSite.renders[0]?.duration.toFixed(1)));
    report(profile, 'load');
    process.exit(0);
  }
  await page.goto(`${server.url}${hash}`);
  await page.waitForSelector('html[data-ready="true"]');
  console.log('load', Date.now() - t0, 'ms; first render', await page.evaluate(() => window.sinpeSite.renders[0]?.duration.toFixed(1)));
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const selector = key ? `input.slider[data-key="${key}"]` : '.lesson-controls input.slider';
  await page.focus(selector);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  const events = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
  const traced = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline', transferMode: 'ReportEvents' });
  const times = [];
  for (let i = 0; i < STEPS; i++) {
    times.push(await timedKeyStep(page, i % 2 === 0 ? 'ArrowRight' : 'ArrowLeft'));
  }
  const { profile } = await cdp.send('Profiler.stop');
  await cdp.send('Tracing.end');
  await traced;
  // main-thread time per trace event kind (complete events, summed; nested kinds overlap)
  // (a page has several renderer main threads: the one with the most complete events is the page's)
  const mains = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const work = (t) => events.filter((e) => e.ph === 'X' && e.pid === t.pid && e.tid === t.tid).length;
  const main = mains.map((t) => [t, work(t)]).sort((a, b) => b[1] - a[1])[0]?.[0];
  const kinds = new Map();
  for (const e of events) {
    if (e.ph !== 'X' || !main || e.tid !== main.tid || e.pid !== main.pid) continue;
    kinds.set(e.name, (kinds.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
  }
  console.log('main thread by event (ms, summed; nested overlap):');
  for (const [k, v] of [...kinds].sort((a, b) => b[1] - a[1]).slice(0, 18)) console.log(`${v.toFixed(1).padStart(8)}  ${k}`);
  console.log('steps (ms):', times.map((t) => t.toFixed(1)).join(' '));
  const renders = await page.evaluate((n) => window.sinpeSite.renders.slice(-n).map((r) => r.duration.toFixed(1)), STEPS);
  console.log('render() (ms):', renders.join(' '));
  report(profile, `${STEPS} steps`);
} finally {
  await browser.close();
  await server.close();
}

/** Prints the functions with the most self and total time of a CPU profile. */
function report(profile, what) {
  // self and total time per function
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const dt = new Map();
  profile.samples.forEach((id, i) => dt.set(id, (dt.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000));
  const name = (n) => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber + 1}`;
  for (const [id, ms] of dt) self.set(name(byId.get(id)), (self.get(name(byId.get(id))) ?? 0) + ms);
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const total = new Map();
  for (const [id, ms] of dt) {
    const names = new Set();
    for (let n = id; n !== undefined; n = parent.get(n)) names.add(name(byId.get(n)));
    for (const nm of names) total.set(nm, (total.get(nm) ?? 0) + ms);
  }
  const top = (m, n) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `${v.toFixed(1).padStart(8)}  ${k}`).join('\n');
  console.log(`\nself time (ms, ${what}):\n${top(self, 25)}`);
  console.log(`\ntotal time (ms, ${what}):\n${top(total, 40)}`);
}
