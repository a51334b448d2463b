// Benchmark (not a test; it asserts nothing about time): how fast the lesson
// site repaints in headless Chromium.
//
// 0. Every lesson opened N times at its defaults (a fresh page each time):
//    the first render's duration (every section computing and drawing its
//    figures, main.js's render) and each figure's first draw (its d3 or canvas
//    work, window.sinpeSite.figures); medians over the N loads. The update
//    time of each figure is its draw during the keyboard steps of part 1.
// 1. Every lesson at the largest sizes its controls allow (from the lesson
//    registry's limits): each slider of the lesson's control panel is focused
//    and stepped with the arrow keys, alternately right and left. A step's
//    repaint time runs from the keydown to the end of the paint of the frame
//    that shows the new state (key-step.mjs: input to next paint). Reported:
//    the median over all steps of the lesson, and the slowest slider's
//    median; goal ≤ 16 ms at the lesson's defaults (also measured), ≤ 33 ms
//    at the largest sizes. A figure whose work does not fit
//    a frame is computed across frames (its box is aria-busy meanwhile): the
//    "settled" time runs until no part of the page is busy any more.
// 2. The heatmap lesson while the d_model and max_len sliders are dragged
//    (2048 × 512): frames per second and the time of one redraw. Each mouse
//    move changes the slider by one step; renders ≈ inputs means no value
//    change was dropped.
// 3. The rope lesson's "last position L" slider (half precision, every
//    position 0 … L) dragged with the mouse over its largest values
//    (8192 → 32768 → 8192, every value of the slider on the way): per update,
//    the time from an input to the end of the first chart draw that shows its
//    value or a newer one (median, p90, largest), the values shown (the others
//    dropped for a newer one), and renders, chart draws against inputs. Goal:
//    an update within two frames (≈ 33 ms) at the largest L.
//
// Usage: npm run bench:site [-- --steps 8] [-- --loads 5] [-- --lessons formula,waves] [-- --parts 0,1,2,3]
// (--parts 3 --lessons rope: only the drag of the rope lesson's L)
// Builds the site if needed and serves a private copy of it (or measures SITE_URL).
import { launch, serveBuiltSite } from './helpers.mjs';
import { timedKeyStep } from './key-step.mjs';
import { LESSONS } from '../../web/src/lessons/index.js';
import { FIELDS } from '../../web/src/model/fields.js';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const STEPS = Number(arg('steps', 8)); // key presses per slider
const LOADS = Number(arg('loads', 5)); // fresh loads per lesson (part 0)
const ONLY = arg('lessons', '')?.split(',').filter(Boolean);
const PARTS = arg('parts', '0,1,2,3').split(',').map(Number);

// SITE_URL: measure a site served elsewhere (say an older build, for a before/after table)
const served = process.env.SITE_URL ? { url: process.env.SITE_URL, close() {} } : await serveBuiltSite();
const site = served.url;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : NaN;
};
const round = (v) => +v.toFixed(1);

/** The URL of a lesson at the largest sizes its controls allow. */
function largest(lesson) {
  const params = new URLSearchParams({ lesson: lesson.id });
  for (const key of lesson.controls) {
    const field = FIELDS[key];
    if (!['int', 'number', 'dModel'].includes(field.type)) continue;
    if (!['d', 'len', 'bits', 'upto'].includes(key)) continue; // sizes only; positions and offsets stay at their defaults
    const max = lesson.limits?.[key]?.[1] ?? (typeof field.max === 'number' ? field.max : undefined);
    if (max !== undefined) params.set(key, String(key === 'd' ? max - (max % 4) : max));
  }
  return `#${params}`;
}

const browser = await launch({ viewport: { width: 1280, height: 900 } });
const keyboard = [];
const firsts = [];
const figureUpdates = new Map(); // lesson → figure → [ms]
const drags = [];
const ropeDrags = [];
let simd;
try {
  const page = await browser.context.newPage();
  await page.goto(site);
  await page.waitForSelector('html[data-ready="true"]');
  simd = await page.evaluate(() => window.sinpeSite.simd);
  console.log(`SIMD: ${simd}`);

  // ---- 0. first render of every lesson, N fresh loads ----
  for (const lesson of LESSONS) {
    if (!PARTS.includes(0)) break;
    if (ONLY.length && !ONLY.includes(lesson.id)) continue;
    const renders = [];
    const draws = new Map();
    for (let n = 0; n < LOADS; n++) {
      await page.goto('about:blank');
      await page.goto(`${site}#lesson=${lesson.id}&lang=en`);
      await page.waitForSelector('html[data-ready="true"]');
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const { first, figures } = await page.evaluate(() => {
        const [r] = window.sinpeSite.renders;
        return { first: r, figures: window.sinpeSite.figures.filter((f) => r && f.time >= r.time && f.time <= r.time + r.duration) };
      });
      if (first) renders.push(first.duration);
      const seen = new Set();
      for (const f of figures) {
        // a figure drawn twice in one render counts its first draw
        if (seen.has(f.name)) continue;
        seen.add(f.name);
        draws.set(f.name, [...(draws.get(f.name) ?? []), f.ms]);
      }
    }
    const row = { lesson: lesson.id, loads: renders.length, firstRenderMs: round(median(renders)), figures: [...draws].map(([name, ms]) => ({ name, firstDrawMs: +median(ms).toFixed(2) })) };
    firsts.push(row);
    console.log(row.lesson, row.firstRenderMs, row.figures.length, 'figures');
  }

  // ---- 1. keyboard steps, every lesson, at its defaults and at its largest sizes ----
  for (const lesson of LESSONS) {
    if (!PARTS.includes(1)) break;
    if (ONLY.length && !ONLY.includes(lesson.id)) continue;
    for (const sizes of ['defaults', 'largest']) {
    const hash = sizes === 'defaults' ? `#lesson=${lesson.id}` : largest(lesson);
    if (sizes === 'largest' && hash === `#lesson=${lesson.id}`) continue; // no sizes to raise
    await page.goto('about:blank');
    await page.goto(`${site}${hash}`);
    await page.waitForSelector('html[data-ready="true"]');
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const keys = await page.$$eval('.lesson-controls input.slider', (ss) => [...new Set(ss.map((s) => s.dataset.key))]);
    const perSlider = [];
    const all = [];
      const settles = [];
    for (const key of keys) {
      const slider = `.lesson-controls input.slider[data-key="${key}"]`;
      await page.focus(slider);
      const times = [];
      for (let i = 0; i < STEPS; i++) {
        const before = await page.evaluate(() => window.sinpeSite.state);
        const ms = await timedKeyStep(page, i % 2 === 0 ? 'ArrowRight' : 'ArrowLeft', slider);
        // until every figure computed across frames shows the new state
        const settled = await page.evaluate(
          () =>
            new Promise((resolve) => {
              const wait = () => {
                if (!document.querySelector('[aria-busy="true"]')) resolve(performance.now() - window.benchStep.t0);
                else if (performance.now() - window.benchStep.t0 > 60000) resolve(NaN);
                else requestAnimationFrame(wait);
              };
              wait();
            }),
        );
        const after = await page.evaluate(() => window.sinpeSite.state);
        if (after[key] === before[key]) continue; // at the end of its range: nothing to draw
        if (Number.isFinite(ms)) times.push(ms);
        if (Number.isFinite(settled)) settles.push(settled);
        // each figure's draw in this step
        const drawn = await page.evaluate(() => window.sinpeSite.figures.filter((f) => f.time >= window.benchStep.t0));
        const perFigure = figureUpdates.get(lesson.id) ?? figureUpdates.set(lesson.id, new Map()).get(lesson.id);
        for (const f of drawn) perFigure.set(f.name, [...(perFigure.get(f.name) ?? []), f.ms]);
      }
      if (times.length) {
        perSlider.push({ key, median: median(times) });
        all.push(...times);
      }
    }
    const slowest = perSlider.reduce((a, b) => (b.median > (a?.median ?? -1) ? b : a), null);
    const row = { lesson: lesson.id, sizes, hash, steps: all.length, medianMs: round(median(all)), slowest: slowest ? `${slowest.key} ${round(slowest.median)}` : '—', settledMs: round(median(settles)), settledMaxMs: round(Math.max(...settles)) };
    keyboard.push(row);
    console.log(row);
    }
  }

  // ---- 2. slider drags, heatmap lesson ----
  async function drag(key, from, to, fixed) {
    await page.goto('about:blank');
    await page.goto(`${site}#lesson=heatmap&${fixed}&layout=concat`);
    await page.waitForSelector('html[data-ready="true"]');
    const slider = page.locator(`input.slider[data-key="${key}"]`);
    await slider.scrollIntoViewIfNeeded();
    const box = await slider.boundingBox();
    const [min, max, step] = await slider.evaluate((el) => [Number(el.min), Number(el.max), Number(el.step) || 1]);
    const steps = Math.round(Math.abs(to - from) / step);
    await slider.evaluate((el) => {
      window.benchInputs = 0;
      el.addEventListener('input', () => window.benchInputs++);
    });
    const xOf = (v) => box.x + 8 + ((v - min) / (max - min)) * (box.width - 16);
    const y = box.y + box.height / 2;
    await page.mouse.move(xOf(from), y);
    await page.mouse.down();
    const t0 = await page.evaluate(() => performance.now());
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i <= steps; i++) {
        const v = round === 0 ? from + ((to - from) * i) / steps : to - ((to - from) * i) / steps;
        await page.mouse.move(xOf(v), y);
      }
    }
    await page.mouse.up();
    const t1 = await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(performance.now()))));
    const inputs = await page.evaluate(() => window.benchInputs);
    const renders = await page.evaluate(({ t0, t1 }) => window.sinpeSite.renders.filter((r) => r.time >= t0 && r.time <= t1), { t0, t1 });
    const intervals = renders.slice(1).map((r, i) => r.time - renders[i].time);
    const result = {
      slider: key,
      range: `${from} → ${to} → ${from}`,
      inputs,
      frames: renders.length,
      medianFps: round(1000 / median(intervals)),
      averageFps: round(renders.length / ((t1 - t0) / 1000)),
      medianRedrawMs: +median(renders.map((r) => r.duration)).toFixed(2),
    };
    drags.push(result);
    console.log(result);
  }
  if (PARTS.includes(2) && (!ONLY.length || ONLY.includes('heatmap'))) {
    await drag('d', 1536, 2048, 'd=2048&len=512'); // 1536…2048 columns × 512 rows
    await drag('len', 256, 512, 'd=2048&len=512'); // 2048 columns × 256…512 rows
  }

  // ---- 3. the rope lesson's L dragged with the mouse over its largest values ----
  async function dragUpto(from, to) {
    await page.goto('about:blank');
    await page.goto(`${site}#lesson=rope&upto=${from}`);
    await page.waitForSelector('html[data-ready="true"]');
    const slider = page.locator('input.slider[data-key="upto"]');
    await slider.scrollIntoViewIfNeeded();
    // the section draws once in view: wait until it shows `from`
    await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]') && window.sinpeSite.figures.some((f) => f.name === 'half'), null, { timeout: 120000 });
    const box = await slider.boundingBox();
    const [min, max, step] = await slider.evaluate((el) => [Number(el.min), Number(el.max), Number(el.step)]);
    // the slider is logarithmic: its positions are log10 of L
    const [a, b] = [Math.log10(from), Math.log10(to)];
    const steps = Math.round((b - a) / step);
    await slider.evaluate((el) => {
      window.benchInputs = [];
      // the time before any listener (a quick render runs in the microtask after the control's own listener),
      // the value in use once the control's listener has written the state
      window.addEventListener('input', (e) => e.target === el && window.benchInputs.push({ time: performance.now(), upto: null }), { capture: true });
      el.addEventListener('input', () => (window.benchInputs.at(-1).upto = window.sinpeSite.state.upto));
    });
    const xOf = (v) => box.x + 8 + ((v - min) / (max - min)) * (box.width - 16);
    const y = box.y + box.height / 2;
    await page.mouse.move(xOf(a), y);
    await page.mouse.down();
    const t0 = await page.evaluate(() => performance.now());
    let tTop = 0;
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i <= steps; i++) await page.mouse.move(xOf(round === 0 ? a + ((b - a) * i) / steps : b - ((b - a) * i) / steps), y);
      if (round === 0) tTop = await page.evaluate(() => performance.now());
    }
    await page.mouse.up();
    // until the chart shows the last value
    await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'), null, { timeout: 120000 });
    const { inputs, renders, draws } = await page.evaluate((t0) => ({
      inputs: window.benchInputs,
      renders: window.sinpeSite.renders.filter((r) => r.time >= t0),
      draws: window.sinpeSite.figures.filter((f) => f.name === 'half' && f.time >= t0),
    }), t0);
    // per update: from an input to the end of the first chart draw that shows its value or a newer one
    // (a value dropped for a newer one is shown by that newer one's draw)
    const latencies = [];
    const up = []; // the sweep up (new positions to compute) and down (all computed)
    const down = [];
    inputs.forEach((e, i) => {
      const d = draws.find((d) => d.time >= e.time && inputs.some((n, j) => j >= i && n.time <= d.time && n.upto === d.state?.upto));
      if (!d) return;
      latencies.push(d.time + d.ms - e.time);
      (e.time < tTop ? up : down).push(d.time + d.ms - e.time);
    });
    const p90of = (xs) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(xs.length * 0.9))];
    let shown = 0;
    const values = new Set(inputs.map((e) => e.upto));
    for (const v of values) if (draws.some((d) => d.state?.upto === v)) shown++;
    const sorted = [...latencies].sort((x, y) => x - y);
    const p90 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.9))];
    const result = {
      range: `L ${from} → ${to} → ${from}`,
      inputs: inputs.length,
      values: values.size,
      renders: renders.length,
      draws: draws.length,
      valuesShown: shown,
      medianUpdateMs: round(median(latencies)),
      p90UpdateMs: round(p90 ?? NaN),
      maxUpdateMs: round(sorted.at(-1) ?? NaN),
      upMs: `${round(median(up))}, ${round(p90of(up) ?? NaN)}`,
      downMs: `${round(median(down))}, ${round(p90of(down) ?? NaN)}`,
      medianRenderMs: +median(renders.map((r) => r.duration)).toFixed(2),
      medianDrawMs: +median(draws.map((d) => d.ms)).toFixed(2),
      totalMs: round((draws.at(-1)?.time ?? t0) - t0),
    };
    ropeDrags.push(result);
    console.log(result);
  }
  if (PARTS.includes(3) && (!ONLY.length || ONLY.includes('rope'))) await dragUpto(8192, 32768);
  await page.close();
} finally {
  await browser.close();
  await served.close();
}

console.log(`\nfirst render and figure draws, headless Chromium (SIMD ${simd}), defaults, median of ${LOADS} fresh loads; update = the figure's draw during the keyboard steps below (largest sizes)`);
console.log('lesson | first render (ms) | figure | first draw (ms) | update draw (ms, steps)');
for (const r of firsts) {
  const updates = figureUpdates.get(r.lesson) ?? new Map();
  const names = [...new Set([...r.figures.map((f) => f.name), ...updates.keys()])];
  if (!names.length) console.log(`${r.lesson} | ${r.firstRenderMs} | — | — | —`);
  names.forEach((name, i) => {
    const first = r.figures.find((f) => f.name === name)?.firstDrawMs ?? '—';
    const u = updates.get(name);
    console.log(`${i ? '' : r.lesson} | ${i ? '' : r.firstRenderMs} | ${name} | ${first} | ${u ? `${median(u).toFixed(2)} (${u.length})` : '—'}`);
  });
}
console.log(`\nkeyboard step → repaint, headless Chromium (SIMD ${simd}), ${STEPS} steps per slider; goal: median ≤ 16 ms at the defaults, ≤ 33 ms at the largest sizes`);
console.log('lesson | sizes | steps | median repaint (ms) | slowest slider (median ms) | settled: median, slowest (ms)');
for (const r of keyboard) console.log(`${r.lesson} | ${r.hash.replace(/^#lesson=\w+&?/, '') || 'defaults'} | ${r.steps} | ${r.medianMs} | ${r.slowest} | ${r.settledMs}, ${r.settledMaxMs}`);
if (drags.length) {
  console.log('\nheatmap drags: slider | inputs | frames | median fps | average fps | median redraw (ms)');
  for (const r of drags) console.log(`${r.slider} (${r.range}) | ${r.inputs} | ${r.frames} | ${r.medianFps} | ${r.averageFps} | ${r.medianRedrawMs}`);
}
if (ropeDrags.length) {
  console.log('\nrope lesson, L dragged with the mouse: range | inputs (distinct values) | renders | chart draws | values shown | update ms: median, p90, largest | sweep up: median, p90 | sweep down: median, p90 | median render (ms) | median chart draw (ms) | drag → last draw (ms)');
  for (const r of ropeDrags) console.log(`${r.range} | ${r.inputs} (${r.values}) | ${r.renders} | ${r.draws} | ${r.valuesShown} | ${r.medianUpdateMs}, ${r.p90UpdateMs}, ${r.maxUpdateMs} | ${r.upMs} | ${r.downMs} | ${r.medianRenderMs} | ${r.medianDrawMs} | ${r.totalMs}`);
}
