// A value the site corrects is explained where the learner is looking: the
// message sits beside the control that was typed into (in view, announced
// by a polite live region there), states the allowed range, and the box
// above the lesson does not announce it a second time.
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

/** The message beside a control: text, live-region attributes, whether it is inside the viewport. */
function besideMessage(page, key) {
  return page.$eval(`#lesson .control-${key} .control-message`, (el) => {
    const box = el.getBoundingClientRect();
    return {
      text: el.textContent,
      live: el.getAttribute('aria-live'),
      // 1 px: scrolling to the nearest edge leaves sub-pixel offsets
      inView: box.height > 0 && box.top >= -1 && box.bottom <= window.innerHeight + 1,
    };
  });
}

for (const lang of ['en', 'zh']) {
  test(`${lang}: 0 typed into the rope lesson's precision position is explained beside the box, with the allowed range`, async () => {
    const page = await openPage(browser.context, `#lesson=rope&lang=${lang}`);
    const box = '.lesson-rope input.number[data-key="at"]';
    // the page's fonts (Noto Sans SC for 简体中文) change the layout when they arrive: type once they have
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    await page.locator(box).scrollIntoViewIfNeeded();
    await typeInto(page, box, '0');
    const state = await page.evaluate(() => window.sinpeSite.state);
    const [min, max] = rangeOf('at', { ...defaultState('rope', lang), ...state });
    assert.equal(state.at, min, 'the value became the smallest allowed');
    // the page scrolls the message into view once it has redrawn: wait for that state (or time out)
    await page
      .waitForFunction(() => {
        const el = document.querySelector('#lesson .control-at .control-message');
        const r = el?.getBoundingClientRect();
        return Boolean(r && r.height > 0 && r.top >= -1 && r.bottom <= window.innerHeight + 1);
      }, null, { timeout: 5000 })
      .catch(() => {});
    const message = await besideMessage(page, 'at');
    assert.ok(message.text.length > 0, 'a message beside the box');
    assert.equal(message.live, 'polite');
    assert.ok(message.inView, 'the message is in view where the value was typed');
    const numbers = numbersIn(message.text.replace(/(\d),(\d)/g, '$1$2'));
    assert.ok(numbers.includes(min) && numbers.includes(max), `the range ${min} … ${max} is stated: ${message.text}`);
    if (lang === 'zh') assert.match(message.text, /[\u4e00-\u9fff]/);
    // the box above the lesson keeps the list, without announcing it again
    assert.equal(await page.getAttribute('#messages', 'aria-live'), 'off');
    // a valid value clears the message
    await typeInto(page, box, '4095');
    assert.equal((await besideMessage(page, 'at')).text, '');
    assert.deepEqual(page.problems, []);
    await page.close();
  });
}

test('an out-of-range d_model typed into the shared controls is explained beside them', async () => {
  const page = await openPage(browser.context, '#lesson=formula&lang=en');
  await typeInto(page, '.lesson-formula input.number[data-key="d"]', '1000');
  const state = await page.evaluate(() => window.sinpeSite.state);
  const [min, max] = rangeOf('d', state);
  assert.equal(state.d, max);
  const message = await besideMessage(page, 'd');
  assert.equal(message.live, 'polite');
  assert.ok(message.inView);
  const numbers = numbersIn(message.text);
  assert.ok(numbers.includes(min) && numbers.includes(max), message.text);
  assert.deepEqual(page.problems, []);
  await page.close();
});
