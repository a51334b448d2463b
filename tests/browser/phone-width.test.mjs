// A 360 px phone never scrolls sideways: with every section of a lesson
// rendered, the page is no wider than the screen, in both languages (a long
// inline formula, which never breaks, once made the rope lesson's page 712 px wide). The
// elements that stick out are named when it fails.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { LESSON_IDS } from '../../web/src/lessons/index.js';
import { launch, openPage } from './helpers.mjs';

const WIDTH = 360;
let browser;
before(async () => {
  browser = await launch({ viewport: { width: WIDTH, height: 740 } });
});
after(async () => {
  await browser?.close();
});

for (const lang of ['en', 'zh']) {
  test(`${lang}: every lesson at ${WIDTH} px is no wider than the screen`, async () => {
    const page = await openPage(browser.context, `#lesson=${LESSON_IDS[0]}&lang=${lang}`);
    let checked = 0;
    for (const lesson of LESSON_IDS) {
      await page.evaluate((h) => (location.hash = h), `#lesson=${lesson}&lang=${lang}`);
      await page.waitForSelector(`article[data-lesson="${lesson}"]`);
      const { width, culprits } = await page.evaluate(async (screen) => {
        // sections out of view are laid out only when scrolled to: lay them all out
        for (const s of document.querySelectorAll('.lesson-section')) s.style.contentVisibility = 'visible';
        await document.fonts.ready;
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        const culprits = [...document.querySelectorAll('article.lesson *')]
          .filter((el) => el.getBoundingClientRect().right > screen + 1 && !el.parentElement.closest('.math-display, .table-scroll, .katex-mathml, pre, textarea'))
          .slice(0, 5)
          .map((el) => `${el.tagName.toLowerCase()}.${el.className?.baseVal ?? el.className} "${el.textContent.slice(0, 50)}"`);
        return { width: document.documentElement.scrollWidth, culprits };
      }, WIDTH);
      assert.ok(width <= WIDTH, `${lang} ${lesson}: the page is ${width} px wide: ${culprits.join('; ')}`);
      checked++;
    }
    assert.equal(checked, LESSON_IDS.length);
    assert.deepEqual(page.problems, []);
    await page.close();
  });
}
