// Every lesson on a phone (360 × 740 and 390 × 844), both languages, every
// panel open: no controls panel scrolls inside (a learner would not see the
// controls below its fold), a panel pinned at the top of the screen takes at
// most --pinned-share of its height (style.css, 30 %), and with the panel in
// view every control in it is inside its box and on the screen.
// (Full form; the waves lesson alone at 390 × 844 is in the quick form, site.test.mjs.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { LESSON_IDS } from '../../web/src/lessons/index.js';
import { launch, openPage } from './helpers.mjs';
import { panelFit } from './panel-fit.mjs';

let browser;
before(async () => {
  browser = await launch({ viewport: { width: 360, height: 740 } });
});
after(async () => {
  await browser?.close();
});

let checked = 0;
let pinnedSeen = 0;
for (const [width, height] of [[360, 740], [390, 844]]) {
  for (const lang of ['en', 'zh']) {
    test(`${width} × ${height}, ${lang}: every lesson's open panels show every control, none scrolls inside, a pinned one takes ≤ 30 % of the screen`, async () => {
      const bad = [];
      for (const lesson of LESSON_IDS) {
        const page = await openPage(browser.context, `#lesson=${lesson}&lang=${lang}`);
        await page.setViewportSize({ width, height });
        const { share, panels } = await page.evaluate(panelFit);
        assert.ok(share > 0 && share < 1, `--pinned-share from style.css: ${share}`);
        assert.ok(panels.length > 0, `lesson ${lesson}: no controls panel found`);
        checked += panels.length;
        for (const p of panels) {
          if (p.pinned) pinnedSeen++;
          const what = `${lesson} ${p.what}`;
          if (p.scrolls) bad.push(`${what}: scrolls inside, ${p.scrolls}`);
          if (p.tooTall) bad.push(`${what}: ${p.tooTall}`);
          if (p.cut.length > 0) bad.push(`${what}: not in view: ${p.cut.join(', ')}`);
        }
        assert.deepEqual(page.problems, [], lesson);
        await page.close();
      }
      assert.deepEqual(bad, [], `panels at ${width} × ${height} (${lang})`);
    });
  }
}

test('panels were checked, some of them pinned', () => {
  assert.ok(checked >= 4 * 2 * LESSON_IDS.length, `${checked} panels`);
  assert.ok(pinnedSeen > 0, 'no panel was pinned: the pinned check saw nothing');
});
