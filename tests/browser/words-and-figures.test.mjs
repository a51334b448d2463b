// What a lesson's text says of a figure is what the figure shows, on a phone
// as on a desktop, in both languages: the rope lesson's "Only the offset
// matters" text calls the added-encoding line "the dashed line", so it is drawn
// dashed at every width (a line that turns back often was drawn solid on a
// narrow chart), its legend swatch too, and the RoPE line solid.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage } from './helpers.mjs';

const browsers = {};
before(async () => {
  browsers.desktop = await launch({ viewport: { width: 1280, height: 800 } });
  browsers.phone = await launch({ viewport: { width: 390, height: 844 } });
});
after(async () => {
  for (const b of Object.values(browsers)) await b?.close();
});

for (const device of ['desktop', 'phone']) {
  for (const [lang, dashed] of [['en', /the dashed line/], ['zh', /虚线/]]) {
    test(`${device}, ${lang}: the rope lesson's "dashed line" (sinusoidal encoding added) is drawn dashed, the RoPE line solid`, async () => {
      const page = await openPage(browsers[device].context, `#lesson=rope&lang=${lang}`);
      const seen = await page.$eval('article.lesson section:has(.rope-check-verdict)', (section) => ({
        text: section.textContent,
        lines: [...section.querySelectorAll('figure.chart svg path.chart-line')].map((p) => ({ series: p.dataset.series, dash: p.getAttribute('stroke-dasharray') ?? '' })),
        swatches: [...section.querySelectorAll('.chart-legend li')].map((li) => ({ text: li.textContent, dash: li.querySelector('line')?.getAttribute('stroke-dasharray') ?? '' })),
      }));
      assert.match(seen.text, dashed, 'the text names the dashed line');
      assert.equal(seen.lines.length, 2, 'two lines: RoPE and the encoding added');
      assert.equal(seen.lines[0].dash, '', `the RoPE line is solid (${seen.lines[0].series})`);
      assert.notEqual(seen.lines[1].dash, '', `the added line is dashed (${seen.lines[1].series})`);
      assert.deepEqual(seen.swatches.map((s) => s.dash), seen.lines.map((l) => l.dash), 'the legend shows the lines as drawn');
      assert.deepEqual(page.problems, []);
      await page.close();
    });
  }
}
