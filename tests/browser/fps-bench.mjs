// Benchmark (not a test): drags the d_model and max_len sliders of the
// heatmap lesson in headless Chromium while it shows a 2048 × 512 heatmap,
// and reports frames per second and the time of one redraw.
//
// Each mouse move of a drag changes the slider by one step (d_model moves in
// steps of 4, max_len in steps of 1): a drag that moved d_model by less than
// a step per mouse move would only change the value on every other move, and
// would then measure the rate of input (≈ 30 changes/s here), not of drawing.
// `inputs` counts the slider's input events; renders ≈ inputs means no value
// change was dropped.
// Usage: npm run bench:site   (builds the site if needed, serves it itself)
import { spawn, execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import { launch, root } from './helpers.mjs';

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

execFileSync('bash', ['scripts/build-site.sh'], { cwd: root, stdio: 'inherit' });
const port = await freePort();
const server = spawn(process.execPath, ['node_modules/vite/bin/vite.js', 'preview', '--config', 'web/vite.config.js', '--host', '127.0.0.1', '--strictPort', '--port', String(port)], { cwd: root, stdio: 'ignore' });
const site = `http://127.0.0.1:${port}/`;
for (let i = 0; i < 100; i++) {
  try {
    await fetch(site);
    break;
  } catch {
    await new Promise((r) => setTimeout(r, 100));
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : NaN;
};

const browser = await launch({ viewport: { width: 1280, height: 900 } });
const results = [];
try {
  const page = await browser.context.newPage();
  await page.goto(`${site}#lesson=heatmap&d=2048&len=512&layout=concat`);
  await page.waitForSelector('html[data-ready="true"]');
  console.log(`SIMD: ${await page.evaluate(() => window.sinpeSite.simd)}`);

  // Drags the slider of `key` from value `from` to `to` and back, one slider step per mouse move.
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
    const size = await page.evaluate(() => [document.querySelector('.heatmap-canvas').width, document.querySelector('.heatmap-canvas').height]);
    const intervals = renders.slice(1).map((r, i) => r.time - renders[i].time);
    const result = {
      slider: key,
      range: `${from} → ${to} → ${from}`,
      fixed,
      inputs,
      frames: renders.length,
      seconds: +((t1 - t0) / 1000).toFixed(2),
      averageFps: +(renders.length / ((t1 - t0) / 1000)).toFixed(1),
      medianFps: +(1000 / median(intervals)).toFixed(1),
      medianRedrawMs: +median(renders.map((r) => r.duration)).toFixed(2),
      p95RedrawMs: +[...renders.map((r) => r.duration)].sort((a, b) => a - b)[Math.floor(renders.length * 0.95)].toFixed(2),
      finalCanvas: size.join('×'),
    };
    results.push(result);
    console.log(result);
  }

  await drag('d', 1536, 2048, 'd=2048&len=512'); // 1536…2048 columns × 512 rows
  await drag('len', 256, 512, 'd=2048&len=512'); // 2048 columns × 256…512 rows
  await page.close();
} finally {
  await browser.close();
  server.kill();
}
console.log('\nslider | inputs | frames | median fps | average fps | median redraw (ms) | p95 redraw (ms)');
for (const r of results) console.log(`${r.slider} (${r.range}) | ${r.inputs} | ${r.frames} | ${r.medianFps} | ${r.averageFps} | ${r.medianRedrawMs} | ${r.p95RedrawMs}`);
