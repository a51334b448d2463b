// The keyboard's way through each lesson: its first control is among the
// lesson's first tab stops, and glossary links (dozens per lesson) are not
// what the Tab key walks through (the glossary is one tab stop, at the end).
// Links inside a navigation landmark (a course map) do not count towards the
// first control's place: a landmark is skipped as one group.
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

const FIRST_CONTROL_WITHIN = 5;

for (const lesson of LESSON_IDS) {
  test(`${lesson}: the first control within the lesson's first ${FIRST_CONTROL_WITHIN} tab stops; glossary links at most 20 % of its tab stops`, async () => {
    const page = await openPage(browser.context, `#lesson=${lesson}&lang=en`);
    await settle(page);
    const stops = await page.$$eval('article.lesson a[href], article.lesson button, article.lesson input, article.lesson select, article.lesson textarea, article.lesson summary, article.lesson [tabindex]', (els) =>
      els
        // what Tab reaches: not taken out of the order, not disabled, not hidden
        .filter((el) => el.tabIndex >= 0 && !el.disabled && el.getClientRects().length > 0 && !el.closest('[hidden], details:not([open]) > :not(summary)'))
        .map((el) => ({ nav: !!el.closest('nav'), term: el.classList.contains('term-link'), control: !!el.closest('.lesson-controls, .controls') && /^(INPUT|SELECT|BUTTON|TEXTAREA)$/.test(el.tagName) })),
    );
    assert.ok(stops.length > 0, 'tab stops');
    // a navigation landmark (the formula lesson's course map, the pager) is one skippable group
    const first = stops.filter((s) => !s.nav).findIndex((s) => s.control);
    assert.ok(first >= 0 && first < FIRST_CONTROL_WITHIN, `first control at tab stop ${first + 1} of ${stops.length}`);
    const terms = stops.filter((s) => s.term).length;
    assert.ok(terms <= 0.2 * stops.length, `${terms} of ${stops.length} tab stops are glossary links`);
    // the glossary itself is reachable
    assert.ok(await page.$eval('details.glossary > summary', (s) => s.tabIndex >= 0));
    assert.deepEqual(page.problems, []);
    await page.close();
  });
}
