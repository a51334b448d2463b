// What a message says about a typed value is one clear statement: a d_model
// the package refuses gives one message (what was typed, what is used, why),
// not two contradicting ones; a position that is not a whole number says the
// allowed range; refused text does not stay in its box while the figure uses
// the old value, and the message names what was refused.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { defaultState, rangeOf } from '../../web/src/state.js';
import { launch, openPage, settle, numbersIn } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function typeInto(page, selector, text) {
  await page.fill(selector, text);
  await page.press(selector, 'Enter');
  await settle(page);
}

const state = (page) => page.evaluate(() => window.sinpeSite.state);
const besideText = (page, key) => page.textContent(`#lesson .control-${key} .control-message`);
const boxMessages = (page) => page.$$eval('#messages p.message', (ps) => ps.map((p) => p.textContent));

for (const lang of ['en', 'zh']) {
  test(`${lang}: d_model 12.5 in the heatmap lesson gives one message naming 12.5 and the value used`, async () => {
    const page = await openPage(browser.context, `#lesson=heatmap&lang=${lang}`);
    await typeInto(page, '.lesson-heatmap .controls input.number[data-key="d"]', '12.5');
    const d = (await state(page)).d;
    assert.equal(d % 2, 0, 'an even d_model is used');
    assert.ok(Math.abs(d - 12.5) <= 1.5, `the nearest accepted value: ${d}`);
    const messages = await boxMessages(page);
    assert.equal(messages.length, 1, `one message: ${JSON.stringify(messages)}`);
    const numbers = numbersIn(messages[0]);
    assert.ok(numbers.includes(12.5) && numbers.includes(d), `names 12.5 and ${d}: ${messages[0]}`);
    assert.equal(await besideText(page, 'd'), messages[0]);
    assert.equal(await page.inputValue('.lesson-heatmap .controls input.number[data-key="d"]'), String(d));
    assert.deepEqual(page.problems, []);
    await page.close();
  });
}

for (const typed of ['1.5', '123.7']) {
  test(`the waves lesson: position ${typed} is explained with the allowed range`, async () => {
    const page = await openPage(browser.context, '#lesson=waves&lang=en');
    const box = '.lesson-waves input.number[data-key="pos"]';
    await page.locator(box).scrollIntoViewIfNeeded();
    await typeInto(page, box, typed);
    const s = await state(page);
    assert.equal(s.pos, Math.round(Number(typed)));
    const [min, max] = rangeOf('pos', { ...defaultState('waves'), ...s });
    const text = await besideText(page, 'pos');
    const numbers = numbersIn(text.replace(/(\d)[,\u00a0\u202f](\d)/g, '$1$2'));
    assert.ok(numbers.includes(min) && numbers.includes(max), `the range ${min} … ${max}: ${text}`);
    assert.ok(numbers.includes(Number(typed)), `names what was typed: ${text}`);
    assert.doesNotMatch(text, /out of range/, 'a value inside the range is not called out of range');
    assert.deepEqual(page.problems, []);
    await page.close();
  });
}

for (const lang of ['en', 'zh']) {
  test(`${lang}: refused text leaves its box showing the value in use, and the message names it`, async () => {
    const page = await openPage(browser.context, `#lesson=attention&lang=${lang}`);
    const box = '.lesson-attention input.text[data-key="tokens"]';
    await page.locator(box).scrollIntoViewIfNeeded();
    const before = (await state(page)).tokens;
    await typeInto(page, box, 'dog <b>bites</b> man');
    assert.equal((await state(page)).tokens, before, 'the figure keeps the old sentence');
    assert.equal(await page.inputValue(box), before, 'the box shows the sentence in use');
    const text = await besideText(page, 'tokens');
    assert.ok(text.includes('dog <b>bites</b> man'), `the message names the refused text: ${text}`);
    assert.deepEqual(page.problems, []);
    await page.close();
  });
}
