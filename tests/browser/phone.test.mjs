// A 360 px phone (360 × 780): every display formula of every lesson, in both
// languages, fits its box (a long formula switches to its narrow variant, a
// multi-line form, or is set a little smaller, never below 0.8 of the body
// text): nothing of it is hidden sideways; its Chinese words are set in the
// site's Noto Sans SC. The rope lesson's precision table shows
// every number; the heatmap lesson's controls panel, too tall to pin, sits in
// the page above its heatmap, every control in sight.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { LESSON_IDS } from '../../web/src/lessons/index.js';
import { launch, openPage } from './helpers.mjs';

const VIEWPORT = { width: 360, height: 780 };
let browser;
before(async () => {
  browser = await launch({ viewport: VIEWPORT });
});
after(async () => {
  await browser?.close();
});

// display formulas checked over all lessons (a lesson may have none; all together may not)
let formulasChecked = 0;
let cjkWords = 0;
for (const lang of ['en', 'zh']) {
  for (const lesson of LESSON_IDS) {
    test(`${lang} ${lesson} at 360 px: every display formula fits its box, at ≥ 0.8 of the body text`, async () => {
      const page = await openPage(browser.context, `#lesson=${lesson}&lang=${lang}`);
      const boxes = await page.evaluate(async () => {
        // sections out of view are laid out only when scrolled to: lay them all out
        for (const s of document.querySelectorAll('.lesson-section')) s.style.contentVisibility = 'visible';
        await document.fonts.ready;
        // the fit is chosen on a resize observation: two frames after layout it is made
        for (let i = 0; i < 3; i++) await new Promise((r) => requestAnimationFrame(r));
        const body = parseFloat(getComputedStyle(document.querySelector('article.lesson p') ?? document.body).fontSize);
        return [...document.querySelectorAll('article.lesson .katex-display')]
          .filter((k) => getComputedStyle(k).visibility !== 'hidden') // the form shown (the other is kept unseen)
          .map((k) => {
            const box = k.closest('.math-display');
            if (!box) return null;
            const r = box.getBoundingClientRect();
            const shown = [...k.querySelectorAll('.katex-html .katex-base')].map((b) => b.getBoundingClientRect());
            return {
              text: k.querySelector('annotation')?.textContent.slice(0, 60) ?? '',
              scrollWidth: box.scrollWidth,
              clientWidth: box.clientWidth,
              hidden: box.scrollWidth > box.clientWidth + 1 ? `${Math.round((100 * (box.scrollWidth - box.clientWidth)) / box.scrollWidth)} %` : '0 %',
              inside: shown.length > 0 && r.right <= innerWidth + 0.5 && shown.every((b) => b.right <= r.right + 1 && b.left >= r.left - 1),
              // Chinese words in a formula (KaTeX's cjk_fallback): their font
              cjk: [...k.querySelectorAll('.cjk_fallback')].map((c) => ({ text: c.textContent, family: getComputedStyle(c).fontFamily })),
              size: parseFloat(getComputedStyle(k.querySelector('.katex')).fontSize) / body,
            };
          });
      });
      // each set first in the site's Noto Sans SC, whose files have its glyphs (a face loads for them)
      for (const b of boxes.filter(Boolean)) {
        b.cjk = await page.evaluate(
          (words) =>
            Promise.all(
              words.map(async ({ text, family }) => {
                const first = family.split(',')[0].replace(/["']/g, '').trim();
                const faces = await document.fonts.load(`16px ${family}`, text);
                return first === 'Noto Sans SC' && faces.some((f) => f.family.replace(/["']/g, '') === 'Noto Sans SC') ? 'ok' : `${text} in ${family}`;
              }),
            ),
          b.cjk,
        );
      }
      formulasChecked += boxes.length;
      assert.ok(boxes.every(Boolean), 'every display formula is in a .math-display box');
      const problems = boxes.filter((b) => !(b.scrollWidth <= b.clientWidth + 1 && b.inside && b.size >= 0.8 - 1e-9));
      assert.deepEqual(
        problems.map((b) => `${b.text}: ${b.scrollWidth} px in a ${b.clientWidth} px box (${b.hidden} hidden), ${b.size.toFixed(2)} of the body text`),
        [],
        'display formulas that do not fit a 360 px phone',
      );
      assert.deepEqual(
        boxes.flatMap((b) => b.cjk).filter((c) => c !== 'ok'),
        [],
        'Chinese words of formulas not in the site’s loaded Noto Sans SC (without a system CJK font they are empty boxes)',
      );
      cjkWords += boxes.flatMap((b) => b.cjk).length;
      assert.deepEqual(page.problems, []);
      await page.close();
    });
  }
}

test('Chinese words inside formulas were checked', () => {
  assert.ok(cjkWords >= 5, `${cjkWords} Chinese words in formulas`);
});

test('display formulas were checked on the phone', () => {
  assert.ok(formulasChecked >= 2 * LESSON_IDS.length, `${formulasChecked} display formulas in ${LESSON_IDS.length} lessons × 2 languages`);
});

test('the rope lesson at 360 px: every number of the precision table is on the screen', async () => {
  const page = await openPage(browser.context, '#lesson=rope');
  const cells = await page.$$eval('.precision-table td', (tds) =>
    tds.map((td) => {
      td.scrollIntoView({ block: 'center' });
      const r = td.getBoundingClientRect();
      const label = getComputedStyle(td, '::before').content;
      return { text: td.textContent, left: r.left, right: r.right, width: r.width, label };
    }),
  );
  assert.ok(cells.length >= 12, `${cells.length} cells`);
  for (const c of cells) {
    assert.ok(c.width > 0 && c.left >= 0 && c.right <= 360 + 0.5, `cell "${c.text}" at ${c.left.toFixed(0)}…${c.right.toFixed(0)} px is inside the 360 px screen`);
    assert.ok(c.label !== 'none' && c.label.length > 2, `cell "${c.text}" carries its column's name (${c.label})`);
  }
  await page.close();
});

test('the heatmap lesson at 360 px: its panel, too tall to pin, sits in the page above the heatmap with every control in sight', async () => {
  // Before issue 37 a size slider and the heatmap were on the screen together, with the panel pinned
  // and scrolling inside (hiding its lower controls). Now a panel over --pinned-share of the screen is
  // not pinned (panel.test.mjs, panel-fit.test.mjs): the slider and the heatmap are not on the screen together.
  const page = await openPage(browser.context, '#lesson=heatmap');
  const seen = await page.evaluate(() => {
    const p = document.querySelector('.lesson-controls');
    const plot = document.querySelector('.lesson-heatmap .heatmap-plot');
    const share = Number(getComputedStyle(document.documentElement).getPropertyValue('--pinned-share'));
    return {
      tall: p.getBoundingClientRect().height > share * innerHeight,
      pinned: getComputedStyle(p).position === 'sticky',
      scrolls: p.scrollHeight > p.clientHeight + 1,
      sliderInPanel: p.contains(document.querySelector('input.slider[data-key="len"]')),
      heatmapAfter: Boolean(p.compareDocumentPosition(plot) & Node.DOCUMENT_POSITION_FOLLOWING),
    };
  });
  assert.deepEqual(seen, { tall: true, pinned: false, scrolls: false, sliderInPanel: true, heatmapAfter: true });
  await page.close();
});

test('a long formula’s form follows its box’s width: narrow on a phone, as written on a desktop, and back on a resize', async () => {
  const page = await openPage(browser.context, '#lesson=rope');
  // the score formula: one line as written, three in its narrow form
  const shown = () =>
    page.evaluate(async () => {
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const box = [...document.querySelectorAll('.math-display')].find((b) => b.querySelector('annotation')?.textContent.includes('R(p+m)'));
      const visible = [...box.querySelectorAll(':scope > .katex-display')].filter((k) => getComputedStyle(k).visibility !== 'hidden');
      return { forms: visible.map((k) => k.dataset.variant), fits: box.scrollWidth <= box.clientWidth + 1 };
    });
  assert.deepEqual(await shown(), { forms: ['narrow'], fits: true }, '360 px');
  await page.setViewportSize({ width: 1280, height: 900 });
  assert.deepEqual(await shown(), { forms: ['wide'], fits: true }, '1280 px');
  await page.setViewportSize(VIEWPORT);
  assert.deepEqual(await shown(), { forms: ['narrow'], fits: true }, '360 px again');
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('a formula typesets its narrow form when its box first needs it, and keeps fitting across steps that change it', async () => {
  const page = await openPage(browser.context, '#lesson=embeddings&d=32');
  // the shapes of X, P and their sum: a formula redrawn at every d step (show() keeps its box)
  const state = () =>
    page.evaluate(async () => {
      for (let i = 0; i < 3; i++) await new Promise((r) => requestAnimationFrame(r));
      const box = document.querySelector('.shapes .math-display');
      const forms = [...box.querySelectorAll(':scope > .katex-display')];
      const seen = (k) => getComputedStyle(k).visibility !== 'hidden';
      return {
        forms: forms.map((k) => [k.dataset.variant, seen(k)]),
        shown: forms.find(seen).querySelector('annotation').textContent,
        fits: box.scrollWidth <= box.clientWidth + 1,
      };
    });
  const step = async (d) => {
    await page.focus('input.slider[data-key="d"]');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((want) => window.sinpeSite.state.d === want, d);
  };
  const narrow = [['wide', false], ['narrow', true]];
  const phone = await state();
  assert.deepEqual(phone.forms, narrow, '360 px');
  assert.ok(phone.fits, 'fits at 360 px');
  assert.match(phone.shown, /\\times 32\}.*\\\\/s);
  // a d step changes the formula's numbers: the new one is narrow as well
  await step(34);
  const stepped = await state();
  assert.deepEqual(stepped.forms, narrow, 'after a step');
  assert.ok(stepped.fits, 'fits after the step');
  assert.match(stepped.shown, /\\times 34\}.*\\\\/s);
  await page.setViewportSize({ width: 1280, height: 900 });
  assert.deepEqual((await state()).forms, [['wide', true], ['narrow', false]], '1280 px');
  // a step on a desktop: the formula as written fits, its narrow form is not typeset
  await step(36);
  const desktop = await state();
  assert.deepEqual(desktop.forms, [['wide', true]], 'a step at 1280 px');
  assert.match(desktop.shown, /\\times 36\}/);
  // back on a phone the box typesets the narrow form of what it shows now
  await page.setViewportSize(VIEWPORT);
  const again = await state();
  assert.deepEqual(again.forms, narrow, '360 px again');
  assert.ok(again.fits, 'fits at 360 px again');
  assert.match(again.shown, /\\times 36\}.*\\\\/s);
  assert.deepEqual(page.problems, []);
  await page.close();
});
