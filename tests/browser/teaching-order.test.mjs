// Teaching order: each question before the text that answers it; lesson 9's
// added score explained; its base control beside every chart it drives; ±1
// position steps; every dial hand long enough to see.
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

test('lesson 3 does not give the wavelength ratio above the question that asks for it', async () => {
  const page = await openPage(browser.context, '#lesson=waves');
  const before = await page.evaluate(() => {
    const question = document.querySelector('.quiz-question[data-question="ratio"]');
    if (!question) return null;
    const shown = [];
    // every text and formula source placed before the question
    const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (question.compareDocumentPosition(n) & Node.DOCUMENT_POSITION_PRECEDING) shown.push(n.textContent);
    }
    return shown.join(' ');
  });
  assert.ok(before && before.length > 500, 'the ratio question and the text before it are there');
  assert.doesNotMatch(before, /base\^\(2\/d\)|\\text\{base\}\^\{2\/d\}|\\lambda_\{i\s*\+\s*1\}/, 'the answer base^(2/d) appears before the question');
  await page.close();
});

for (const [lang, words] of [['en', /cross terms/], ['zh', /交叉项/]]) {
  test(`lesson 9 (${lang}) explains the cross terms of the added score beside its chart`, async () => {
    const page = await openPage(browser.context, `#lesson=rope&lang=${lang}`);
    const text = await page.evaluate(() => document.querySelector('.rope-check-chart, .chart')?.closest('section')?.textContent ?? '');
    assert.match(text, words);
    assert.match(text, /6/, 'it names lesson 6');
    assert.deepEqual(page.problems, []);
    await page.close();
  });
}

test('lesson 9: each chart the base drives has a base control beside it, all one setting', async () => {
  const page = await openPage(browser.context, '#lesson=rope');
  const sections = await page.$$eval('.lesson-rope section', (all) => all.map((s) => ({ base: s.querySelectorAll('input.number[data-key="base"]').length, charts: s.querySelectorAll('svg.chart, .chart svg, .dials').length, note: s.querySelector('.base-shared')?.textContent ?? '' })));
  const withBase = sections.filter((s) => s.base > 0);
  assert.ok(withBase.length >= 3, `${withBase.length} sections with a base control (dials, scaling, precision)`);
  const inputs = await page.$$('.lesson-rope input.number[data-key="base"]');
  await inputs[inputs.length - 1].fill('500000');
  await inputs[inputs.length - 1].press('Enter');
  await settle(page);
  const values = await page.$$eval('.lesson-rope input.number[data-key="base"]', (all) => all.map((i) => i.value.replace(/[^0-9.]/g, '')));
  assert.deepEqual(new Set(values), new Set(['500000']), `every base control shows the one base: ${values}`);
  assert.match(sections.find((s) => s.note)?.note ?? '', /same setting/);
  await page.close();
});

test('lesson 9: ±1 steps move the dial position by one', async () => {
  const page = await openPage(browser.context, '#lesson=rope&pos=500');
  await page.click('.pos-step[data-step="1"]');
  await settle(page);
  assert.equal(await page.evaluate(() => window.sinpeSite?.state?.pos ?? Number(document.querySelector('input.number[data-key="pos"]').value)), 501);
  await page.click('.pos-step[data-step="-1"]');
  await page.click('.pos-step[data-step="-1"]');
  await settle(page);
  assert.equal(Number(await page.inputValue('input.number[data-key="pos"]')), 499);
  await page.close();
});

test('lesson 9: every dial hand is drawn at least 90 % of the dial radius long', async () => {
  for (const seed of [1, 2, 3]) {
    const page = await openPage(browser.context, `#lesson=rope&seed=${seed}`);
    const hands = await page.$$eval('.rope-dials .dial-hand', (all) => all.map((l) => Math.hypot(Number(l.getAttribute('x2')), Number(l.getAttribute('y2')))));
    const radius = await page.$eval('.rope-dials .dial-face', (c) => Number(c.getAttribute('r')));
    assert.ok(hands.length === 4 && radius > 0, `${hands.length} hands, radius ${radius}`);
    for (const [j, length] of hands.entries()) assert.ok(length >= 0.9 * radius, `seed ${seed}, pair ${j}: hand ${length.toFixed(1)} of radius ${radius}`);
    await page.close();
  }
});
