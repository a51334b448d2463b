// Teaching order: each question before the text and the figures that answer
// it, in every lesson and both languages; the rope lesson's
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

// What states each question's answer, written from the maths (not from the
// site's strings): a pattern per question, per language where the words
// differ. Any text or formula source matching one must come after the
// question, or be hidden until it is revealed.
const ratio = (10000 ** (2 / 32)).toFixed(4); // the waves lesson at its defaults: d = 32, base 10000
const ANSWERS = {
  attention: {
    twice: { en: /the same for a word wherever/i, zh: /同一个词无论出现在哪里都相同/ },
    swap: { en: /permutation-equivariant|only shuffles the rows/i, zh: /置换等变|只是.*行的顺序/ },
    pooled: { en: /the same check fails/i, zh: /检验就不再成立/ },
    distance: { en: /falls, with ripples|largest at \$?[km] = 0/i, zh: /时最大|波动着下降/ },
  },
  formula: {
    row0cos: { any: /cos\s*0\s*=\s*1/ },
    slowest: { en: /more slowly|slowest|fall geometrically/i, zh: /越慢|最慢|递减/ },
  },
  heatmap: {
    cosRow0: { any: /cos\s*0\s*=\s*1/ },
    repeat: { any: /\\approx 6\.3\b|≈\s*6\.3\b/ },
  },
  waves: {
    firstTurn: { en: /slower|fastest|one radian/i, zh: /越慢|最快|1 弧度/ },
    ratio: { any: new RegExp(`${ratio.replace('.', '\\.')}|base\\}?\\^\\{?\\(?2/d|\\\\lambda_\\{i\\s*\\+\\s*1\\}`) },
  },
  binary: {
    fastest: { en: /fast to slow|changes? fastest/i, zh: /由快到慢|变化最快/ },
    smooth: { en: /smooth/i, zh: /平滑/ },
  },
  embeddings: {
    sameWord: { en: /rows differ|different rows/i, zh: /行就不同|两行不同/ },
    dropout: { any: /1\s*[-−]\s*p\b/ },
  },
  relative: {
    onlyK: { en: /offset [^.]*alone|depends only on the offset/i, zh: /只与偏移/ },
    diagonal: { en: /main diagonal/i, zh: /主对角线/ },
  },
  pitfalls: {
    findBug: { any: /4i\/d|2\(2i\+1\)\/d/ },
    howMany: { any: /0 … 255|256 frequencies|256 个频率/ },
  },
  variants: {
    slowest: { any: /1e[−-]4|10\^\{-4\}|exactly 1\/base|正好是 1\/base/ },
    t2tLayout: { any: /sin half \| cos half|sin 半边 \| cos 半边/ },
  },
  rope: {
    turn: { any: /57\.3°|one radian|1 弧度/ },
    shift: { en: /depends only on how far|only the offset/i, zh: /只取决于/ },
    llama3: { any: /h_f = 4|h_f\}? = 4/ },
  },
};
const LESSON_IDS = Object.keys(ANSWERS);

// The figures and tables that show a question's answer (a picture states no
// pattern a text search finds): each must come after the question, or be hidden.
// The heatmap lesson's map shows row 0 (its cos columns) and the fastest sine
// column repeating; the binary lesson's encoding map shows which columns change
// fastest; the formula lesson's PE table and its picture show row 0; the relative
// lesson's dot-product map shows where the product is largest.
const FIGURES = {
  heatmap: { cosRow0: ['article.lesson > figure.heatmap'], repeat: ['article.lesson > figure.heatmap'] },
  binary: { fastest: ['figure.heatmap.pe-map'] },
  formula: { row0cos: ['figure.heatmap'] },
  relative: { diagonal: ['figure.heatmap.square'] },
};

/** Per question on the page: where its answer is stated before it, unhidden. */
function earlyAnswers({ patterns, figures }) {
  const FOLLOWING = Node.DOCUMENT_POSITION_FOLLOWING;
  const article = document.querySelector('article.lesson');
  const hidden = (el) => Boolean(el.closest('[hidden]'));
  const label = (node) => (node.textContent ?? '').trim().slice(0, 90);
  const out = [];
  for (const fieldset of article.querySelectorAll('fieldset.quiz-question')) {
    const id = fieldset.dataset.question;
    const after = (node) => Boolean(fieldset.compareDocumentPosition(node) & FOLLOWING) && !node.contains(fieldset);
    const marked = [...article.querySelectorAll(`[data-answers~="${id}"]`)];
    const early = marked.filter((el) => !after(el) && !hidden(el)).map((el) => `marked: ${label(el)}`);
    // texts and formula sources stating the answer, outside the questions themselves
    const pattern = patterns[id] ? new RegExp(patterns[id].source, patterns[id].flags) : null;
    let stated = 0;
    if (pattern) {
      const candidates = [];
      const walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) candidates.push(n);
      candidates.push(...article.querySelectorAll('p, li, output, figcaption, caption, h2, h3, td, th'));
      for (const node of candidates) {
        const el = node.nodeType === Node.TEXT_NODE ? node.parentElement : node;
        // the question itself, and the choices of a control, state nothing
        if (el.closest('.quiz, .lesson-controls') || !pattern.test(node.textContent)) continue;
        stated++;
        if (!after(node) && !hidden(el)) early.push(`text: ${label(node)}`);
      }
    }
    let shown = 0;
    for (const selector of figures[id] ?? []) {
      for (const el of article.querySelectorAll(selector)) {
        shown++;
        if (!after(el) && !hidden(el)) early.push(`figure: ${selector} ${(el.querySelector('figcaption, caption, h2, h3')?.textContent ?? '').trim().slice(0, 60)}`);
      }
    }
    out.push({ id, marked: marked.length, stated, shown, figures: (figures[id] ?? []).length, early: [...new Set(early)] });
  }
  return out;
}

for (const lang of ['en', 'zh']) {
  test(`every question of every lesson (${lang}) is asked before the text and figures that answer it`, async () => {
    const page = await openPage(browser.context, `#lesson=attention&lang=${lang}`);
    const problems = [];
    for (const id of LESSON_IDS) {
      await page.evaluate(([id, lang]) => (location.hash = `lesson=${id}&lang=${lang}`), [id, lang]);
      await page.waitForSelector(`article.lesson-${id} .lesson-pager`);
      await settle(page);
      const patterns = Object.fromEntries(Object.entries(ANSWERS[id]).map(([q, p]) => [q, p.any ?? p[lang]]));
      const questions = await page.evaluate(earlyAnswers, { patterns, figures: FIGURES[id] ?? {} });
      assert.deepEqual(questions.map((q) => q.id).sort(), Object.keys(ANSWERS[id]).sort(), `${id}: the questions checked are the lesson's`);
      for (const q of questions) {
        if (q.marked === 0) problems.push(`${id}/${q.id}: no element is marked as stating its answer`);
        if (q.stated === 0) problems.push(`${id}/${q.id}: the lesson never states its answer (pattern ${patterns[q.id]})`);
        if (q.figures > 0 && q.shown === 0) problems.push(`${id}/${q.id}: none of the figures ${FIGURES[id][q.id]} is on the page`);
        for (const early of q.early) problems.push(`${id}/${q.id}: stated before the question: ${early}`);
      }
    }
    assert.deepEqual(problems, [], `${lang}: answers stated before their questions`);
    assert.deepEqual(page.problems, []);
    await page.close();
  });
}

test('revealing a question shows the answer held back for it', async () => {
  const page = await openPage(browser.context, '#lesson=waves');
  // a sentence held back until the ratio question is revealed
  await page.evaluate(() => {
    const p = document.createElement('p');
    Object.assign(p, { hidden: true, className: 'held-back' });
    p.dataset.reveal = '';
    p.dataset.answers = 'ratio';
    p.textContent = 'held back';
    document.querySelector('article.lesson').append(p);
  });
  await page.check('.quiz-question[data-question="ratio"] input[data-choice="two"]');
  await page.click('.quiz-question[data-question="ratio"] .quiz-reveal');
  assert.equal(await page.$eval('.held-back', (p) => p.hidden), false);
  await page.close();
});

for (const [lang, words] of [['en', /cross terms/], ['zh', /交叉项/]]) {
  test(`the rope lesson (${lang}) explains the cross terms of the added score beside its chart`, async () => {
    const page = await openPage(browser.context, `#lesson=rope&lang=${lang}`);
    const text = await page.evaluate(() => document.querySelector('.rope-check-chart, .chart')?.closest('section')?.textContent ?? '');
    assert.match(text, words);
    assert.match(text, /6/, 'it names the relative lesson');
    assert.deepEqual(page.problems, []);
    await page.close();
  });
}

test('the rope lesson: each chart the base drives has a base control beside it, all one setting', async () => {
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

test('the rope lesson: ±1 steps move the dial position by one', async () => {
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

test('the rope lesson: every dial hand is drawn at least 90 % of the dial radius long', async () => {
  for (const seed of [1, 2, 3]) {
    const page = await openPage(browser.context, `#lesson=rope&seed=${seed}`);
    const hands = await page.$$eval('.rope-dials .dial-hand', (all) => all.map((l) => Math.hypot(Number(l.getAttribute('x2')), Number(l.getAttribute('y2')))));
    const radius = await page.$eval('.rope-dials .dial-face', (c) => Number(c.getAttribute('r')));
    assert.ok(hands.length === 4 && radius > 0, `${hands.length} hands, radius ${radius}`);
    for (const [j, length] of hands.entries()) assert.ok(length >= 0.9 * radius, `seed ${seed}, pair ${j}: hand ${length.toFixed(1)} of radius ${radius}`);
    await page.close();
  }
});
