// A phone never scrolls sideways: at 390 and 360 px, with every section of a
// lesson rendered and every foldable part (details: the letters of the
// lesson, the glossary, …) opened, the page is no wider than the screen, in
// both languages, for every lesson and for the "Check a model" page with a
// model's report shown (a long inline formula, which never breaks, once made
// the rope lesson's page 712 px wide; the table of a lesson's letters, 670 px).
// The elements that stick out are named when it fails.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LESSON_IDS } from '../../web/src/lessons/index.js';
import { CONFIGS, OPTIONS, ROTARY_DIM, bake, makeGenaiModel } from '../js/fixtures/make-genai-model.mjs';
import { launch, openPage, settle } from './helpers.mjs';

const dir = mkdtempSync(join(tmpdir(), 'sinpe-phone-width-'));
const model = makeGenaiModel({ caches: { default: { ...bake('exact', 1024, ROTARY_DIM, OPTIONS.llama31.default, 'float32'), rows: 1024 } } });
const files = [join(dir, 'llama.onnx'), join(dir, 'config.json')];
writeFileSync(files[0], model.model);
writeFileSync(files[1], JSON.stringify(CONFIGS.llama31));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The page's width with everything laid out and every details opened, and what sticks out of `screen`. */
function measure(page, screen) {
  return page.evaluate(async (screen) => {
    // sections out of view are laid out only when scrolled to: lay them all out
    for (const s of document.querySelectorAll('.lesson-section')) s.style.contentVisibility = 'visible';
    for (const d of document.querySelectorAll('main details')) d.open = true;
    await document.fonts.ready;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const culprits = [...document.querySelectorAll('main article *')]
      .filter((el) => el.getBoundingClientRect().right > screen + 1 && !el.parentElement.closest('.math-display, .table-scroll, .katex-mathml, pre, textarea'))
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className?.baseVal ?? el.className} (${Math.round(el.getBoundingClientRect().width)} px) "${el.textContent.slice(0, 50)}"`);
    return { width: document.documentElement.scrollWidth, culprits };
  }, screen);
}

for (const width of [390, 360]) {
  let browser;
  before(async () => {
    browser = await launch({ viewport: { width, height: 740 } });
  });
  after(async () => {
    await browser?.close();
  });

  for (const lang of ['en', 'zh']) {
    test(`${lang}: every lesson and the Check a model page at ${width} px, every details open, are no wider than the screen`, async () => {
      const page = await openPage(browser.context, `#lesson=${LESSON_IDS[0]}&lang=${lang}`);
      const wide = [];
      for (const lesson of LESSON_IDS) {
        await page.evaluate((h) => (location.hash = h), `#lesson=${lesson}&lang=${lang}`);
        await page.waitForSelector(`article[data-lesson="${lesson}"]`);
        await settle(page);
        const { width: w, culprits } = await measure(page, width);
        if (w > width) wide.push(`${lesson}: ${w} px wide: ${culprits.join('; ')}`);
      }
      await page.evaluate((h) => (location.hash = h), `#page=check-model&lang=${lang}`);
      await page.waitForSelector('.check-model-drop');
      await page.setInputFiles('#check-model-input', files);
      await page.waitForSelector('.check-model-site');
      await settle(page);
      const { width: w, culprits } = await measure(page, width);
      if (w > width) wide.push(`check-model: ${w} px wide: ${culprits.join('; ')}`);
      assert.deepEqual(wide, [], `${lang} at ${width} px`);
      assert.deepEqual(page.problems, []);
      await page.close();
    });
  }
}
