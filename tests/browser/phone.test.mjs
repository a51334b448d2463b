// A 360 px phone: display formulas either fit or scroll sideways with a
// visible hint (a faded edge and a scrollbar); the rope lesson's precision table
// shows every number; a lesson's controls leave room for their figure.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { LESSON_IDS } from '../../web/src/lessons/index.js';
import { launch, openPage } from './helpers.mjs';

const VIEWPORT = { width: 360, height: 740 };
let browser;
before(async () => {
  browser = await launch({ viewport: VIEWPORT });
});
after(async () => {
  await browser?.close();
});

// display formulas checked over all lessons (a lesson may have none; all together may not)
let formulasChecked = 0;
for (const lesson of LESSON_IDS) {
  test(`lesson ${lesson} at 360 px: each display formula fits, or scrolls with a visible hint`, async () => {
    const page = await openPage(browser.context, `#lesson=${lesson}`);
    // the overflow observer runs after layout: wait until it has marked every box as it is
    await page.waitForFunction(() =>
      [...document.querySelectorAll('.math-display')].every((b) => (b.scrollWidth > b.clientWidth + 1) === b.hasAttribute('data-overflow')),
    );
    const boxes = await page.$$eval('.katex-display', (all) =>
      all.map((k) => {
        const box = k.closest('.math-display');
        const style = box ? getComputedStyle(box) : null;
        return box && {
          fits: box.scrollWidth <= box.clientWidth + 1,
          visible: box.getBoundingClientRect().right <= 360 + 0.5,
          overflowX: style.overflowX,
          mask: style.maskImage || style.webkitMaskImage || 'none',
          marked: box.hasAttribute('data-overflow'),
        };
      }),
    );
    formulasChecked += boxes.length;
    assert.ok(boxes.every(Boolean), 'every display formula is in a .math-display box');
    for (const [i, b] of boxes.entries()) {
      assert.ok(b.visible, `formula ${i}: its box ends inside the screen`);
      if (b.fits) continue;
      assert.ok(['auto', 'scroll'].includes(b.overflowX), `formula ${i} is wider than its box and scrolls (overflow-x ${b.overflowX})`);
      assert.ok(b.marked && b.mask.includes('gradient'), `formula ${i} shows a faded edge (mask ${b.mask})`);
    }
    if (lesson === 'rope' || lesson === 'relative') assert.ok(boxes.some((b) => !b.fits), 'this lesson has a formula wider than a phone (the case checked)');
    assert.deepEqual(page.problems, []);
    await page.close();
  });
}

test('display formulas were checked on the phone', () => {
  assert.ok(formulasChecked >= LESSON_IDS.length, `${formulasChecked} display formulas in ${LESSON_IDS.length} lessons`);
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

test('the heatmap lesson at 360 px: a size slider and the heatmap are on the screen together', async () => {
  const page = await openPage(browser.context, '#lesson=heatmap');
  const panel = await page.$eval('.lesson-controls', (p) => p.getBoundingClientRect().height);
  assert.ok(panel <= 0.5 * VIEWPORT.height, `the controls panel is ${panel.toFixed(0)} px tall on a ${VIEWPORT.height} px screen`);
  const both = await page.evaluate(() => {
    const plot = document.querySelector('.lesson-heatmap .heatmap-plot');
    plot.scrollIntoView({ block: 'end' });
    const inView = (el) => {
      const r = el.getBoundingClientRect();
      return r.bottom > 0 && r.top < innerHeight && r.height > 0;
    };
    return { slider: inView(document.querySelector('input.slider[data-key="len"]')), plot: inView(plot) };
  });
  assert.deepEqual(both, { slider: true, plot: true });
  await page.close();
});
