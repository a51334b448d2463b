// What a lesson's text says of a figure is what the figure shows, on a phone
// as on a desktop, in both languages: the rope lesson's "Only the offset
// matters" text calls the added-encoding line "the dashed line", so it is drawn
// dashed at every width (a line that turns back often was drawn solid on a
// narrow chart), its legend swatch too, and the RoPE line solid. The
// attention lesson's shuffle section says of the typed and shuffled sentences
// without positions what its table shows (differences of 0 or ~1e-16, so "up
// to rounding", never "to the last digit" or "exactly the same"); its quiz
// feedback writes differences as its table does (never "at most 0", never
// "1.1e+0"); and with a word typed twice ("dog bites dog") every order button
// reads differently.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, settle } from './helpers.mjs';

const browsers = {};
before(async () => {
  browsers.desktop = await launch({ viewport: { width: 1280, height: 800 } });
  browsers.phone = await launch({ viewport: { width: 390, height: 844 } });
});
after(async () => {
  for (const b of Object.values(browsers)) await b?.close();
});

for (const device of ['desktop', 'phone']) {
  for (const [lang, dashed] of [['en', /the dashed line/], ['zh', /虚线/]]) {
    test(`${device}, ${lang}: the rope lesson's "dashed line" (sinusoidal encoding added) is drawn dashed, the RoPE line solid`, async () => {
      const page = await openPage(browsers[device].context, `#lesson=rope&lang=${lang}`);
      const seen = await page.$eval('article.lesson section:has(.rope-check-verdict)', (section) => ({
        text: section.textContent,
        lines: [...section.querySelectorAll('figure.chart svg path.chart-line')].map((p) => ({ series: p.dataset.series, dash: p.getAttribute('stroke-dasharray') ?? '' })),
        swatches: [...section.querySelectorAll('.chart-legend li')].map((li) => ({ text: li.textContent, dash: li.querySelector('line')?.getAttribute('stroke-dasharray') ?? '' })),
      }));
      assert.match(seen.text, dashed, 'the text names the dashed line');
      assert.equal(seen.lines.length, 2, 'two lines: RoPE and the encoding added');
      assert.equal(seen.lines[0].dash, '', `the RoPE line is solid (${seen.lines[0].series})`);
      assert.notEqual(seen.lines[1].dash, '', `the added line is dashed (${seen.lines[1].series})`);
      assert.deepEqual(seen.swatches.map((s) => s.dash), seen.lines.map((l) => l.dash), 'the legend shows the lines as drawn');
      assert.deepEqual(page.problems, []);
      await page.close();
    });
  }
}

const SHUFFLE = 'article.lesson section.attention-shuffle';

async function reveal(page, question, choice) {
  const q = `fieldset.quiz-question[data-question="${question}"]`;
  await page.check(`${q} input[data-choice="${choice}"]`);
  await page.click(`${q} .quiz-reveal`);
  return (await page.textContent(`${q} .quiz-feedback`)).trim();
}

for (const [lang, words] of [
  ['en', { claim: /up to rounding/, never: /last digit|exactly the same/i, bound: /10⁻¹⁶/, zeroGap: /at most 0\b|by 0\b/ }],
  ['zh', { claim: /舍入误差内一致/, never: /一位不差|完全不变/, bound: /10⁻¹⁶/, zeroGap: /相差 0(?![.\d])/ }],
]) {
  test(`the attention lesson (${lang}): the shuffle section's words agree with its table; the feedback writes differences as the table does`, async () => {
    const page = await openPage(browsers.desktop.context, `#lesson=attention&lang=${lang}&tokens=dog+bites+dog&order=1,0,2`);
    const text = await page.$eval(SHUFFLE, (s) => [...s.querySelectorAll(':scope > p')].map((p) => p.textContent).join(' '));
    assert.doesNotMatch(text, words.never, 'no claim the numbers contradict');
    assert.match(text, words.claim);
    assert.match(text, words.bound);
    // the table's first row (no position information) for every order offered: 0 or rounding-sized, as the text says
    const orders = await page.$$eval(`${SHUFFLE} .perm-button`, (bs) => bs.map((b) => b.dataset.order));
    for (const order of orders) {
      await page.evaluate((o) => (location.hash = location.hash.replace(/order=[^&]*/, `order=${o}`)), order);
      await page.waitForFunction((o) => document.querySelector(`.perm-button[data-order="${o}"]`)?.getAttribute('aria-pressed') === 'true', order);
      await settle(page);
      const none = await page.$$eval(`${SHUFFLE} .gap-table tr[data-encoding="none"] td`, (tds) => tds.map((td) => Number(td.dataset.value)));
      for (const v of none) assert.ok(v === 0 || v < 1e-15, `order ${order}: a difference without positions of ${v} is not rounding-sized`);
    }
    // the feedback: no "at most 0", no exponent on a number ≥ 0.001, and the pooled changes written as the table writes them
    await page.evaluate(() => (location.hash = location.hash.replace(/order=[^&]*/, 'order=1,0,2')));
    await page.waitForFunction(() => document.querySelector('.perm-button[data-order="1,0,2"]')?.getAttribute('aria-pressed') === 'true');
    await settle(page);
    const table = Object.fromEntries(await page.$$eval(`${SHUFFLE} .gap-table tr[data-encoding]`, (trs) => trs.map((tr) => [tr.dataset.encoding, tr.querySelector('td[data-gap="pooled"]').textContent])));
    const feedback = { twice: await reveal(page, 'twice', 'same'), swap: await reveal(page, 'swap', 'none'), pooled: await reveal(page, 'pooled', 'no') };
    for (const [id, f] of Object.entries(feedback)) {
      assert.doesNotMatch(f, words.zeroGap, `${id}: “${f}”`);
      assert.doesNotMatch(f, /\de[+−-]?0\b|\de\+/, `${id}: no e+0 exponent: “${f}”`);
    }
    for (const enc of ['sin', 'rope']) assert.ok(feedback.pooled.includes(table[enc]), `pooled feedback names the ${enc} change as the table writes it (${table[enc]}): “${feedback.pooled}”`);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test(`the attention lesson (${lang}): with "dog bites dog" the six order buttons read differently`, async () => {
    const page = await openPage(browsers.desktop.context, `#lesson=attention&lang=${lang}&tokens=dog+bites+dog`);
    const labels = await page.$$eval(`${SHUFFLE} .perm-button`, (bs) => bs.map((b) => ({ text: b.textContent, aria: b.getAttribute('aria-label') })));
    assert.equal(labels.length, 6);
    assert.equal(new Set(labels.map((l) => l.text)).size, 6, `distinct labels: ${labels.map((l) => l.text).join(' | ')}`);
    assert.equal(new Set(labels.map((l) => l.aria)).size, 6);
    // a word typed once keeps its plain spelling
    for (const l of labels) assert.match(l.text, /(^| )bites( |$)/);
    assert.deepEqual(page.problems, []);
    await page.close();
  });
}
