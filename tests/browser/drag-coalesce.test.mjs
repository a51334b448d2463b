// A slider's continuous input computes only its latest value: a burst of
// input events (each in its own task, faster than frames, as a drag or a held
// key sends them) on the rope lesson's "last position L" starts far fewer
// computations of the half-precision chart than there were inputs; a newer
// value's computation drops the older one's at its next slice (no slice of
// an older value runs after a newer one started); the chart answers the last
// value before its computation ends (drawn with the positions computed so
// far, marked partial and aria-busy) and finally shows it complete. Counted
// through window.sinpeSite (computations, figures); no timing is asserted.
// npm test: quick form
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, settle } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const N = 40;
const FROM = 4096;
const HIGH = 16384; // the first half of the burst climbs here (12,288 new positions per format: many slices) …
const TO = 8192; // … and, a frame later, the second half comes down here (positions the first computation had not reached)

test(`a burst of ${N} inputs on the rope lesson's L: far fewer computations, the older ones dropped, the chart answers the last value at once and ends on it`, async () => {
  const page = await openPage(browser.context, `#lesson=rope&upto=${FROM}&lang=en`);
  const slider = page.locator('input.slider[data-key="upto"]');
  await slider.scrollIntoViewIfNeeded();
  await settle(page);
  await page.waitForFunction((from) => window.sinpeSite.figures.some((f) => f.name === 'half' && f.state?.upto === from && !f.state.partial), FROM);
  const t0 = await page.evaluate(() => performance.now());
  // the slider is logarithmic (its positions are log10 L, step 0.01): N/2 inputs up to HIGH, each in its own
  // task (faster than frames); two frames (the computation for HIGH under way); N/2 inputs down to TO
  const burst = (from, to) =>
    slider.evaluate(
      (el, { n, from, to }) =>
        new Promise((resolve) => {
          const [a, b] = [Math.log10(from), Math.log10(to)];
          const channel = new MessageChannel();
          let i = 0;
          channel.port1.onmessage = () => {
            i++;
            el.value = String(a + ((b - a) * i) / n);
            el.dispatchEvent(new Event('input', { bubbles: true }));
            if (i < n) channel.port2.postMessage(0);
            else resolve(window.sinpeSite.state.upto);
          };
          channel.port2.postMessage(0);
        }),
      { n: N / 2, from, to },
    );
  await burst(FROM, HIGH);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r)))));
  const last = await burst(HIGH, TO);
  // the slider snaps to its steps (log10 L in 0.01) and L to 3 significant digits: the last value is near TO
  assert.ok(Math.abs(last - TO) <= 0.03 * TO, `the last input set L to ${last}`);
  await settle(page);
  const { computations, draws } = await page.evaluate((t0) => ({
    computations: window.sinpeSite.computations.filter((c) => c.name === 'half' && c.time >= t0).map((c) => ({ ...c })),
    draws: window.sinpeSite.figures.filter((f) => f.name === 'half' && f.time >= t0).map((f) => f.state),
  }), t0);
  // a computation counts once it ran a slice (one dropped before its first computed nothing)
  const ran = computations.filter((c) => c.slices > 0);
  assert.ok(ran.length >= 1, 'the chart computed');
  assert.ok(ran.length <= N / 4, `${ran.length} computations (${computations.length} started) for ${N} inputs`);
  // no slice of an older value ran once a newer value's computation had started (it was dropped, or had
  // ended before); the last one ran to its end, for the last value
  const final = computations.at(-1);
  assert.deepEqual([final.state.upto, final.finished], [last, true], 'the last computation is the last value’s, finished');
  computations.slice(0, -1).forEach((c, i) => assert.ok(c.lastSlice === null || c.lastSlice <= computations[i + 1].time, `L = ${c.state.upto}: no slice after L = ${computations[i + 1].state.upto} started`));
  assert.ok(computations.slice(0, -1).some((c) => !c.finished && c.slices > 0), 'an older value’s computation was dropped unfinished');
  assert.ok(final.slices > 1, 'the last value took more than one slice');
  // the chart answered the last value with what was computed so far, then showed it whole
  const firstOfLast = draws.findIndex((s) => s?.upto === last);
  assert.ok(firstOfLast >= 0 && draws[firstOfLast].partial === true, `the first draw of L = ${last} is the partial one: ${JSON.stringify(draws)}`);
  assert.deepEqual(draws.at(-1), { upto: last, base: 10000 }, 'the chart ends on the last value, complete');
  assert.equal(await page.getAttribute('.half-chart', 'aria-busy'), null, 'no longer busy');
  assert.equal(await slider.getAttribute('aria-valuetext'), String(last));
  // the summaries say the worst case up to the last value
  const positions = await page.$$eval('.half-summary', (ps) => ps.map((p) => Number(p.dataset.position)));
  assert.equal(positions.length, 2);
  for (const p of positions) assert.ok(p >= 0 && p <= last, `worst position ${p} within 0 … ${last}`);
  assert.deepEqual(page.problems, []);
  await page.close();
});
