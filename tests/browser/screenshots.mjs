// Screenshots of every lesson for a person to look at (not a test): both
// languages, light and dark, desktop (1280 px) and phone (360 px), whole
// pages, into build/screenshots/review-<lesson>-<lang>-<scheme>-<device>.png;
// and, from the dark desktop pages, every figure's PNG export (always light)
// as build/screenshots/export-<lesson>-<lang>-<file name>.
// Usage: node tests/browser/screenshots.mjs [--lessons formula,heatmap]
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { launch, screenshot, serveBuiltSite, screenshotDir } from './helpers.mjs';
import { LESSONS } from '../../web/src/lessons/index.js';

const i = process.argv.indexOf('--lessons');
const only = i > 0 ? process.argv[i + 1].split(',') : null;
const served = await serveBuiltSite();
let problems = 0;
try {
  for (const [device, viewport] of [['desktop', { width: 1280, height: 900 }], ['phone', { width: 360, height: 740 }]]) {
    for (const colorScheme of ['light', 'dark']) {
      const browser = await launch({ viewport, colorScheme });
      try {
        for (const lang of ['en', 'zh']) {
          for (const { id } of LESSONS) {
            if (only && !only.includes(id)) continue;
            const page = await browser.context.newPage();
            page.problems = [];
            page.on('console', (m) => ['error', 'warning'].includes(m.type()) && page.problems.push(m.text()));
            await page.goto(`${served.url}#lesson=${id}&lang=${lang}`);
            await page.waitForSelector('html[data-ready="true"]');
            await screenshot(page, `review-${id}-${lang}-${colorScheme}-${device}`);
            if (device === 'desktop' && colorScheme === 'dark') {
              const buttons = page.locator('article.lesson figure:is(.heatmap, .chart) > .figure-buttons .export-figure-png');
              for (let k = 0; k < (await buttons.count()); k++) {
                if (!(await buttons.nth(k).isVisible())) continue;
                const [dl] = await Promise.all([page.waitForEvent('download'), buttons.nth(k).click()]);
                copyFileSync(await dl.path(), join(screenshotDir, `export-${id}-${lang}-${dl.suggestedFilename()}`));
              }
            }
            for (const p of page.problems) console.log(`${id} ${lang} ${colorScheme} ${device}: ${p}`);
            problems += page.problems.length;
            await page.close();
          }
        }
      } finally {
        await browser.close();
      }
    }
  }
} finally {
  await served.close();
}
console.log(`screenshots in build/screenshots/ (${problems} console problems)`);
