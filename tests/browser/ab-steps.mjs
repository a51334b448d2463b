// Two builds of the site side by side (a tool, not a test): the same
// keyboard steps (timed as fps-bench.mjs times them, key-step.mjs: keydown →
// the end of the paint that shows the new state; "settled": until no part of
// the page is aria-busy)
// and first renders, alternating between build A and build B step by step,
// so that both meet the same load of a shared machine.
//
// Usage: node tests/browser/ab-steps.mjs URL_A URL_B [steps] 'hash slider' …
// e.g. node tests/browser/ab-steps.mjs http://127.0.0.1:1/ http://127.0.0.1:2/ 6 '#lesson=rope base' '#lesson=waves&d=512&len=1024 len'
import { launch } from './helpers.mjs';
import { timedKeyStep } from './key-step.mjs';

const [urlA, urlB, stepsArg, ...cases] = process.argv.slice(2);
const STEPS = Number(stepsArg);
const median = (xs) => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  return s.length ? +s[Math.floor(s.length / 2)].toFixed(1) : NaN;
};

const browser = await launch();
try {
  const [a, b] = [await browser.context.newPage(), await browser.context.newPage()];
  for (const c of cases) {
    const [hash, key] = c.split(' ');
    const result = { A: { first: [], step: [], settled: [] }, B: { first: [], step: [], settled: [] } };
    const pages = { A: [a, urlA], B: [b, urlB] };
    for (const [name, [page, url]] of Object.entries(pages)) {
      await page.goto('about:blank');
      await page.goto(`${url}${hash}`);
      await page.waitForSelector('html[data-ready="true"]', { timeout: 300000 });
      result[name].first.push(await page.evaluate(() => window.sinpeSite.renders[0].duration));
      await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'), null, { timeout: 300000, polling: 'raf' });
      await page.focus(`input.slider[data-key="${key}"]`);
    }
    for (let i = 0; i < STEPS; i++) {
      for (const [name, [page]] of Object.entries(pages)) {
        await page.bringToFront();
        // left first: a lesson at its largest sizes has no step to the right
        const step = await timedKeyStep(page, i % 2 === 0 ? 'ArrowLeft' : 'ArrowRight');
        const settled = await page.evaluate(
          () =>
            new Promise((resolve) => {
              const wait = () => {
                const t = performance.now() - window.benchStep.t0;
                if (!document.querySelector('[aria-busy="true"]')) resolve(t);
                else if (t > 60000) resolve(NaN);
                else requestAnimationFrame(wait);
              };
              wait();
            }),
        );
        result[name].step.push(step);
        result[name].settled.push(Math.max(step, settled));
      }
    }
    const row = (n) => `${n}: first render ${median(result[n].first)} ms, step median ${median(result[n].step)} ms (max ${Math.max(...result[n].step).toFixed(1)}), settled median ${median(result[n].settled)} ms (max ${Math.max(...result[n].settled).toFixed(1)})`;
    console.log(`${hash} ${key} (${STEPS} steps each)\n  ${row('A')}\n  ${row('B')}`);
    // AB_JSON=1: every time measured, for pooling several runs
    if (process.env.AB_JSON) console.log(`AB_JSON ${JSON.stringify({ hash, key, ...result })}`);
  }
} finally {
  await browser.close();
}
