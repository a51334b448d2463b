// The words of the lessons: no reference to documents the learner never saw,
// code comments in the reader's language, inline maths that does not break
// across lines, the Chinese wording, and the corrections of the tutorial
// notebooks' mistakes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { LESSON_IDS } from '../../web/src/lessons/index.js';
import { launch, openPage } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

// every lesson of the registry
const LESSONS = LESSON_IDS;
const lessonText = (page) => page.$eval('main', (m) => m.textContent);

test('no lesson refers to "seed" documents; the notebooks are named as the original tutorials', async () => {
  for (const lang of ['en', 'zh']) {
    for (const lesson of LESSONS) {
      const page = await openPage(browser.context, `#lesson=${lesson}&lang=${lang}`);
      const text = await lessonText(page);
      assert.doesNotMatch(text, /\bseed (example|notebook)s?\b|Seed examples/i, `${lang} ${lesson}`);
      assert.doesNotMatch(text, /示例笔记/, `${lang} ${lesson}`);
      await page.close();
    }
  }
  const page = await openPage(browser.context, '#lesson=formula&lang=zh');
  assert.match(await lessonText(page), /原教程笔记本/);
  await page.close();
});

test('in 简体中文 the code comments are Chinese too', async () => {
  let checked = 0;
  for (const lesson of LESSONS) {
    const page = await openPage(browser.context, `#lesson=${lesson}&lang=zh`);
    const comments = await page.$$eval('main pre code', (codes) =>
      codes.flatMap((c) => c.textContent.split('\n').map((line) => line.match(/(?:#|\/\/)\s(.*)$/)?.[1]).filter(Boolean)),
    );
    const english = comments.filter((c) => !/[\u4e00-\u9fff]/.test(c));
    assert.deepEqual(english, [], `${lesson}: comments without Chinese`);
    checked += comments.length;
    await page.close();
  }
  assert.ok(checked > 0, `${checked} code comments found in ${LESSONS.length} lessons`);
});

// Every 10 px from 320 to 1280 with SINPE_FULL=1 (npm run test:browser:full,
// about 3 minutes); in npm test the common device widths and every 80 px,
// after checking that each inline formula is set not to wrap.
const FULL = process.env.SINPE_FULL === '1';
const WIDTHS = FULL
  ? Array.from({ length: 97 }, (_, k) => 320 + 10 * k)
  : [...new Set([320, 360, 375, 390, 414, 768, 1024, 1280, ...Array.from({ length: 12 }, (_, k) => 330 + 80 * k)])];

test(`inline maths never breaks across lines (${WIDTHS.length} widths from 320 to 1280 px, both languages)`, async () => {
  for (const lang of ['en', 'zh']) {
    let formulas = 0;
    for (const lesson of LESSONS) {
      const page = await openPage(browser.context, `#lesson=${lesson}&lang=${lang}`);
      const wrapping = await page.$$eval('main .math-inline', (ms) =>
        ms.filter((m) => getComputedStyle(m).whiteSpace !== 'nowrap').map((m) => m.querySelector('annotation')?.textContent),
      );
      assert.deepEqual(wrapping, [], `${lang} ${lesson}: inline maths allowed to wrap`);
      formulas += await page.$$eval('main .math-inline', (ms) => ms.length);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        const broken = await page.$$eval('main .math-inline', (ms) =>
          ms
            .filter((m) => new Set([...m.getClientRects()].map((r) => Math.round(r.top))).size > 1)
            .map((m) => m.querySelector('annotation')?.textContent),
        );
        assert.deepEqual(broken, [], `${lang} ${lesson} at ${width} px: inline maths split across lines`);
      }
      await page.close();
    }
    assert.ok(formulas >= LESSONS.length, `${lang}: ${formulas} inline formulas in ${LESSONS.length} lessons`);
  }
});

test('Chinese wording', async () => {
  const texts = [];
  for (const lesson of LESSONS) {
    const page = await openPage(browser.context, `#lesson=${lesson}&lang=zh`);
    texts.push(await lessonText(page));
    await page.close();
  }
  const all = texts.join('\n');
  assert.doesNotMatch(all, /没有哪一列是平的/);
  assert.doesNotMatch(all, /往前看 ?k ?个词/);
  assert.match(all, /没有哪一列几乎不变/);
});

test('the tutorials’ points and corrections are taught: even d, per-column i//2 rates, the wavelength ratio, the range of i', async () => {
  for (const lang of ['en', 'zh']) {
    const page = await openPage(browser.context, `#lesson=formula&lang=${lang}`);
    const text = await lessonText(page);
    assert.match(text, /d_model % 2/, `${lang}: the even-d check`);
    assert.match(text, /i \/\/ 2|i\/\/2/, `${lang}: the per-column angle rates`);
    assert.match(text, /0 … 255|0, 1, …, 255|0 到 255/, `${lang}: i runs over d/2 values for d = 512`);
    assert.match(text, /0 … 511|0 到 511/, `${lang}: the column index runs over 512`);
    await page.close();
    const waves = await openPage(browser.context, `#lesson=waves&lang=${lang}`);
    // the ratio is given after its question: answer it, reveal, then read
    await waves.check('.quiz-question[data-question="ratio"] input[data-choice="two"]');
    await waves.click('.quiz-question[data-question="ratio"] .quiz-reveal');
    const w = await lessonText(waves);
    assert.match(w, /10000\^\(1\/d_model\)|10000\^{1\/d}|10000\^\{1\/d\}|10000\s*\^\s*\(1\s*\/\s*d/, `${lang}: the tutorial's ratio quoted`);
    assert.match(w, /base\^\(2\/d\)|base2\/d|base\^\{2\/d\}/, `${lang}: the correct ratio`);
    await waves.close();
  }
});
