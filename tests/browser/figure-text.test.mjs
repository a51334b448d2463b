// The words of every figure read right, in every lesson and both languages,
// on a desktop (1280 × 800) with every section laid out and every foldable
// part opened:
// - no label shows a raw `_` (λ_i, p·ω_j, G_t, L/l_f): a figure's visible
//   text, its legend and axes, and the words a PNG export paints on its
//   canvas itself, show subscripts instead;
// - no label of a chart sits on a drawn curve: each label's box (getBBox)
//   against points sampled along every curve (getPointAtLength);
// - every figure caption, and every export's caption, ends with its
//   language's full stop, and the waves lesson's exports name only what
//   their figure shows (not the clock section's position);
// - no table or figure hides part of itself behind a sideways scroll: nothing
//   from a table or figure up to the article has scrollWidth > clientWidth.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { LESSON_IDS } from '../../web/src/lessons/index.js';
import en from '../../web/src/i18n/en.js';
import zh from '../../web/src/i18n/zh.js';
import { launch, openPage, settle } from './helpers.mjs';

const STRINGS = { en, zh };
const STOP = { en: '.', zh: '。' };
// a subscript written as TeX writes it, shown raw: an underscore after a one-letter symbol (λ_i,
// L/l_f, d_model), or before a {…} group; a code name (max_len, rope_theta, <|vision_start|>) is
// written as in code, its `_` kept
const RAW_SUBSCRIPT = /(?<![A-Za-z\p{Script=Greek}\d_])\p{L}_[\p{L}\d]|_\{/u;

let browser;
before(async () => {
  browser = await launch({ viewport: { width: 1280, height: 800 } });
});
after(async () => {
  await browser?.close();
});

/** Opens the lesson with every section laid out and every details open, settled. */
async function openLesson(page, lesson, lang) {
  await page.evaluate((h) => (location.hash = h), `#lesson=${lesson}&lang=${lang}`);
  await page.waitForSelector(`article[data-lesson="${lesson}"] .lesson-pager`);
  await page.evaluate(async () => {
    for (const s of document.querySelectorAll('.lesson-section')) s.style.contentVisibility = 'visible';
    for (const d of document.querySelectorAll('main details')) d.open = true;
    await document.fonts.ready;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  });
  await settle(page);
}

/** Texts of the lesson's figures, legends, axes and captions that show a raw `_` (code names in <code> aside). */
const rawSubscripts = (page, pattern) =>
  page.evaluate((src) => {
    const raw = new RegExp(src, 'u');
    const roots = document.querySelectorAll('main article :is(figure, svg, .chart-legend, .colorbar, caption, .figure-caption)');
    const found = new Set();
    let seen = 0;
    for (const root of roots) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const el = node.parentElement;
        if (!node.textContent.trim() || el.closest('code, .katex, title, desc')) continue;
        if (!el.getClientRects().length) continue;
        seen++;
        // the text as drawn: an element's own words, its subscripts (tspans, sub) joined to them
        const shown = el.closest('text, li, caption, figcaption, p, th, td, span') ?? el;
        if (raw.test(node.textContent) || raw.test(shown.textContent)) found.add(shown.textContent.trim().slice(0, 80));
      }
    }
    return { seen, found: [...found] };
  }, pattern.source);

/** Every chart label whose box meets a drawn curve: [“label” on “series”]. */
const labelsOnCurves = (page) =>
  page.evaluate(() => {
    const out = [];
    let labels = 0;
    for (const svg of document.querySelectorAll('main article svg.chart-svg')) {
      if (!svg.getClientRects().length) continue;
      const curves = [...svg.querySelectorAll('path.chart-line')].map((p) => {
        const m = p.getScreenCTM();
        const length = p.getTotalLength();
        const points = [];
        for (let at = 0; at <= length; at += 1) {
          const q = p.getPointAtLength(at);
          points.push([m.a * q.x + m.c * q.y + m.e, m.b * q.x + m.d * q.y + m.f]);
        }
        return { name: p.getAttribute('data-series'), points };
      });
      for (const text of svg.querySelectorAll('text.chart-mark-label')) {
        labels++;
        const b = text.getBBox();
        const m = text.getScreenCTM();
        const [left, top] = [m.a * b.x + m.c * b.y + m.e, m.b * b.x + m.d * b.y + m.f];
        const [right, bottom] = [left + b.width * m.a, top + b.height * m.d];
        for (const c of curves) {
          const hit = c.points.find(([x, y]) => x > left && x < right && y > top && y < bottom);
          if (hit) {
            out.push(`“${text.textContent}” on “${c.name}” at (${Math.round(hit[0] - left)}, ${Math.round(hit[1] - top)}) of its ${Math.round(b.width)}×${Math.round(b.height)} box (${svg.getAttribute('aria-label')})`);
            break;
          }
        }
      }
    }
    return { labels, out };
  });

/** Figure captions on the page (a table's caption, a figure's caption paragraph, a figcaption) that do not end with `stop`. */
const unstoppedCaptions = (page, stop) =>
  page.evaluate((stop) => {
    const captions = [...document.querySelectorAll('main article :is(caption, figcaption, .figure-caption)')].filter((c) => c.getClientRects().length && c.textContent.trim());
    return { count: captions.length, bad: captions.map((c) => c.textContent.trim()).filter((t) => !t.endsWith(stop)) };
  }, stop);

/** Tables and figures (or their boxes up to the article) whose content is wider than their box. */
const sidewaysScrolls = (page) =>
  page.evaluate(() => {
    const bad = new Set();
    const items = [...document.querySelectorAll('main article :is(table, figure)')].filter((el) => el.getClientRects().length);
    for (const el of items) {
      for (let box = el; box && box.tagName !== 'ARTICLE'; box = box.parentElement) {
        const cs = getComputedStyle(box);
        // an inline box has no width of its own to overflow
        if (cs.display.startsWith('inline') && !cs.display.includes('block') && !cs.display.includes('table')) continue;
        if (box.scrollWidth > box.clientWidth + 1 && box.clientWidth > 0) {
          bad.add(`${box.tagName.toLowerCase()}.${String(box.className?.baseVal ?? box.className).trim().replace(/\s+/g, '.')} ${box.scrollWidth} > ${box.clientWidth} (“${el.textContent.trim().slice(0, 50)}”)`);
        }
      }
    }
    return { count: items.length, bad: [...bad] };
  });

/** The SVG and PNG exports of every visible figure: [{ name, caption, texts (visible SVG words, runs joined) }]. */
async function exportsOf(page, lesson) {
  const figures = page.locator(`article[data-lesson="${lesson}"] figure:is(.heatmap, .chart)`);
  const out = [];
  for (let i = 0; i < (await figures.count()); i++) {
    const figure = figures.nth(i);
    if (!(await figure.isVisible())) continue;
    const [svgFile] = await Promise.all([page.waitForEvent('download'), figure.locator(':scope > .figure-buttons .export-figure-svg').click()]);
    const source = readFileSync(await svgFile.path(), 'utf8').replace(/<style>[\s\S]*?<\/style>/, '');
    const parsed = await page.evaluate((source) => {
      const doc = new DOMParser().parseFromString(source, 'image/svg+xml');
      return { caption: doc.querySelector('svg > desc')?.textContent ?? '', texts: [...doc.querySelectorAll('text')].map((t) => t.textContent) };
    }, source);
    // the PNG: the words it paints on its canvas itself (lib/figure/text-layer.js), as painted
    const before = await page.evaluate(() => window.sinpeSite.painted?.length ?? 0);
    const [pngFile] = await Promise.all([page.waitForEvent('download'), figure.locator(':scope > .figure-buttons .export-figure-png').click()]);
    await pngFile.path();
    const painted = await page.evaluate((n) => window.sinpeSite.painted?.slice(n) ?? [], before);
    out.push({ name: svgFile.suggestedFilename(), ...parsed, painted });
  }
  return out;
}

for (const lang of ['en', 'zh']) {
  test(`${lang}: no figure of any lesson shows a raw “_”, on the page or in its exports`, async () => {
    const page = await openPage(browser.context, `#lesson=${LESSON_IDS[0]}&lang=${lang}`);
    const found = [];
    let [seen, painted] = [0, 0];
    for (const lesson of LESSON_IDS) {
      await openLesson(page, lesson, lang);
      const shown = await rawSubscripts(page, RAW_SUBSCRIPT);
      seen += shown.seen;
      found.push(...shown.found.map((t) => `${lesson}: “${t}”`));
      for (const f of await exportsOf(page, lesson)) {
        painted += f.painted.length;
        for (const t of [...f.texts, ...f.painted]) if (RAW_SUBSCRIPT.test(t)) found.push(`${lesson} export ${f.name}: “${t}”`);
      }
    }
    assert.ok(seen > 200, `${seen} texts of figures looked at`);
    if (lang === 'zh') assert.ok(painted > 50, `${painted} words painted on PNG canvases looked at`);
    assert.deepEqual([...new Set(found)], []);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test(`${lang}: no chart label of any lesson sits on a drawn curve`, async () => {
    const page = await openPage(browser.context, `#lesson=${LESSON_IDS[0]}&lang=${lang}`);
    const found = [];
    let labels = 0;
    for (const lesson of LESSON_IDS) {
      await openLesson(page, lesson, lang);
      const seen = await labelsOnCurves(page);
      labels += seen.labels;
      found.push(...seen.out.map((t) => `${lesson}: ${t}`));
    }
    assert.ok(labels >= 8, `${labels} chart labels looked at`);
    assert.deepEqual(found, []);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test(`${lang}: every caption, on the page and in the exports, ends with a full stop; the waves exports name only what they show`, async () => {
    const t = STRINGS[lang];
    const page = await openPage(browser.context, `#lesson=${LESSON_IDS[0]}&lang=${lang}`);
    const bad = [];
    let [count, exported] = [0, 0];
    for (const lesson of LESSON_IDS) {
      await openLesson(page, lesson, lang);
      const shown = await unstoppedCaptions(page, STOP[lang]);
      count += shown.count;
      bad.push(...shown.bad.map((c) => `${lesson}: “${c}”`));
      const exports = await exportsOf(page, lesson);
      exported += exports.length;
      for (const f of exports) {
        if (!f.caption.endsWith(STOP[lang])) bad.push(`${lesson} export ${f.name}: “${f.caption}”`);
        // the caption's own sentences closed before the sentence naming the package (“由 sinpe … 生成” / “Made by sinpe …”)
        const made = t.figure.made.split('{version}')[0];
        const at = f.caption.lastIndexOf(made);
        if (at <= 0 || !f.caption.slice(0, at).endsWith(`${STOP[lang]}${t.figure.space}`)) bad.push(`${lesson} export ${f.name}: “${f.caption}”`);
      }
      if (lesson === 'waves') {
        const state = await page.evaluate(() => window.sinpeSite.state);
        if (exports.length < 2) bad.push('the waves lesson exports its charts');
        for (const f of exports) {
          // the clock section's position is not what the curves or the wavelengths show
          if (f.caption.includes(`${t.control.pos} = `)) bad.push(`waves ${f.name} names the clock's position: ${f.caption}`);
          // what it shows, with the values that drew it
          if (!f.caption.includes(`${t.control.d} = ${state.d}`)) bad.push(`waves ${f.name}: no d_model = ${state.d} in “${f.caption}”`);
        }
      }
    }
    assert.ok(count >= 10, `${count} captions on the pages`);
    assert.ok(exported >= 20, `${exported} exports`);
    assert.deepEqual(bad, []);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test(`${lang}: at 1280 px no table or figure of any lesson hides part of itself behind a sideways scroll`, async () => {
    const page = await openPage(browser.context, `#lesson=${LESSON_IDS[0]}&lang=${lang}`);
    const bad = [];
    let count = 0;
    for (const lesson of LESSON_IDS) {
      await openLesson(page, lesson, lang);
      const seen = await sidewaysScrolls(page);
      count += seen.count;
      bad.push(...seen.bad.map((b) => `${lesson}: ${b}`));
    }
    assert.ok(count >= 40, `${count} tables and figures looked at`);
    assert.deepEqual(bad, []);
    assert.deepEqual(page.problems, []);
    await page.close();
  });
}
