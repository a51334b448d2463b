// Every figure export names what it shows: for every lesson, in English and
// 简体中文, each chart and heatmap (every variant card) is exported as SVG and
// its file name, title, caption and colour bar are checked against the state
// the page shows (window.sinpeSite.state) and, for a card, the card's own
// preset. Values the colour bar must cover are computed here in float64 from
// the code the page shows (the pitfalls lesson's buggy recipe), not taken
// from the site.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LESSON_IDS } from '../../web/src/lessons/index.js';
import { PRESETS } from '../../web/src/model/fields.js';
import en from '../../web/src/i18n/en.js';
import zh from '../../web/src/i18n/zh.js';
import { launch, openPage, settle, expectedColor, closeColor } from './helpers.mjs';

const STRINGS = { en, zh };
let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function download(page, button) {
  const [dl] = await Promise.all([page.waitForEvent('download'), button.click()]);
  return { name: dl.suggestedFilename(), text: readFileSync(await dl.path(), 'utf8') };
}

/** Title, caption, the colour bar's tick values and (optionally) cells of an exported SVG, parsed by the browser. */
function parseSVG(page, source, cells = []) {
  // A Chinese figure's embedded font faces (checked below) are a <style>, which the page's
  // CSP refuses to apply even in a DOMParser document: the labels are read without it.
  source = source.replace(/<style>[\s\S]*?<\/style>/, '');
  return page.evaluate(
    async ({ source, cells }) => {
      const doc = new DOMParser().parseFromString(source, 'image/svg+xml');
      // the colour bar's ticks: the page's colour bar axis, drawn under the bar
      const ticks = [...doc.querySelectorAll('[data-role="colorbar-axis"] .tick text')].map((t) => Number(t.textContent.replace('−', '-'))).filter(Number.isFinite);
      // the marks of the plot: curves, reference lines, axis ticks (not the colour bar's)
      const marks = {
        lines: [...doc.querySelectorAll('path.chart-line')].map((p) => p.getAttribute('d')),
        refs: [...doc.querySelectorAll('line.chart-mark')].map((l) => ['x1', 'y1', 'x2', 'y2'].map((a) => l.getAttribute(a)).join(',')),
        ticks: [...doc.querySelectorAll('.tick text')].filter((t) => !t.closest('[data-role="colorbar-axis"]')).map((t) => t.textContent),
      };
      let picked = [];
      if (cells.length) {
        const image = [...doc.querySelectorAll('image')].find((i) => !i.getAttribute('data-role'));
        const raw = Uint8Array.from(atob(image.getAttribute('href').split(',')[1]), (c) => c.charCodeAt(0));
        const bitmap = await createImageBitmap(new Blob([raw], { type: 'image/png' }));
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        const ctx = canvas.getContext('2d', { willReadFrequently: true });
        ctx.drawImage(bitmap, 0, 0);
        picked = cells.map(([x, y]) => Array.from(ctx.getImageData(x, y, 1, 1).data.slice(0, 3)));
      }
      return {
        error: doc.querySelector('parsererror')?.textContent ?? null,
        title: doc.querySelector('svg > title')?.textContent ?? '',
        caption: doc.querySelector('svg > desc')?.textContent ?? '',
        ticks,
        marks,
        cells: picked,
      };
    },
    { source, cells },
  );
}

/** Exports every visible figure of the page's lesson: [{ name, title, caption, ticks, preset }]. */
async function exportAll(page, lesson) {
  const figures = page.locator(`article[data-lesson="${lesson}"] figure:is(.heatmap, .chart)`);
  const out = [];
  for (let i = 0; i < (await figures.count()); i++) {
    const figure = figures.nth(i);
    if (!(await figure.isVisible())) continue;
    const preset = await figure.evaluate((f) => f.closest('[data-preset]')?.dataset.preset ?? null);
    // the marks the page shows, read from the page's own drawing
    const screen = await figure.evaluate((f) => ({
      lines: [...f.querySelectorAll('path.chart-line:not(.chart-legend *)')].map((p) => p.getAttribute('d')),
      refs: [...f.querySelectorAll('line.chart-mark')].map((l) => ['x1', 'y1', 'x2', 'y2'].map((a) => l.getAttribute(a)).join(',')),
      ticks: [...f.querySelectorAll(':is(.chart-svg, .heatmap-axes) .tick text')].map((t) => t.textContent),
    }));
    const { name, text } = await download(page, figure.locator(':scope > .figure-buttons .export-figure-svg'));
    out.push({ name, preset, screen, ...(await parseSVG(page, text)) });
  }
  return out;
}

describe('export labels', () => {
  for (const lang of ['en', 'zh']) {
    test(`${lang}: every figure of every lesson is named, titled and captioned from the state it shows`, async () => {
      const t = STRINGS[lang];
      const page = await openPage(browser.context, `#lesson=${LESSON_IDS[0]}&lang=${lang}`);
      let total = 0;
      for (const lesson of LESSON_IDS) {
        await page.evaluate(({ lesson, lang }) => (location.hash = `#lesson=${lesson}&lang=${lang}`), { lesson, lang });
        await page.waitForSelector(`article[data-lesson="${lesson}"]`);
        await settle(page);
        const state = await page.evaluate(() => window.sinpeSite.state);
        const figures = await exportAll(page, lesson);
        assert.ok(figures.length > 0, `${lesson} has figures`);
        total += figures.length;
        const names = figures.map((f) => f.name);
        assert.equal(new Set(names).size, names.length, `${lesson}: one file name per figure: ${names.join(' ')}`);
        for (const f of figures) {
          const where = `${lang} ${lesson} ${f.name}`;
          assert.equal(f.error, null, where);
          assert.match(f.name, new RegExp(`^sinpe_${lesson}_.+-${lang}\\.svg$`), where);
          assert.doesNotMatch(f.name, /_(heatmap|chart)\d+(_|\.)/, `${where}: a figure is named by what it shows, not by its number`);
          assert.ok(f.title.trim().length > 0, `${where}: a title`);
          assert.ok(f.caption.trim().length > 0, `${where}: a caption`);
          if (lang === 'zh') {
            assert.match(f.caption, /[\u4e00-\u9fff]/, `${where}: the caption is in 简体中文`);
            // Chinese punctuation in Chinese sentences (the full-width colon, not ASCII ': ')
            assert.doesNotMatch(f.caption, /: /, `${where}: ${f.caption}`);
          }
          // a d_model named in the file name or caption is the one shown
          for (const m of f.name.matchAll(/_d(\d+)(?=[_.])/g)) assert.equal(Number(m[1]), state.d, `${where}: d in the name`);
          const dLabel = `${t.control.d} = `;
          if (f.caption.includes(dLabel)) assert.ok(f.caption.includes(`${dLabel}${state.d}`), `${where}: d in the caption: ${f.caption}`);
          // a variant card is its own preset's figure, whichever preset is selected
          const preset = f.preset;
          if (preset) {
            const presetLabel = `${t.control.preset} = `;
            assert.ok(f.name.includes(`_${preset}_`), `${where}: the card's preset in the name`);
            for (const other of PRESETS) {
              if (other === preset) continue;
              assert.ok(!f.name.includes(`_${other}_`), `${where}: not another preset's name (${other})`);
              assert.ok(!f.caption.includes(`${presetLabel}${other}${t.figure.listJoin}`) && !f.caption.includes(`${presetLabel}${other}${t.figure.stop}`), `${where}: caption names ${other}`);
            }
            assert.ok(f.caption.includes(`${presetLabel}${preset}`), `${where}: the caption names the card's preset: ${f.caption}`);
          }
          // the export is the page's drawing: the same curves (path data), reference lines and axis ticks
          assert.ok(f.screen.ticks.length >= 4, `${where}: the page's figure has axis ticks`);
          assert.deepEqual(f.marks, f.screen, `${where}: the export's marks are the page's`);
          // a heatmap's colour bar has its ticks (its range is checked on the pitfalls map below)
          if (f.name.includes('rows')) assert.ok(f.ticks.length >= 2, `${where}: colour bar ticks ${f.ticks}`);
        }
        if (lesson === 'variants') assert.equal(figures.filter((f) => f.preset).length, PRESETS.length, 'every card exported');
      }
      assert.ok(total >= 20, `${total} figures exported`);
      assert.deepEqual(page.problems, []);
      await page.close();
    });
  }

  test('pitfalls: the difference map’s colour bar covers the differences, and its cells are coloured on that scale', async () => {
    const page = await openPage(browser.context, '#lesson=pitfalls&lang=en');
    const { d, len, cmap } = await page.evaluate(() => window.sinpeSite.state);
    // the buggy recipe the page shows: column c divided by 10000^(2c/d), sin for even c, cos for odd
    const value = (p, c, divisor) => (c % 2 === 0 ? Math.sin(p / divisor) : Math.cos(p / divisor));
    let worst = { v: 0, p: 0, c: 0 };
    for (let p = 0; p < len; p++) {
      for (let c = 0; c < d; c++) {
        const diff = value(p, c, 10000 ** ((2 * c) / d)) - value(p, c, 10000 ** ((2 * (c >> 1)) / d));
        if (Math.abs(diff) > Math.abs(worst.v)) worst = { v: diff, p, c };
      }
    }
    assert.ok(Math.abs(worst.v) > 1, `the defaults show a difference beyond ±1 (${worst.v})`);
    const figure = page.locator('.map-difference');
    const { name, text } = await download(page, figure.locator('.export-figure-svg'));
    const svg = await parseSVG(page, text, [[worst.c, worst.p]]);
    assert.match(name, /difference/);
    const [lo, hi] = [Math.min(...svg.ticks), Math.max(...svg.ticks)];
    assert.ok(lo <= -Math.abs(worst.v) && hi >= Math.abs(worst.v), `colour bar ${lo}…${hi} covers ${worst.v}`);
    const caption = svg.caption.match(/from (−?[\d.]+) to (−?[\d.]+)/);
    assert.ok(caption, svg.caption);
    const [vmin, vmax] = [Number(caption[1].replace('−', '-')), Number(caption[2].replace('−', '-'))];
    assert.ok(vmin <= worst.v && worst.v <= vmax, `caption range ${vmin}…${vmax} covers ${worst.v}`);
    // the cell is coloured on the stated scale, not clipped at ±1
    const expected = expectedColor(cmap, worst.v, vmin, vmax);
    assert.ok(closeColor(svg.cells[0], expected), `cell (${worst.c}, ${worst.p}) = ${worst.v}: ${svg.cells[0]} vs ${expected}`);
    // and the page's own colour bar beside the map says the same range
    const pageTicks = await page.$$eval('.lesson-pitfalls .colorbar', (bars) => bars.map((b) => [...b.querySelectorAll('.tick text')].map((t) => Number(t.textContent.replace('−', '-')))));
    assert.ok(
      pageTicks.some((ticks) => Math.min(...ticks) <= -Math.abs(worst.v) && Math.max(...ticks) >= Math.abs(worst.v)),
      `a colour bar on the page covers ${worst.v}: ${JSON.stringify(pageTicks)}`,
    );
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('rope: a pasted config exports under its own type, not the last example’s name', async () => {
    for (const lang of ['en', 'zh']) {
      const page = await openPage(browser.context, `#lesson=rope&lang=${lang}`);
      const model = (await page.evaluate(() => window.sinpeSite.state)).model;
      // a YaRN config, pasted (not one of the example buttons)
      const pasted = JSON.stringify({ hidden_size: 3584, num_attention_heads: 28, max_position_embeddings: 131072, rope_theta: 1000000, rope_scaling: { type: 'yarn', factor: 4, original_max_position_embeddings: 32768 } }, null, 2);
      await page.fill('#rope-config-text', pasted);
      await page.click('.config-parse');
      await settle(page);
      const { name, text } = await download(page, page.locator('.config-figure figure.chart .export-figure-svg'));
      const svg = await parseSVG(page, text);
      assert.notEqual(model, 'yarn');
      assert.ok(!name.includes(model), `${lang}: ${name} is not named after the example ${model}`);
      assert.equal(name, `sinpe_rope_config_yarn_r128_b1000000-${lang}.svg`, `${lang}: the figure's language in its name`);
      assert.match(svg.caption, /yarn/);
      assert.deepEqual(page.problems, []);
      await page.close();
    }
  });
});

// ---- Chinese PNG exports on a machine without a CJK font ----

/** A fontconfig file: the system's fonts minus every font with Chinese glyphs (fc-list :lang=zh). */
function fontconfigWithoutCJK(dir) {
  const cjk = execFileSync('fc-list', [':lang=zh', '--format', '%{file}\n'], { encoding: 'utf8' }).split('\n').filter(Boolean);
  const esc = (t) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const file = join(dir, 'fonts.conf');
  writeFileSync(
    file,
    `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>\n  <cachedir>${esc(join(dir, 'cache'))}</cachedir>\n  <selectfont><rejectfont>${cjk.map((f) => `<glob>${esc(f)}</glob>`).join('')}</rejectfont></selectfont>\n</fontconfig>\n`,
  );
  const env = { ...process.env, FONTCONFIG_FILE: file };
  const left = execFileSync('fc-list', [':lang=zh', '--format', '%{file}\n'], { encoding: 'utf8', env }).trim();
  const all = execFileSync('fc-list', ['--format', '%{file}\n'], { encoding: 'utf8', env }).trim();
  return { env, hidden: cjk.length, left, fonts: all ? all.split('\n').length : 0 };
}

/** The iTXt chunks of a PNG: { keyword: text }. */
function pngTexts(bytes) {
  const out = {};
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 8; at + 12 <= bytes.length; ) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    if (type === 'iTXt') {
      const data = bytes.subarray(at + 8, at + 8 + length);
      const nul = data.indexOf(0);
      const keyword = new TextDecoder().decode(data.subarray(0, nul));
      // keyword NUL, flag, method, language NUL, translated keyword NUL, text
      let rest = data.indexOf(0, nul + 3);
      rest = data.indexOf(0, rest + 1);
      out[keyword] = new TextDecoder().decode(data.subarray(rest + 1));
    }
    at += 12 + length;
  }
  return out;
}

// In the page: the glyphs of a band of a PNG (its title line) cut at blank
// columns, each compared with the box a character in no font is drawn as
// (U+E000, private use, drawn in the figure's font at the title's size).
async function titleGlyphs({ png, band, font }) {
  const binarize = (ctx, w, h) => {
    const d = ctx.getImageData(0, 0, w, h).data;
    return (x, y) => d[4 * (y * w + x)] + d[4 * (y * w + x) + 1] + d[4 * (y * w + x) + 2] < 3 * 140 && d[4 * (y * w + x) + 3] > 128;
  };
  // ink boxes: runs of columns with ink, each cropped to its rows with ink
  const cells = (ink, w, y0, y1) => {
    const out = [];
    let x = 0;
    while (x < w) {
      const col = (cx) => Array.from({ length: y1 - y0 }, (_, k) => ink(cx, y0 + k));
      if (!col(x).some(Boolean)) {
        x++;
        continue;
      }
      const left = x;
      while (x < w && col(x).some(Boolean)) x++;
      const rows = [];
      for (let y = y0; y < y1; y++) for (let cx = left; cx < x; cx++) if (ink(cx, y)) rows.push(y);
      const top = Math.min(...rows);
      const bottom = Math.max(...rows) + 1;
      const mask = [];
      for (let y = top; y < bottom; y++) for (let cx = left; cx < x; cx++) mask.push(ink(cx, y) ? 1 : 0);
      out.push({ w: x - left, h: bottom - top, mask });
    }
    return out;
  };
  const raw = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
  const bitmap = await createImageBitmap(new Blob([raw], { type: 'image/png' }));
  const canvas = new OffscreenCanvas(bitmap.width, band[1]);
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  ctx.drawImage(bitmap, 0, 0);
  const glyphs = cells(binarize(ctx, bitmap.width, band[1]), bitmap.width, band[0], band[1]);
  // the tofu box of this browser, in the title's font
  const ref = new OffscreenCanvas(120, 80);
  const rctx = ref.getContext('2d', { willReadFrequently: true });
  Object.assign(rctx, { fillStyle: '#ffffff' });
  rctx.fillRect(0, 0, 120, 80);
  Object.assign(rctx, { fillStyle: '#1d2128', font });
  rctx.fillText('\uE000', 20, 55);
  const [tofu] = cells(binarize(rctx, 120, 80), 120, 0, 80);
  const isTofu = (g) => {
    if (Math.abs(g.w - tofu.w) > 2 || Math.abs(g.h - tofu.h) > 2) return false;
    let both = 0;
    let either = 0;
    for (let y = 0; y < Math.max(g.h, tofu.h); y++) {
      for (let x = 0; x < Math.max(g.w, tofu.w); x++) {
        const a = x < g.w && y < g.h && g.mask[y * g.w + x];
        const b = x < tofu.w && y < tofu.h && tofu.mask[y * tofu.w + x];
        both += a && b ? 1 : 0;
        either += a || b ? 1 : 0;
      }
    }
    return both / either >= 0.6;
  };
  return { glyphs: glyphs.length, tofu: glyphs.filter(isTofu).length, tofuBox: tofu && `${tofu.w}×${tofu.h}` };
}

describe('Chinese PNG exports without a system CJK font', () => {
  let dir;
  let bare;
  let fonts;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sinpe-fontconfig-'));
    fonts = fontconfigWithoutCJK(dir);
    bare = await launch({ env: fonts.env });
  });
  after(async () => {
    await bare?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the browser sees fonts, none of them with Chinese glyphs', () => {
    assert.equal(fonts.left, '', `fonts with Chinese glyphs still seen: ${fonts.left}`);
    assert.ok(fonts.fonts > 0, 'some fonts are left to draw Latin text');
  });

  for (const lesson of ['heatmap', 'waves']) {
    test(`${lesson}: a 简体中文 PNG's title is drawn in Chinese glyphs, not empty boxes`, async () => {
      const page = await openPage(bare.context, `#lesson=${lesson}&lang=zh`);
      const figure = page.locator(`article[data-lesson="${lesson}"] figure:is(.heatmap, .chart)`).first();
      const { text } = await download(page, figure.locator(':scope > .figure-buttons .export-figure-svg'));
      const family = text.match(/<svg[^>]* font-family="([^"]+)"/)?.[1].replace(/&apos;/g, "'").replace(/&quot;/g, '"');
      assert.ok(family, 'the exported figure names its font');
      const [dl] = await Promise.all([page.waitForEvent('download'), figure.locator(':scope > .figure-buttons .export-figure-png').click()]);
      const png = readFileSync(await dl.path());
      const title = pngTexts(png).Title ?? '';
      const han = [...title].filter((c) => /[\u4e00-\u9fff]/.test(c)).length;
      assert.ok(han >= 2, `the title is in Chinese: "${title}"`);
      // the title line: 16 px bold at 16 px from the top (lib/figure/compose.js), 2 image pixels per CSS pixel
      const seen = await page.evaluate(titleGlyphs, { png: png.toString('base64'), band: [16, 88], font: `700 32px ${family}` });
      assert.ok(seen.tofuBox, 'the reference box of a character in no font was drawn');
      assert.ok(seen.glyphs >= han, `"${title}": ${seen.glyphs} glyphs drawn for ${han} Chinese characters`);
      assert.equal(seen.tofu, 0, `"${title}": ${seen.tofu} of ${seen.glyphs} glyphs are the empty box (${seen.tofuBox}) of a character in no font`);
      assert.deepEqual(page.problems, []);
      await page.close();
    });

    test(`${lesson}: a 简体中文 SVG carries the faces of its Chinese characters; drawn as an image (no page font), its title is in Chinese glyphs`, async () => {
      const page = await openPage(bare.context, `#lesson=${lesson}&lang=zh`);
      const figure = page.locator(`article[data-lesson="${lesson}"] figure:is(.heatmap, .chart)`).first();
      const { text } = await download(page, figure.locator(':scope > .figure-buttons .export-figure-svg'));
      const faces = [...text.matchAll(/@font-face\{[^}]*src:url\(data:font\/woff2;base64,/g)].length;
      assert.ok(faces >= 1, `${faces} embedded faces`);
      const family = text.match(/<svg[^>]* font-family="([^"]+)"/)?.[1].replace(/&apos;/g, "'").replace(/&quot;/g, '"');
      // the file drawn as an image: it sees no font of the page, only its own and the system's
      const drawn = await page.evaluate(async (source) => {
        const url = URL.createObjectURL(new Blob([source], { type: 'image/svg+xml' }));
        const image = new Image();
        image.src = url;
        await image.decode();
        const canvas = new OffscreenCanvas(image.naturalWidth * 2, image.naturalHeight * 2);
        const ctx = canvas.getContext('2d', { willReadFrequently: true });
        // an SVG image loads its own fonts after it decodes, its text unpainted meanwhile: drawn
        // again until the title line has ink (at most 5 s)
        const inked = () => ctx.getImageData(0, 16, canvas.width, 72).data.some((v, i) => i % 4 === 0 && v < 140);
        for (let tries = 0; tries < 50; tries++) {
          ctx.clearRect(0, 0, canvas.width, canvas.height);
          ctx.drawImage(image, 0, 0, canvas.width, canvas.height);
          if (inked()) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        URL.revokeObjectURL(url);
        const bytes = new Uint8Array(await (await canvas.convertToBlob({ type: 'image/png' })).arrayBuffer());
        let binary = '';
        for (const b of bytes) binary += String.fromCharCode(b);
        return { png: btoa(binary), title: source.match(/<title>([^<]*)<\/title>/)?.[1] ?? '' };
      }, text);
      const han = [...drawn.title].filter((c) => /[\u4e00-\u9fff]/.test(c)).length;
      assert.ok(han >= 2, `the title is in Chinese: "${drawn.title}"`);
      const seen = await page.evaluate(titleGlyphs, { png: drawn.png, band: [16, 88], font: `700 32px ${family}` });
      assert.ok(seen.tofuBox, 'the reference box of a character in no font was drawn');
      assert.ok(seen.glyphs >= han, `"${drawn.title}": ${seen.glyphs} glyphs drawn for ${han} Chinese characters`);
      assert.equal(seen.tofu, 0, `"${drawn.title}": ${seen.tofu} of ${seen.glyphs} glyphs are the empty box (${seen.tofuBox}) of a character in no font`);
      assert.deepEqual(page.problems, []);
      await page.close();
    });
  }

  test('an English SVG carries no font', async () => {
    const page = await openPage(bare.context, '#lesson=waves&lang=en');
    const figure = page.locator('article[data-lesson="waves"] figure.chart').first();
    const { text } = await download(page, figure.locator(':scope > .figure-buttons .export-figure-svg'));
    assert.doesNotMatch(text, /@font-face/);
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
