// The attention lesson (why attention needs positions) in headless Chromium. The page's
// score, weight and output cells (their full-precision data-value) are
// checked against a float64 head from the documented seeds, written from the
// definitions (tests/web/attention-reference.mjs, not the site's code); the
// word-order check is exact without an encoding and fails by the reference's amount with each
// encoding; both languages, keyboard, URL state, phone, no console error or
// CSP violation.
import { readFileSync } from 'node:fs';
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import en from '../../web/src/i18n/en.js';
import zh from '../../web/src/i18n/zh.js';
import { LESSON_IDS } from '../../web/src/lessons/index.js';
import { head as floatHead, ropeRotate, sinusoid } from '../web/attention-reference.mjs';
import { launch, openPage, settle, hashSettled, screenshot, numbersIn } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

// ---- the reference: a float64 head over the float32 inputs the page uses ----
const f32 = Math.fround;
const ENCODINGS = {
  none: () => ({}),
  sin: (d) => ({ add: (p, c) => f32(sinusoid(d)(p, c)) }), // as the float32 table holds it
  rope: (d) => ({ rotate: ropeRotate(d, f32) }), // q and k rounded to float32 before and after
};
const head = (words, d, seed, encoding) => floatHead(words, d, seed, ENCODINGS[encoding](d));

/** The cells of a lesson matrix as rows of full-precision values. */
async function cells(page, className) {
  const flat = await page.$$eval(`table.${className} td.cell`, (tds) => tds.map((td) => [Number(td.dataset.row), Number(td.dataset.col), Number(td.dataset.value)]));
  assert.ok(flat.length > 0, `${className} has cells`);
  const rows = [];
  for (const [r, c, v] of flat) (rows[r] ??= [])[c] = v;
  return rows;
}

function maxDiff(a, b) {
  assert.equal(a.length, b.length, 'rows');
  let m = 0;
  a.forEach((row, r) => {
    assert.equal(row.length, b[r].length, 'columns');
    row.forEach((v, c) => (m = Math.max(m, Math.abs(v - b[r][c]))));
  });
  assert.ok(Number.isFinite(m), 'finite values');
  return m;
}

const gapOf = async (page, encoding, which) => Number(await page.getAttribute(`.gap-table tr[data-encoding="${encoding}"] td[data-gap="${which}"]`, 'data-value'));

describe('the attention lesson: why attention needs positions', () => {
  test('scores, weights and outputs of "dog bites man" equal a float64 head from the documented seeds', async () => {
    const page = await openPage(browser.context, '#lesson=attention&lang=en');
    assert.equal(await page.textContent('h1.lesson-title'), en.lessons.attention.title);
    // the site's strict policy is in force on this page (violations would be console errors, checked below)
    const csp = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
    assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'/);
    assert.doesNotMatch(csp, /unsafe-inline|'unsafe-eval'/);
    const want = head(['dog', 'bites', 'man'], 8, 1, 'none');
    assert.ok(maxDiff(await cells(page, 'matrix-scores'), want.scores) < 1e-9, 'scores');
    assert.ok(maxDiff(await cells(page, 'matrix-weights'), want.weights) < 1e-9, 'weights');
    assert.ok(maxDiff(await cells(page, 'matrix-out'), want.out) < 1e-9, 'outputs');
    // the text of a cell is its value to 3 decimals
    const text = await page.textContent('table.matrix-weights td.cell[data-row="0"][data-col="1"]');
    assert.equal(Number(text.replace('−', '-')), Number(want.weights[0][1].toFixed(3)));
    // another sentence, width and seed, typed in
    await page.fill('.lesson-attention input[data-key="tokens"]', 'the cat sat on the mat');
    await page.press('.lesson-attention input[data-key="tokens"]', 'Enter');
    await page.fill('.lesson-attention input.number[data-key="d"]', '14');
    await page.press('.lesson-attention input.number[data-key="d"]', 'Enter');
    await page.fill('.lesson-attention input.number[data-key="seed"]', '42');
    await page.press('.lesson-attention input.number[data-key="seed"]', 'Enter');
    await settle(page);
    const other = head('the cat sat on the mat'.split(' '), 14, 42, 'none');
    assert.ok(maxDiff(await cells(page, 'matrix-scores'), other.scores) < 1e-9, 'scores, 6 tokens, d 14, seed 42');
    assert.ok(maxDiff(await cells(page, 'matrix-weights'), other.weights) < 1e-9, 'weights, 6 tokens, d 14, seed 42');
    assert.deepEqual(page.problems, [], 'no console errors, failed requests or CSP violations');
    await page.close();
  });

  test('shuffling: the same rows reordered without an encoding (to 1e-6), different with the sinusoidal PE and with RoPE', async () => {
    const page = await openPage(browser.context, '#lesson=attention&lang=en');
    const words = ['dog', 'bites', 'man'];
    const order = [2, 1, 0];
    const shuffledWords = order.map((i) => words[i]);
    await page.click('.perm-buttons button[data-order="2,1,0"]');
    await settle(page);
    assert.equal(await page.getAttribute('.perm-buttons button[data-order="2,1,0"]', 'aria-pressed'), 'true');
    const reordered = (rows, square) => order.map((i) => (square ? order.map((j) => rows[i][j]) : rows[i]));
    for (const encoding of ['none', 'sin', 'rope']) {
      await page.check(`.lesson-attention input[data-key="enc"][value="${encoding}"]`);
      await settle(page);
      const typed = head(words, 8, 1, encoding);
      const shuffled = head(shuffledWords, 8, 1, encoding);
      const tol = encoding === 'rope' ? 1e-5 : 1e-9; // RoPE rounds q and k to float32
      assert.ok(maxDiff(await cells(page, 'matrix-shuffled-weights'), shuffled.weights) < tol, `${encoding}: shuffled weights`);
      assert.ok(maxDiff(await cells(page, 'matrix-shuffled-out'), shuffled.out) < tol, `${encoding}: shuffled outputs`);
      assert.ok(maxDiff(await cells(page, 'matrix-original-out'), reordered(typed.out, false)) < tol, `${encoding}: typed outputs reordered`);
      const pageGap = maxDiff(await cells(page, 'matrix-shuffled-out'), await cells(page, 'matrix-original-out'));
      const pooledGap = Math.max(...typed.pooled.map((v, c) => Math.abs(v - shuffled.pooled[c])));
      const weightGap = maxDiff(shuffled.weights, reordered(typed.weights, true));
      const shown = await gapOf(page, encoding, 'pooled');
      const verdict = await page.getAttribute('.permutation-verdict', 'class');
      if (encoding === 'none') {
        assert.ok(pageGap <= 1e-6, `none: outputs equal after reordering (${pageGap})`);
        assert.ok(shown <= 1e-6 && (await gapOf(page, 'none', 'weights')) <= 1e-6, `none: mean output and weights equal (${shown})`);
        assert.match(verdict, /\bpass\b/);
      } else {
        assert.ok(pageGap > 1e-3, `${encoding}: outputs differ after reordering (${pageGap})`);
        assert.ok(pooledGap > 1e-3, `${encoding}: the reference's mean outputs differ (${pooledGap})`);
        assert.ok(Math.abs(shown - pooledGap) < 1e-5, `${encoding}: mean-output gap ${shown} against ${pooledGap}`);
        assert.ok(Math.abs((await gapOf(page, encoding, 'weights')) - weightGap) < 1e-5, `${encoding}: weight gap`);
        assert.match(verdict, /\bfail\b/);
        const said = numbersIn(await page.textContent('.permutation-verdict'));
        assert.ok(said.some((v) => Math.abs(v - pooledGap) <= 0.01 * pooledGap), `${encoding}: the verdict says by how much (${said})`);
      }
    }
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('order buttons from the keyboard, the URL round trip, and a hostile order', async () => {
    const page = await openPage(browser.context, '#lesson=attention&lang=en');
    await page.focus('.perm-buttons button[aria-pressed="true"]');
    await page.keyboard.press('ArrowRight');
    await settle(page);
    const first = await page.evaluate(() => window.sinpeSite.state.order);
    assert.deepEqual(first, [0, 2, 1]);
    assert.equal(await page.evaluate(() => document.activeElement.dataset.order), '0,2,1');
    await page.keyboard.press('End');
    await page.check('.lesson-attention input[data-key="enc"][value="rope"]');
    await settle(page);
    const hash = await hashSettled(page);
    assert.match(hash, /order=2%2C1%2C0|order=2,1,0/);
    assert.match(hash, /enc=rope/);
    const second = await openPage(browser.context, hash);
    assert.equal(await second.getAttribute('.perm-buttons button[data-order="2,1,0"]', 'aria-pressed'), 'true');
    assert.equal(await second.isChecked('.lesson-attention input[data-key="enc"][value="rope"]'), true);
    assert.deepEqual(second.problems, []);
    await second.close();
    // exports are named and labelled from the state: the shuffled sentence's weights with RoPE
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click('.matrix-shuffled-weights-figure .export-csv')]);
    assert.equal(dl.suggestedFilename(), 'sinpe_attention_weights_rope_man-bites-dog_d8_seed1.csv');
    const csv = readFileSync(await dl.path(), 'utf8').trim().split('\n');
    assert.equal(csv[0], 'token,man,bites,dog');
    const want = head(['man', 'bites', 'dog'], 8, 1, 'rope').weights;
    csv.slice(1).forEach((line, r) => {
      const [label, ...values] = line.split(',');
      assert.equal(label, `${r} ${['man', 'bites', 'dog'][r]}`);
      values.forEach((v, c) => assert.ok(Math.abs(Number(v) - want[r][c]) < 1e-5, `csv ${r}, ${c}`));
    });
    const bad = await openPage(browser.context, '#lesson=attention&order=0,0,1&enc=%3Cb%3E');
    const messages = await bad.$$eval('#messages p', (ps) => ps.map((p) => p.textContent).join('\n'));
    assert.match(messages, /“word order” was not valid/);
    assert.match(messages, /“position information” was not valid/);
    assert.deepEqual(await bad.evaluate(() => [window.sinpeSite.state.order, window.sinpeSite.state.enc]), [[], 'none']);
    await bad.close();
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('position only: the chart\'s sinusoidal value is Σ cos(ω_i k) / (d/2)', async () => {
    const page = await openPage(browser.context, '#lesson=attention&lang=en&dpos=32&span=40');
    const readout = await page.textContent('.distance-readout');
    const [k, sin, same] = numbersIn(readout);
    assert.equal(k, 1);
    let want = 0;
    for (let i = 0; i < 16; i++) want += Math.cos(10000 ** (-i / 16));
    assert.ok(Math.abs(sin - want / 16) < 6e-5, `${sin} vs ${want / 16}`);
    assert.ok(Math.abs(same - want / 16) < 0.05, `RoPE same content near the sinusoid at k = 1: ${same}`);
    assert.equal(await page.$$eval('.distance-chart path.chart-line', (p) => p.length), 3);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('both languages: title, course map from the registry, questions before the text; phone and screenshots', async () => {
    for (const [lang, strings] of [['en', en], ['zh', zh]]) {
      const page = await openPage(browser.context, `#lesson=attention&lang=${lang}`);
      assert.equal(await page.textContent('h1.lesson-title'), strings.lessons.attention.title);
      const map = await page.$$eval('.course-map-list li', (lis) => lis.map((li) => [li.dataset.lesson, li.querySelector('a').textContent, li.querySelector('.course-map-outcome').textContent]));
      assert.deepEqual(map.map(([id]) => id), LESSON_IDS);
      assert.equal(map.length, 10);
      for (const [id, nav, outcome] of map) {
        assert.equal(nav, strings.lessons[id].nav);
        assert.equal(outcome, strings.courseMap.outcomes[id]);
      }
      // each section asks its question before the paragraphs that answer it
      for (const section of ['attention-head', 'attention-shuffle', 'attention-distance']) {
        const before = await page.$eval(`.${section}`, (s) => {
          const quiz = s.querySelector('.quiz');
          const text = s.querySelector(':scope > p');
          return Boolean(quiz && text && quiz.compareDocumentPosition(text) & Node.DOCUMENT_POSITION_FOLLOWING);
        });
        assert.ok(before, `${lang} ${section}: question first`);
      }
      // a question answered: swapping two words changes no output row
      const orderBefore = await page.evaluate(() => window.sinpeSite.state.order);
      await page.check('fieldset[data-question="swap"] input[data-choice="none"]');
      await page.click('fieldset[data-question="swap"] .quiz-reveal');
      await settle(page);
      assert.equal(await page.getAttribute('fieldset[data-question="swap"]', 'data-result'), 'right');
      // revealing explains; it leaves the learner's word order as it was
      assert.deepEqual(await page.evaluate(() => window.sinpeSite.state.order), orderBefore);
      assert.ok((await gapOf(page, 'none', 'out')) <= 1e-6);
      await page.check('.lesson-attention input[data-key="enc"][value="none"]');
      await screenshot(page, `attention-${lang}-desktop`);
      assert.deepEqual(page.problems, [], lang);
      await page.close();
    }
    // the phone in dark mode (the light theme is the desktop's)
    for (const scheme of ['dark']) {
      const phone = await launch({ viewport: { width: 360, height: 740 }, colorScheme: scheme });
      try {
        for (const lang of ['en', 'zh']) {
          const page = await openPage(phone.context, `#lesson=attention&lang=${lang}&order=2,1,0&enc=sin`);
          const width = await page.evaluate(() => document.documentElement.scrollWidth);
          assert.ok(width <= 360, `${lang} ${scheme}: page is ${width} px wide`);
          await screenshot(page, `attention-${lang}-phone-${scheme}`);
          assert.deepEqual(page.problems, [], `${lang} ${scheme}`);
          await page.close();
        }
      } finally {
        await phone.close();
      }
    }
  });
});
