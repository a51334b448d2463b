// What a learner reads on every lesson, both languages, every foldable open:
// no text shows a raw `_` subscript ("W_q", "λ_i", "ω_{k}") outside maths and
// code (lib/subscript.js's rule read from the page's text nodes: a code name
// such as max_len or rope_theta, and d_model, keep theirs); and a Chinese
// comment in a code block is set in the site's Noto Sans SC (a monospace
// font has no Chinese glyphs: without a system font they were empty boxes).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, settle } from './helpers.mjs';
import { LESSON_IDS } from '../../web/src/lessons/index.js';
import { subscriptRuns } from '../../web/src/lib/subscript.js';

let browser;
before(async () => {
  browser = await launch({ viewport: { width: 390, height: 844 } });
});
after(() => browser?.close());

/** The text nodes of main a learner reads as text (not maths, code, canvas or a figure's SVG, which draws its own subscripts). */
const readTexts = (page) =>
  page.evaluate(() => {
    for (const d of document.querySelectorAll('main details')) d.open = true;
    const out = [];
    const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (n.parentElement.closest('.katex, code, pre, svg, script, style, textarea, [hidden]')) continue;
      if (n.textContent.includes('_')) out.push(n.parentElement.textContent.trim().slice(0, 100));
    }
    return out;
  });

const raw = (text) => subscriptRuns(text.replace(/\bd_model\b/g, ' ')).some((r) => r.sub);

for (const lang of ['en', 'zh']) {
  test(`${lang}: no lesson shows a raw _ subscript in its text, and its code's Chinese is drawn in Noto Sans SC`, async () => {
    let underscores = 0;
    let hanCode = 0;
    const found = [];
    const problems = [];
    for (const id of LESSON_IDS) {
      const page = await openPage(browser.context, `#lesson=${id}&lang=${lang}`);
      await page.evaluate(() => {
        for (const d of document.querySelectorAll('main details')) d.open = true;
      });
      // every figure drawn (those out of view draw when idle)
      await settle(page);
      const texts = await readTexts(page);
      underscores += texts.length;
      found.push(...texts.filter(raw).map((t) => `${id}: ${t}`));
      // the fonts a code block with Chinese is set in: the site's Noto Sans SC among them, before the generic family
      const blocks = await page.$$eval('main pre', (pres) => pres.filter((p) => /[\u4e00-\u9fff]/.test(p.textContent)).map((p) => getComputedStyle(p.querySelector('code') ?? p).fontFamily));
      hanCode += blocks.length;
      for (const family of blocks) assert.match(family, /Noto Sans SC.*monospace/, `${id}: a code block with Chinese set in ${family}`);
      problems.push(...page.problems);
      await page.close();
    }
    assert.ok(underscores > 10, `texts with an underscore read: ${underscores} (code names, d_model)`);
    if (lang === 'zh') assert.ok(hanCode > 0, 'code blocks with Chinese comments checked');
    assert.deepEqual(found, []);
    assert.deepEqual(problems, []);
  });
}
