// Defects of the attention, formula and relative lessons that a learner met, each checked on the live
// page: the attention lesson's feedback names a sentence the learner did not type as an
// added one; the relative lesson's rotation table says how many of the pairs it shows;
// every data export is named sinpe_<lesson>_…; every lesson shows its notation table.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { LESSON_IDS, lessonById } from '../../web/src/lessons/index.js';
import { launch, openPage, settle } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function reveal(page, question, choice) {
  const q = `fieldset.quiz-question[data-question="${question}"]`;
  await page.check(`${q} input[data-choice="${choice}"]`);
  await page.click(`${q} .quiz-reveal`);
  return (await page.textContent(`${q} .quiz-feedback`)).trim();
}

for (const [lang, added] of [
  ['en', /Your sentence “man bites dog” has no repeated word/],
  ['zh', /你输入的“man bites dog”里没有重复的词/],
]) {
  test(`the attention lesson (${lang}): the feedback quotes the typed sentence, and says when it added a word`, async () => {
    const page = await openPage(browser.context, `#lesson=attention&lang=${lang}&tokens=man+bites+dog`);
    const feedback = await reveal(page, 'twice', 'same');
    assert.match(feedback, added, feedback);
    assert.match(feedback, /man bites dog man/, 'the sentence the head was run on');
    await page.close();
    const typed = await openPage(browser.context, `#lesson=attention&lang=${lang}&tokens=dog+bites+dog`);
    const own = await reveal(typed, 'twice', 'same');
    assert.match(own, /“dog bites dog”/);
    assert.doesNotMatch(own, added, 'nothing added to a sentence with a repeated word');
    assert.deepEqual([...page.problems, ...typed.problems], []);
    await typed.close();
  });
}

test('the relative lesson: the rotation table says how many of the pairs it shows', async () => {
  for (const [d, rows, words] of [
    [64, 8, /first 8 of the 32 pairs/],
    [8, 4, /All 4 pairs/],
  ]) {
    const page = await openPage(browser.context, `#lesson=relative&lang=en&d=${d}`);
    const table = await page.$eval('table.rotation-table', (t) => ({ caption: t.caption?.textContent ?? '', rows: t.tBodies[0].rows.length }));
    assert.equal(table.rows, rows, `d = ${d}: rows`);
    assert.match(table.caption, words, `d = ${d}: ${table.caption}`);
    await page.close();
  }
  const zh = await openPage(browser.context, '#lesson=relative&lang=zh&d=64');
  assert.match(await zh.$eval('table.rotation-table caption', (c) => c.textContent), /32 对中的前 8 对/);
  await zh.close();
});

test('every data export (CSV, .npy) is named sinpe_<lesson>_…', async () => {
  let count = 0;
  for (const id of LESSON_IDS) {
    // a page of its own per lesson: in one tab, Chromium let the 11th download of the run (the heatmap's CSV) never start
    const page = await openPage(browser.context, `#lesson=${id}&lang=en`);
    await page.waitForSelector(`article.lesson-${id} .lesson-pager`);
    await settle(page);
    const buttons = page.locator(`article.lesson-${id} :is(.export-csv, .export-npy)`);
    for (let i = 0; i < (await buttons.count()); i++) {
      const button = buttons.nth(i);
      if (!(await button.isVisible())) continue;
      const [dl] = await Promise.all([page.waitForEvent('download'), button.click()]);
      assert.match(dl.suggestedFilename(), new RegExp(`^sinpe_${id}_[\\w.-]+\\.(csv|npy)$`), `${id}: ${dl.suggestedFilename()}`);
      count++;
    }
    assert.deepEqual(page.problems, [], id);
    await page.close();
  }
  assert.ok(count >= 8, `${count} data exports checked`);
});

for (const lang of ['en', 'zh']) {
  test(`every lesson (${lang}) shows its notation table under its introduction`, async () => {
    const page = await openPage(browser.context, `#lesson=attention&lang=${lang}`);
    for (const id of LESSON_IDS) {
      await page.evaluate(([id, lang]) => (location.hash = `lesson=${id}&lang=${lang}`), [id, lang]);
      await page.waitForSelector(`article.lesson-${id} .lesson-pager`);
      const got = await page.evaluate(() => {
        const table = document.querySelector('article.lesson details.notation');
        const h1 = document.querySelector('article.lesson h1.lesson-title');
        return table && { symbols: [...table.querySelectorAll('tr[data-symbol]')].map((r) => r.dataset.symbol), afterTitle: Boolean(h1.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING), cjk: /[\u4e00-\u9fff]/.test(table.textContent) };
      });
      assert.ok(got, `${id}: a notation table`);
      assert.deepEqual(got.symbols, lessonById(id).letters, id);
      assert.ok(got.afterTitle, id);
      assert.equal(got.cjk, lang === 'zh', `${id}: in ${lang}`);
    }
    await page.close();
  });
}
