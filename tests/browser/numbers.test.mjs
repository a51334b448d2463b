// A position is written the same way in the heatmap's readout and on its
// axis, in the page's language (grouped from 10,000 on, by commas, which a
// phone never breaks a line at), on a 360 px phone.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, hoverCell } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch({ viewport: { width: 360, height: 740 } });
});
after(async () => {
  await browser?.close();
});

for (const lang of ['en', 'zh']) {
  test(`${lang}: the heatmap lesson's readout and position axis write 10,000,2xx alike`, async () => {
    const page = await openPage(browser.context, `#lesson=heatmap&start=10000200&len=100&d=64&lang=${lang}`);
    const ticks = await page.$$eval('.lesson-heatmap .heatmap-axes .axis.y .tick text', (ts) => ts.map((t) => t.textContent));
    assert.ok(ticks.length >= 2, String(ticks));
    for (const tick of ticks) assert.match(tick, /^10,000,2\d\d$/, `tick ${tick}`);
    await hoverCell(page, '.lesson-heatmap .heatmap-canvas', 3, 91);
    const readout = await page.textContent('.heatmap-readout');
    assert.match(readout, /10,000,291/, `readout: ${readout}`);
    assert.doesNotMatch(readout, /10000291/);
    assert.deepEqual(page.problems, []);
    await page.close();
  });
}
