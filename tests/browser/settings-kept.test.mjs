// A learner's settings are theirs: a lesson's settings come back after Next
// then Previous; a language switch keeps what was pasted into the rope lesson's
// config box; revealing a question's answer changes neither the state nor the
// URL, and leaves the answer's own feedback in view.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, settle, hashSettled } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const state = (page) => page.evaluate(() => window.sinpeSite.state);

test("Next then Previous brings back the heatmap lesson's d_model and colormap", async () => {
  const page = await openPage(browser.context, '#lesson=heatmap&lang=en');
  const box = '.lesson-heatmap .controls input.number[data-key="d"]';
  await page.fill(box, '256');
  await page.press(box, 'Enter');
  await page.selectOption('.lesson-heatmap select[data-key="cmap"]', 'viridis');
  await settle(page);
  assert.deepEqual([(await state(page)).d, (await state(page)).cmap], [256, 'viridis']);
  await page.click('.lesson-pager a.pager-next');
  await page.waitForSelector('article[data-lesson="waves"]');
  await settle(page);
  await page.click('.lesson-pager a.pager-prev');
  await page.waitForSelector('article[data-lesson="heatmap"]');
  await settle(page);
  const back = await state(page);
  assert.deepEqual([back.d, back.cmap], [256, 'viridis'], 'the settings made in the heatmap lesson are back');
  assert.match(await hashSettled(page), /d=256/);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('Next then Previous keeps every setting the URL opened the heatmap lesson with', async () => {
  const page = await openPage(browser.context, '#lesson=heatmap&d=256&cmap=viridis&lang=en');
  await settle(page);
  const opened = await state(page);
  assert.deepEqual([opened.d, opened.cmap], [256, 'viridis']);
  await page.click('.lesson-pager a.pager-next');
  await page.waitForSelector('article[data-lesson="waves"]');
  await settle(page);
  await page.click('.lesson-pager a.pager-prev');
  await page.waitForSelector('article[data-lesson="heatmap"]');
  await settle(page);
  assert.deepEqual(await state(page), opened, 'every setting of the opened URL is back');
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('a language switch keeps the config pasted into the rope lesson', async () => {
  const page = await openPage(browser.context, '#lesson=rope&lang=en');
  const pasted = JSON.stringify({ rope_theta: 500000, head_dim: 64, max_position_embeddings: 4096 }, null, 2);
  await page.fill('#rope-config-text', pasted);
  await page.click('.config-parse');
  await settle(page);
  await page.click('button[data-lang="zh"]');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  await settle(page);
  assert.equal(await page.inputValue('#rope-config-text'), pasted, 'the pasted text is still there');
  // and it is the one read: its base, not the example's
  assert.match(await page.textContent('.config-result'), /500[,\s]?000/);
  assert.deepEqual(page.problems, []);
  await page.close();
});

// lesson → hash with settings that differ from the defaults
const REVEAL = {
  attention: '#lesson=attention&tokens=a+b+c&lang=en',
  heatmap: '#lesson=heatmap&d=64&len=40&start=500&lang=en',
  waves: '#lesson=waves&pos=11&lang=en',
  variants: '#lesson=variants&preset=fairseq&lang=en',
  rope: '#lesson=rope&pos=12&k=5&lang=en',
};

for (const [lesson, hash] of Object.entries(REVEAL)) {
  test(`${lesson}: Reveal leaves the settings and the URL as they were, and its feedback in view`, async () => {
    const page = await openPage(browser.context, hash);
    const before = await state(page);
    const hashBefore = await hashSettled(page);
    const ids = await page.$$eval('.quiz fieldset.quiz-question', (f) => f.map((x) => x.dataset.question));
    assert.ok(ids.length >= 2, `${lesson} has questions`);
    for (const id of ids) {
      const q = `fieldset.quiz-question[data-question="${id}"]`;
      await page.locator(`${q} input[type="radio"]`).first().check();
      await page.click(`${q} .quiz-reveal`);
      await settle(page);
      assert.deepEqual(await state(page), before, `${lesson}/${id}: the state did not change`);
      assert.equal(await hashSettled(page), hashBefore, `${lesson}/${id}: the URL did not change`);
      const feedback = await page.$eval(`${q} .quiz-feedback`, (el) => {
        const r = el.getBoundingClientRect();
        return { text: el.textContent.trim(), inView: r.height > 0 && r.top >= -1 && r.bottom <= window.innerHeight + 1 }; // 1 px: sub-pixel layout
      });
      assert.ok(feedback.text.length > 0, `${lesson}/${id}: feedback shown`);
      assert.ok(feedback.inView, `${lesson}/${id}: the feedback stays in view`);
    }
    assert.deepEqual(page.problems, []);
    await page.close();
  });
}
