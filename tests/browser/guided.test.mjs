// Guided learning: at least two predict-then-reveal questions per lesson,
// revealing only after a prediction, the answer settled by the live figure
// (its cursor moves to the cell that answers it, and the explanation's
// numbers match float64 maths computed here); the seed's bug as a "find the
// bug" exercise in the pitfalls lesson; Previous/Next at the foot of every lesson.
// Both languages; no console error under the strict CSP.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { LESSON_IDS } from '../../web/src/lessons/index.js';
import { defaultState } from '../../web/src/state.js';
import { launch, openPage, settle, numbersIn, assertLanguage } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

// every lesson of the registry, in its order
const LESSONS = LESSON_IDS;

async function answer(page, question, choice) {
  const q = `fieldset.quiz-question[data-question="${question}"]`;
  await page.check(`${q} input[data-choice="${choice}"]`);
  await page.click(`${q} .quiz-reveal`);
  await settle(page);
  return {
    result: await page.getAttribute(q, 'data-result'),
    correct: await page.$eval(`${q} .quiz-choice.correct`, (l) => l.dataset.choice),
    feedback: (await page.textContent(`${q} .quiz-feedback`)).trim(),
  };
}

describe('predict, then reveal', () => {
  test('every lesson has at least two questions; reveal needs a prediction first', async () => {
    const page = await openPage(browser.context, '#lesson=formula');
    for (const lesson of LESSONS) {
      await page.evaluate((id) => {
        location.hash = `#lesson=${id}&lang=en`;
      }, lesson);
      await page.waitForSelector(`article[data-lesson="${lesson}"] .quiz`);
      await settle(page);
      const questions = await page.$$eval('.quiz fieldset.quiz-question', (f) => f.map((x) => x.dataset.question));
      assert.ok(questions.length >= 2, `${lesson}: ${questions.length} questions`);
      for (const id of questions) {
        const q = `fieldset.quiz-question[data-question="${id}"]`;
        assert.equal(await page.isDisabled(`${q} .quiz-reveal`), true, `${lesson}/${id}: no reveal before a prediction`);
        assert.equal(await page.textContent(`${q} .quiz-feedback`), '');
        assert.ok((await page.textContent(`${q} legend`)).trim().length > 10, `${lesson}/${id} asks something`);
        assert.ok((await page.$$(`${q} input[type="radio"]`)).length >= 2, `${lesson}/${id} has choices`);
      }
    }
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('the formula lesson: row 0 of the cos columns, answered by the table and the heatmap', async () => {
    const page = await openPage(browser.context, '#lesson=formula&d=8&len=4');
    const wrong = await answer(page, 'row0cos', 'zero');
    assert.equal(wrong.result, 'wrong');
    assert.equal(wrong.correct, 'one');
    // the explanation lists the cos columns of row 0: cos 0 = 1 four times (d = 8)
    assert.deepEqual(numbersIn(wrong.feedback).filter((v) => v === 1).length >= 4, true);
    const right = await answer(page, 'row0cos', 'one');
    assert.equal(right.result, 'right');
    // the figure points at the answer: position 0, column 1
    assert.match(await page.textContent('.formula-readout'), /Position 0, column 1 = cos/);
    const slowest = await answer(page, 'slowest', 'last');
    assert.equal(slowest.result, 'right');
    const w = 10000 ** (-6 / 8); // i = 3, d = 8
    assert.ok(numbersIn(slowest.feedback).some((v) => Math.abs(v - w) < 1e-6), `${slowest.feedback} names ω_3 = ${w}`);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('the heatmap lesson: revealing points at the cos cell of row 0 (the settings stay the learner\'s)', async () => {
    const page = await openPage(browser.context, '#lesson=heatmap&d=64&len=40&layout=concat');
    const r = await answer(page, 'cosRow0', 'plusOne');
    assert.equal(r.result, 'right');
    await settle(page);
    const text = await page.textContent('.heatmap-readout');
    assert.match(text, /position 0, column 32/);
    assert.ok(Math.abs(numbersIn(text).at(-1) - 1) < 1e-6);
    const rep = await answer(page, 'repeat', 'six');
    assert.equal(rep.result, 'right');
    const n = numbersIn(rep.feedback);
    for (const v of [Math.sin(6), Math.sin(7)]) assert.ok(n.some((x) => Math.abs(x - v) < 6e-4), `${rep.feedback} has ${v}`);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('the waves lesson: the clock question leaves the position as it was; the ratio question corrects base^(1/d)', async () => {
    const page = await openPage(browser.context, '#lesson=waves&d=32&lang=zh');
    assertLanguage(await page.textContent('.quiz h2'), 'zh', 'questions title');
    const turn = await answer(page, 'firstTurn', 'first');
    assert.equal(turn.result, 'right');
    assertLanguage(turn.feedback, 'zh', 'feedback');
    assert.equal((await page.evaluate(() => window.sinpeSite.state)).pos, defaultState('waves').pos);
    const ratio = await answer(page, 'ratio', 'rootBase');
    assert.equal(ratio.result, 'wrong');
    assert.equal(ratio.correct, 'base2d');
    const n = numbersIn(ratio.feedback);
    assert.ok(n.some((v) => Math.abs(v - 10000 ** (2 / 32)) < 1e-4), `true ratio ${10000 ** (2 / 32)} in ${ratio.feedback}`);
    assert.ok(n.some((v) => Math.abs(v - 10000 ** (1 / 32)) < 1e-4), 'the wrong ratio too');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('the pitfalls lesson: find the bug, shown on the difference map', async () => {
    const page = await openPage(browser.context, '#lesson=pitfalls&d=16');
    const q = 'fieldset.quiz-question[data-question="findBug"]';
    assert.ok(await page.$(`${q}.quiz-code`), 'code choices');
    const codes = await page.$$eval(`${q} .quiz-choice code`, (c) => c.map((x) => x.textContent));
    assert.ok(codes.some((c) => c.includes('2 * torch.arange(0, d_model, 2)')));
    assert.ok(codes.some((c) => c.includes('torch.arange(1, d_model, 2)')));
    const sinOnly = await answer(page, 'findBug', 'sin');
    assert.equal(sinOnly.result, 'wrong');
    assert.equal(sinOnly.correct, 'both');
    // position 1, column 1: the notebook's cos(1/10000^(2/16)) against the formula's cos(1)
    const n = numbersIn(sinOnly.feedback);
    for (const v of [Math.cos(1 / 10000 ** (2 / 16)), Math.cos(1), Math.sin(1 / 10000 ** (4 / 16)), Math.sin(1 / 10000 ** (2 / 16))])
      assert.ok(n.some((x) => Math.abs(x - v) < 6e-6), `${v} in ${sinOnly.feedback}`);
    const readout = await page.textContent('.pitfalls-readout');
    assert.match(readout, /column 1/);
    const howMany = await answer(page, 'howMany', 'half');
    assert.equal(howMany.result, 'right');
    assert.ok(numbersIn(howMany.feedback).includes(8), 'd = 16: 8 frequencies');
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});

describe('Previous / Next', () => {
  test('at the foot of every lesson, in registry order, both languages', async () => {
    const page = await openPage(browser.context, '#lesson=formula');
    for (const lang of ['en', 'zh']) {
      const words = new Map(); // rel → the words the pager uses for it, the same on every lesson
      for (let i = 0; i < LESSONS.length; i++) {
        await page.evaluate(({ id, lang }) => {
          location.hash = `#lesson=${id}&lang=${lang}`;
        }, { id: LESSONS[i], lang });
        await page.waitForSelector(`article[data-lesson="${LESSONS[i]}"] .lesson-pager`);
        const links = await page.$$eval('.lesson-pager a', (as) => as.map((a) => [a.getAttribute('rel'), a.dataset.lesson, a.querySelector('.pager-direction').textContent]));
        const expected = [];
        if (i > 0) expected.push(['prev', LESSONS[i - 1]]);
        if (i < LESSONS.length - 1) expected.push(['next', LESSONS[i + 1]]);
        assert.deepEqual(links.map(([rel, id]) => [rel, id]), expected, `${lang} ${LESSONS[i]}`);
        for (const [rel, , direction] of links) {
          assertLanguage(direction, lang, `${lang} ${LESSONS[i]} ${rel}`);
          if (!words.has(rel)) words.set(rel, direction);
          assert.equal(direction, words.get(rel), `${lang}: "${rel}" is said the same way on every lesson`);
        }
        // the pager is the last thing in the lesson
        assert.equal(await page.$eval(`article[data-lesson="${LESSONS[i]}"]`, (a) => a.lastElementChild.classList.contains('lesson-pager')), true);
      }
      assert.notEqual(words.get('prev'), words.get('next'), `${lang}: Previous and Next are told apart`);
    }
    assert.ok(LESSONS.length >= 2, 'a pager needs two lessons');
    // following Next lands at the next lesson's title; Back returns
    await page.evaluate(() => {
      location.hash = '#lesson=heatmap&lang=en';
    });
    await page.waitForSelector('article[data-lesson="heatmap"]');
    await page.evaluate(() => document.querySelector('.lesson-pager').scrollIntoView());
    await page.click('.lesson-pager a[rel="next"]');
    await page.waitForSelector('article[data-lesson="waves"]');
    await settle(page);
    const titleTop = await page.$eval('h1.lesson-title', (h) => h.getBoundingClientRect().top);
    assert.ok(titleTop >= -1 && titleTop < 200, `title at ${titleTop}`);
    await page.goBack();
    await page.waitForSelector('article[data-lesson="heatmap"]');
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
