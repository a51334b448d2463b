// Every heatmap of every lesson has its axes right after the lesson loads, in
// English and 简体中文, without being scrolled into view: sections out of view
// are content-visibility: auto, where the browser reports no resize to the
// heatmap's ResizeObserver until the section is scrolled to (the formula
// heatmap of the formula lesson and the tolerance map of the pitfalls lesson, below their
// questions, were drawn without ticks; also in a printout).
// npm test: quick form
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { LESSON_IDS } from '../../web/src/lessons/index.js';
import { launch, openPage, settle } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

for (const lang of ['en', 'zh']) {
  test(`${lang}: every heatmap of every lesson has x and y axis ticks inside its plot after load`, async () => {
    const page = await openPage(browser.context, `#lesson=${LESSON_IDS[0]}&lang=${lang}`);
    let total = 0;
    for (const lesson of LESSON_IDS) {
      await page.evaluate(({ lesson, lang }) => (location.hash = `#lesson=${lesson}&lang=${lang}`), { lesson, lang });
      await page.waitForSelector(`article[data-lesson="${lesson}"]`);
      await settle(page);
      const maps = await page.$$eval(`article[data-lesson="${lesson}"] figure.heatmap`, (figures) =>
        figures
          .filter((f) => !f.closest('[hidden]'))
          .map((f) => {
            const plot = f.querySelector('.heatmap-plot').getBoundingClientRect();
            const ticks = (axis) =>
              [...f.querySelectorAll(`.heatmap-axes .axis.${axis} .tick`)].map((t) => {
                const r = t.querySelector('line').getBoundingClientRect();
                return { text: t.querySelector('text').textContent, at: axis === 'x' ? r.left : r.top };
              });
            return { name: f.className, plot: { left: plot.left, right: plot.right, top: plot.top, bottom: plot.bottom }, x: ticks('x'), y: ticks('y') };
          }),
      );
      total += maps.length;
      for (const m of maps) {
        const where = `${lang} ${lesson} ${m.name}`;
        assert.ok(m.plot.right - m.plot.left > 0, `${where}: the plot is laid out`);
        for (const axis of ['x', 'y']) {
          const ticks = m[axis];
          assert.ok(ticks.length >= 2, `${where}: ${ticks.length} ${axis} ticks`);
          assert.equal(new Set(ticks.map((t) => t.text)).size, ticks.length, `${where}: distinct ${axis} tick labels`);
          const [lo, hi] = axis === 'x' ? [m.plot.left, m.plot.right] : [m.plot.top, m.plot.bottom];
          for (const t of ticks) assert.ok(t.at >= lo - 1 && t.at <= hi + 1, `${where}: ${axis} tick ${t.text} at ${t.at} within ${lo}…${hi}`);
        }
      }
    }
    // the formula, heatmap, binary, embeddings, relative, pitfalls and variants lessons have heatmaps (21 of them)
    assert.ok(total >= 20, `${total} heatmaps checked`);
    assert.deepEqual(page.problems, []);
    await page.close();
  });
}
