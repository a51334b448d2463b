// Site-wide behaviour in headless Chromium: hostile URL values, the CSP,
// the remembered language, exports, keyboard use, a 360 px phone in dark mode,
// the waves lesson's controls panels on a 390 px phone (every lesson: panel-fit.test.mjs).
// npm test: quick form
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdirSync } from 'node:fs';
import { LESSON_IDS } from '../../web/src/lessons/index.js';
import { panelFit } from './panel-fit.mjs';
import { launch, openPage, settle, hashSettled, screenshot, screenshotDir, siteUrl, pageColors, luminance, contrast } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test('hostile and out-of-range URL values are clamped or rejected with a visible message, never injected', async () => {
  let dialogs = 0;
  const hash =
    '#lesson=heatmap&d=99999&len=-5&layout=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E&base=abc&cmap=javascript:alert(1)&start=1e400&evil=%3Cscript%3E';
  const page = await browser.context.newPage();
  page.on('dialog', (d) => {
    dialogs++;
    d.dismiss();
  });
  const problems = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  await page.goto(siteUrl() + hash);
  await page.waitForSelector('html[data-ready="true"]');
  await settle(page);
  const messages = await page.$$eval('#messages p', (ps) => ps.map((p) => p.textContent));
  assert.ok(messages.some((m) => /“d_model” was out of range and has been changed to 2048/.test(m)), messages.join('\n'));
  assert.ok(messages.some((m) => /“max_len \(rows\)” was out of range and has been changed to 1\b/.test(m)));
  assert.ok(messages.some((m) => /“layout” was not valid/.test(m)));
  assert.ok(messages.some((m) => /“base” was not valid/.test(m)));
  assert.ok(messages.some((m) => /“colormap” was not valid/.test(m)));
  assert.ok(messages.some((m) => /“start position” was not valid/.test(m)));
  assert.ok(messages.some((m) => /1 unknown URL parameter/.test(m)));
  assert.equal(await page.$$eval('img, script:not([src])', (els) => els.length), 0);
  assert.ok(!(await page.content()).includes('onerror'));
  assert.deepEqual(await page.$eval('.lesson-heatmap .heatmap-canvas', (c) => [c.width, c.height]), [2048, 1]);
  const fixed = await hashSettled(page);
  assert.match(fixed, /d=2048/);
  assert.doesNotMatch(fixed, /evil|img|alert/);
  assert.equal(dialogs, 0);
  assert.deepEqual(problems, []);
  await page.close();
});

test('typed values are validated too', async () => {
  const page = await openPage(browser.context, '#lesson=waves');
  await page.fill('input[data-key="cols"]', '3, 999, <b>');
  await page.press('input[data-key="cols"]', 'Enter');
  await settle(page);
  assert.match(await page.textContent('#messages'), /“3, 999, <b>” cannot be used for “columns to plot”/);
  await page.fill('input[data-key="cols"]', '3, 999');
  await page.press('input[data-key="cols"]', 'Enter');
  await settle(page);
  assert.match(await page.textContent('#messages'), /changed to 3, 31/);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('the server and the page carry the strict Content-Security-Policy', async () => {
  const response = await fetch(siteUrl());
  const header = response.headers.get('content-security-policy');
  assert.match(header, /script-src 'self' 'wasm-unsafe-eval'/);
  assert.doesNotMatch(header, /unsafe-inline|'unsafe-eval'/);
  const page = await openPage(browser.context, '#lesson=formula');
  const meta = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
  assert.match(meta, /default-src 'self'/);
  assert.match(meta, /style-src 'self'(;|$)/);
  // an injected inline script must be refused by the policy: it does not run (an inline
  // script runs as it is inserted) and the browser reports the violation
  const ran = await page.evaluate(() => {
    window.inlineRan = false;
    window.violated = null;
    document.addEventListener('securitypolicyviolation', (e) => (window.violated = e.violatedDirective), { once: true });
    const s = document.createElement('script');
    s.textContent = 'window.inlineRan = true';
    document.body.append(s);
    return window.inlineRan;
  });
  assert.equal(ran, false);
  await page.waitForFunction(() => window.violated !== null, null, { timeout: 5000 });
  assert.match(await page.evaluate(() => window.violated), /^script-src/);
  await page.close();
});

test('the language choice is remembered', async () => {
  const page = await openPage(browser.context, '#lesson=binary&lang=en');
  await page.click('button[data-lang="zh"]');
  await settle(page);
  const second = await openPage(browser.context, '#lesson=binary');
  assert.equal(await second.getAttribute('html', 'lang'), 'zh-CN');
  assert.equal(await second.getAttribute('button[data-lang="zh"]', 'aria-pressed'), 'true');
  await second.click('button[data-lang="en"]');
  await second.close();
  await page.close();
});

/** The fonts Chromium actually drew a node's text with (DevTools protocol). */
async function fontsUsed(page, selector) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('DOM.enable');
  await cdp.send('CSS.enable');
  const { root } = await cdp.send('DOM.getDocument');
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
  const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
  await cdp.detach();
  return fonts;
}

test('the "简体中文" button is drawn with a CJK font in both languages, from a tiny subset on English pages', async () => {
  for (const lang of ['en', 'zh']) {
    const own = await launch({ locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
    try {
      const page = await own.context.newPage();
      const fonts = [];
      page.on('response', async (r) => {
        if (/\.woff2$/.test(r.url())) fonts.push({ name: r.url().split('/').pop(), bytes: (await r.body()).length });
      });
      await page.goto(`${siteUrl()}#lesson=heatmap&lang=${lang}`);
      await page.waitForSelector('html[data-ready="true"]');
      await page.evaluate(() => document.fonts.ready);
      await settle(page);
      assert.equal(await page.textContent('button[data-lang="zh"]'), '简体中文');
      const used = await fontsUsed(page, 'button[data-lang="zh"]');
      // without a CJK web font the four glyphs come from a system font without them (tofu)
      assert.ok(used.length > 0 && used.every((f) => f.isCustomFont && /Noto Sans SC/.test(f.familyName)), `${lang}: ${JSON.stringify(used)}`);
      assert.equal(used.reduce((n, f) => n + f.glyphCount, 0), 4);
      if (lang === 'en') {
        const cjk = fonts.filter((f) => /noto-sans-sc|lang-zh/.test(f.name));
        assert.ok(cjk.every((f) => /^lang-zh-/.test(f.name)), `English page loads no full Chinese subset: ${cjk.map((f) => f.name)}`);
        const bytes = cjk.reduce((n, f) => n + f.bytes, 0);
        assert.ok(bytes > 0 && bytes < 8000, `language-button font: ${bytes} bytes`);
        mkdirSync(screenshotDir, { recursive: true });
        await page.locator('.site-header').screenshot({ path: `${screenshotDir}/header-en.png` });
      }
    } finally {
      await own.close();
    }
  }
});

test('exports: CSV, .npy and PNG of the current view', async () => {
  const page = await openPage(browser.context, '#lesson=heatmap&d=8&len=3&layout=interleaved&lang=en');
  const save = async (selector) => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
    return { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) };
  };
  const csv = await save('.export-csv');
  const lines = csv.bytes.toString('utf8').trim().split('\n');
  assert.equal(lines.length, 4);
  assert.equal(lines[0], 'position,dim0,dim1,dim2,dim3,dim4,dim5,dim6,dim7');
  const row1 = lines[2].split(',').map(Number);
  assert.equal(row1[0], 1);
  assert.ok(Math.abs(row1[1] - Math.sin(1)) < 1e-6);
  assert.ok(Math.abs(row1[2] - Math.cos(1)) < 1e-6);
  const npy = await save('.export-npy');
  assert.match(npy.name, /\.npy$/);
  assert.deepEqual([...npy.bytes.subarray(0, 6)], [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]);
  const headerLength = npy.bytes.readUInt16LE(8);
  assert.equal((10 + headerLength) % 64, 0);
  assert.match(npy.bytes.subarray(10, 10 + headerLength).toString('latin1'), /'descr': '<f4', 'fortran_order': False, 'shape': \(3, 8\)/);
  const values = new Float32Array(npy.bytes.buffer.slice(npy.bytes.byteOffset + 10 + headerLength, npy.bytes.byteOffset + npy.bytes.length));
  assert.equal(values.length, 24);
  assert.ok(Math.abs(values[8] - Math.sin(1)) < 1e-6);
  // the picture is exported as a figure (figures.test.mjs checks its axes, colour bar and cells)
  const png = await save('.lesson-heatmap figure.heatmap .export-figure-png');
  assert.deepEqual([...png.bytes.subarray(1, 4)], [0x50, 0x4e, 0x47]);
  assert.match(png.name, /rows0-2-en\.png$/);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('controls work from the keyboard', async () => {
  const page = await openPage(browser.context, '#lesson=heatmap&d=64&len=20');
  await page.focus('input.slider[data-key="d"]');
  await page.keyboard.press('ArrowRight');
  await settle(page);
  assert.equal(await page.$eval('.lesson-heatmap .heatmap-canvas', (c) => c.width), 68);
  // the heatmap itself takes focus; arrows move the read cell
  await page.focus('.lesson-heatmap .heatmap-plot');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await settle(page);
  assert.match(await page.textContent('.heatmap-readout'), /^position 2, column 0/);
  // visible focus ring
  const outline = await page.$eval('.lesson-heatmap .heatmap-plot', (el) => getComputedStyle(el).outlineStyle);
  assert.equal(outline, 'solid');
  // lesson navigation by keyboard
  await page.focus('nav a[data-lesson="waves"]');
  await page.keyboard.press('Enter');
  await settle(page);
  assert.equal(await page.getAttribute('article.lesson', 'data-lesson'), 'waves');
  assert.deepEqual(page.problems, []);
  await page.close();
});

// the text of the page: the lesson, the menu, the header
const TEXT = 'main p, main h1, main h2, main h3, main li, main label, main legend, main td, main th, main caption, main summary, main .readout, nav a, nav h2, .site-header *';

/**
 * Asserts that a page is drawn in dark colours: a dark background (WCAG
 * relative luminance below 0.05), light body text (above 0.4), and every
 * visible text at 4.5:1 or better against the background behind it.
 */
async function assertDark(page, what) {
  const { background, text, texts } = await pageColors(page, TEXT);
  assert.ok(background, `${what}: the page has an opaque background`);
  assert.ok(luminance(background) < 0.05, `${what}: background rgb(${background}) is dark (luminance ${luminance(background).toFixed(3)})`);
  assert.ok(luminance(text) > 0.4, `${what}: body text rgb(${text}) is light (luminance ${luminance(text).toFixed(3)})`);
  assert.ok(contrast(text, background) >= 4.5, `${what}: body text at ${contrast(text, background).toFixed(2)}:1`);
  assert.ok(texts.length >= 20, `${what}: ${texts.length} texts measured`);
  const low = texts.map((t) => ({ ...t, ratio: contrast(t.fg, t.bg ?? background) })).filter((t) => t.ratio < 4.5);
  assert.deepEqual(low.slice(0, 5).map((t) => `${t.what} at ${t.ratio.toFixed(2)}:1`), [], `${what}: ${low.length} of ${texts.length} texts below 4.5:1`);
}

test('a 360 px phone in dark mode: no horizontal scrolling, dark colours, screenshots', async () => {
  const phone = await launch({ viewport: { width: 360, height: 740 }, colorScheme: 'dark' });
  try {
    for (const lesson of LESSON_IDS) {
      const page = await openPage(phone.context, `#lesson=${lesson}`);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 360, `${lesson}: page is ${width} px wide`);
      await assertDark(page, `${lesson} on a phone`);
      await screenshot(page, `${lesson}-phone-dark`);
      assert.deepEqual(page.problems, []);
      await page.close();
    }
  } finally {
    await phone.close();
  }
});

test('a 390 × 844 phone, waves lesson, both languages: no panel scrolls inside or hides a control, a pinned one takes ≤ 30 % of the screen', async () => {
  for (const lang of ['en', 'zh']) {
    const page = await openPage(browser.context, `#lesson=waves&lang=${lang}`);
    await page.setViewportSize({ width: 390, height: 844 });
    const { share, panels } = await page.evaluate(panelFit);
    assert.ok(share > 0 && share < 1, `--pinned-share ${share}`);
    assert.ok(panels.length >= 2, `${panels.length} panels`);
    const bad = panels.flatMap((p) => [p.scrolls && `${p.what}: scrolls inside, ${p.scrolls}`, p.tooTall && `${p.what}: ${p.tooTall}`, p.cut.length > 0 && `${p.what}: not in view: ${p.cut.join(', ')}`].filter(Boolean));
    assert.deepEqual(bad, [], lang);
    assert.deepEqual(page.problems, []);
    await page.close();
  }
});

test('desktop dark mode: dark background, light text at 4.5:1 or better, in both languages; screenshot', async () => {
  const dark = await launch({ colorScheme: 'dark' });
  try {
    for (const lang of ['zh', 'en']) {
      const page = await openPage(dark.context, `#lesson=heatmap&lang=${lang}`);
      await assertDark(page, `heatmap, ${lang}`);
      if (lang === 'zh') await screenshot(page, 'heatmap-zh-dark');
      assert.deepEqual(page.problems, []);
      await page.close();
    }
  } finally {
    await dark.close();
  }
  // the same check fails in light mode: the page is light there
  const page = await openPage(browser.context, '#lesson=heatmap');
  const { background } = await pageColors(page, 'main p');
  assert.ok(!background || luminance(background) > 0.5, `light mode: background rgb(${background})`);
  await page.close();
});
