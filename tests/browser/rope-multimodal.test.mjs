// The rope lesson's multimodal and half-precision sections in headless Chromium,
// both languages: every number they show is recomputed here in float64 from
// transformers' rules (tests/web/multimodal-reference.mjs: get_rope_index,
// the pair → axis split, Pixtral's angles, float16/bfloat16 rounding on the
// float64's bits), never from the page's strings or the package.
// npm test: quick form
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { getRopeIndex, halfWorstReference, pairAxes, pixtralAngle, usualValue } from '../web/multimodal-reference.mjs';
import { launch, openPage, settle, numbersIn, assertLanguage } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const LANGS = ['en', 'zh'];
// Qwen2-VL's token ids (its config.json): <|image_pad|>, <|vision_start|>, <|vision_end|>
const IMAGE = 151655;
const VISION_START = 151652;
const VISION_END = 151653;

async function setNumber(page, key, value) {
  const box = `.lesson-rope input.number[data-key="${key}"]`;
  await page.fill(box, String(value));
  await page.press(box, 'Enter');
  await settle(page);
}

async function downloadText(page, selector) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return { name: dl.suggestedFilename(), lines: readFileSync(await dl.path(), 'utf8').trim().split('\n') };
}

/** The position ids expected for the sequence the section describes, from get_rope_index. */
function expectedIds({ before, after, t, h, w, m }) {
  const n = t * Math.floor(h / m) * Math.floor(w / m);
  const ids = [...Array(before).fill(1), VISION_START, ...Array(n).fill(IMAGE), VISION_END, ...Array(after).fill(1)];
  return { ...getRopeIndex(ids, { imageTokenId: IMAGE, visionStartTokenId: VISION_START, imageGridThw: [[t, h, w]], spatialMergeSize: m }), n: ids.length, images: n };
}

/** The shown ids: the t, h and w rows of the table, token by token. */
async function shownIds(page) {
  const rows = await page.$$eval('table.mrope-positions tbody tr[data-axis]', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent.trim())));
  assert.equal(rows.length, 3, 'three rows: t, h, w');
  return rows[0].map((_, i) => rows.map((row) => Number(row[i])));
}

describe('the rope lesson: multimodal RoPE and half precision', () => {
  test('text + image: every shown position id is get_rope_index’s, as the grid and merge size change; CSV named by the state', async () => {
    for (const lang of LANGS) {
      // rows and columns of tokens; the image's grid is rows·m × cols·m patches
      const c = { before: 2, after: 3, t: 2, rows: 3, cols: 2, m: 2 };
      const page = await openPage(browser.context, `#lesson=rope&lang=${lang}&textBefore=${c.before}&textAfter=${c.after}&imgT=${c.t}&imgRows=${c.rows}&imgCols=${c.cols}&merge=${c.m}`);
      // every change in English; in Chinese the first view (the same numbers, the other language)
      const changes = [{}, { m: 1 }, { rows: 5, m: 3 }, { t: 3, rows: 1, cols: 1 }, { before: 0, after: 0, t: 1 }];
      for (const change of lang === 'en' ? changes : changes.slice(0, 1)) {
        Object.assign(c, change);
        const keys = { m: 'merge', rows: 'imgRows', cols: 'imgCols', t: 'imgT', before: 'textBefore', after: 'textAfter' };
        for (const [k, v] of Object.entries(change)) await setNumber(page, keys[k], v);
        Object.assign(c, { h: c.rows * c.m, w: c.cols * c.m });
        const want = expectedIds(c);
        const shown = await shownIds(page);
        assert.equal(shown.length, want.n, `${lang} ${JSON.stringify(c)}: tokens shown`);
        assert.deepEqual(shown, want.positions, `${lang} ${JSON.stringify(c)}`);
        const kinds = await page.$$eval('table.mrope-positions td.mrope-kind', (tds) => tds.map((td) => td.textContent.trim()));
        // the image's tokens all have one short name, different from the text's
        const imageKind = kinds[c.before + 1];
        assert.equal(kinds.filter((k) => k === imageKind).length, want.images, `${lang}: image tokens`);
        const max = Math.max(...want.positions.flat());
        assert.deepEqual(numbersIn(await page.textContent('.mrope-summary')), [want.n, max, max + 1, want.ropeDelta], `${lang}: summary`);
        assertLanguage(await page.textContent('.mrope-summary'), lang, 'summary');
      }
      const csv = await downloadText(page, '.mrope-positions-csv');
      assert.equal(csv.name, `sinpe_rope_mrope_positions_before${c.before}_image${c.t}x${c.h}x${c.w}_merge${c.m}_after${c.after}.csv`);
      assert.equal(csv.lines[0], 'token,kind,t,h,w');
      const want = expectedIds(c);
      assert.deepEqual(csv.lines.slice(1).map((l) => l.split(',').slice(2).map(Number)), want.positions);
      assert.deepEqual(page.problems, []);
      await page.close();
    }
  });

  test('the pairs each axis turns, sectioned (Qwen2-VL) and interleaved (Qwen3-VL), for every mrope_section offered', async () => {
    for (const lang of LANGS) {
      const page = await openPage(browser.context, `#lesson=rope&lang=${lang}`);
      const options = await page.$$eval('select[data-key="msec"] option', (os) => os.map((o) => o.value));
      assert.ok(options.length >= 2, `${lang}: sections offered`);
      for (const value of lang === 'en' ? options : options.slice(-1)) {
        await page.selectOption('select[data-key="msec"]', value);
        await settle(page);
        const section = value.split(',').map(Number);
        for (const axes of ['sectioned', 'interleaved']) {
          const shown = await page.$$eval(`.mrope-strip-${axes} li.mrope-pair`, (lis) => lis.map((li) => li.textContent.trim()));
          const want = pairAxes(section, 64, axes).map((a) => 'thw'[a]);
          assert.deepEqual(shown, want, `${lang} ${axes} ${value}`);
          const counts = [0, 1, 2].map((a) => want.filter((x) => x === 'thw'[a]).length);
          const caption = await page.textContent(`.mrope-strip-${axes} figcaption`);
          assert.deepEqual(numbersIn(caption).slice(-3), counts, `${lang} ${axes} ${value}: counts in "${caption}"`);
        }
      }
      const csv = await downloadText(page, '.mrope-axes-csv');
      const last = options[options.length - 1];
      assert.equal(csv.name, `sinpe_rope_mrope_axes_section${last.replace(/,/g, '-')}_r128.csv`);
      const sec = pairAxes(last.split(',').map(Number), 64, 'sectioned');
      const int = pairAxes(last.split(',').map(Number), 64, 'interleaved');
      assert.deepEqual(csv.lines.slice(1), sec.map((a, j) => `${j},${'thw'[a]},${'thw'[int[j]]}`));
      assert.deepEqual(page.problems, []);
      await page.close();
    }
  });

  test('patch grid: each patch’s row and column hands, and the clicked patch’s angles, are Pixtral’s', async () => {
    const r = 16;
    const base = 10000;
    for (const lang of LANGS) {
      const [H, W] = [3, 5];
      const page = await openPage(browser.context, `#lesson=rope&lang=${lang}&gridH=${H}&gridW=${W}`);
      // the little dials: hand end points in units of the face's radius (y up)
      const hands = await page.$$eval('.patch-grid button.patch', (buttons) =>
        buttons.map((b) => {
          const r = Number(b.querySelector('.dial-face').getAttribute('r'));
          const end = (sel) => {
            const l = b.querySelector(sel);
            return [Number(l.getAttribute('x2')) / r, -Number(l.getAttribute('y2')) / r];
          };
          return { row: end('.patch-hand-row'), column: end('.patch-hand-column') };
        }),
      );
      assert.equal(hands.length, H * W);
      hands.forEach((hand, m) => {
        const [y, x] = [Math.floor(m / W), m % W];
        const row = pixtralAngle(y, x, 0, r, base);
        const column = pixtralAngle(y, x, r / 4, r, base);
        for (const [got, angle, what] of [[hand.row, row, 'row'], [hand.column, column, 'column']]) {
          assert.ok(Math.abs(got[0] - Math.cos(angle)) < 1e-5 && Math.abs(got[1] - Math.sin(angle)) < 1e-5, `${lang} patch ${m} ${what} hand ${got} vs angle ${angle}`);
        }
      });
      for (const m of lang === 'en' ? [0, 7, 14] : [7]) {
        await page.click(`.patch-grid button.patch[data-patch="${m}"]`);
        await settle(page);
        const [y, x] = [Math.floor(m / W), m % W];
        assert.equal(await page.getAttribute(`.patch-grid button.patch[data-patch="${m}"]`, 'aria-pressed'), 'true');
        const rows = await page.$$eval('table.patch-table tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent.trim())));
        assert.equal(rows.length, r / 2);
        rows.forEach(([, omega, position, angle, cos, sin], j) => {
          const want = pixtralAngle(y, x, j, r, base);
          const k = j < r / 4 ? 2 * j : 2 * (j - r / 4) + 1;
          assert.ok(Math.abs(numbersIn(omega)[1] - base ** ((-2 * k) / r)) < 1e-6, `${lang} pair ${j} ω ${omega}`);
          assert.equal(numbersIn(omega)[0], k, `${lang} pair ${j}: frequency index`);
          assert.equal(Number(position), j < r / 4 ? y : x, `${lang} patch ${m} pair ${j} position`);
          assert.ok(Math.abs(numbersIn(angle)[0] - want) < 1e-6, `${lang} patch ${m} pair ${j} angle ${angle} vs ${want}`);
          assert.ok(Math.abs(numbersIn(cos)[0] - Math.cos(want)) < 1.5e-6, `${lang} patch ${m} pair ${j} cos ${cos}`);
          assert.ok(Math.abs(numbersIn(sin)[0] - Math.sin(want)) < 1.5e-6, `${lang} patch ${m} pair ${j} sin ${sin}`);
        });
        assert.deepEqual(numbersIn(await page.textContent('.patch-readout')).slice(0, 3), [m, y, x], `${lang}: readout`);
      }
      assertLanguage(await page.textContent('.patch-readout'), lang, 'readout');
      assert.deepEqual(page.problems, []);
      await page.close();
    }
  });

  test('half precision: the usual path’s worst error and the correctly rounded one, in ulps, recomputed at every position', async () => {
    const r = 128;
    const base = 10000;
    const L = 1500;
    const worst = {};
    for (const dtype of ['float16', 'bfloat16']) {
      const { usual, rounded } = halfWorstReference(dtype, r, base, L);
      assert.ok(rounded <= 0.5 && usual.ulps > 1, `${dtype}: the reference itself (rounded ${rounded}, usual ${usual.ulps})`);
      worst[dtype] = { usual, rounded };
    }
    for (const lang of LANGS) {
      const page = await openPage(browser.context, `#lesson=rope&lang=${lang}&upto=${L}&base=${base}`);
      for (const dtype of ['float16', 'bfloat16']) {
        const text = await page.textContent(`.half-summary[data-dtype="${dtype}"]`);
        assertLanguage(text, lang, `${dtype} summary`);
        const w = worst[dtype];
        // "{dtype}: … {usual} ulps (position {p}, pair {j}, {fn}: {value} for {exact}); … {rounded} ulp"
        const numbers = numbersIn(text.replace(dtype, ''));
        assert.ok(Math.abs(numbers[0] - w.usual.ulps) <= 0.05 + 1e-9, `${lang} ${dtype}: usual ${numbers[0]} vs ${w.usual.ulps}`);
        assert.equal(numbers[1], w.usual.p, `${lang} ${dtype}: worst position`);
        assert.equal(numbers[2], w.usual.j, `${lang} ${dtype}: worst pair`);
        assert.match(text, new RegExp(`${w.usual.fn}`), `${lang} ${dtype}: cos or sin`);
        const angle = w.usual.p * base ** ((-2 * w.usual.j) / r);
        const exact = w.usual.fn === 'cos' ? Math.cos(angle) : Math.sin(angle);
        const usual = usualValue(w.usual.p, w.usual.j, r, base, w.usual.fn === 'cos' ? 0 : 1, dtype);
        assert.ok(Math.abs(numbers[3] - usual) <= 5e-6 * Math.abs(usual), `${lang} ${dtype}: the usual path's value ${numbers[3]} vs ${usual}`);
        assert.ok(Math.abs(numbers[4] - exact) < 1e-8, `${lang} ${dtype}: exact value`);
        assert.ok(Math.abs(numbers[5] - w.rounded) <= 0.0005 + 1e-9, `${lang} ${dtype}: rounded ${numbers[5]} vs ${w.rounded}`);
      }
      // the worst case is labelled on the chart at its position
      const labels = await page.$$eval('.half-chart .chart-mark-label', (ts) => ts.map((t) => t.textContent));
      assert.ok(
        labels.some((l) => numbersIn(l).includes(worst.float16.usual.p)),
        `${lang}: a mark at position ${worst.float16.usual.p} in ${JSON.stringify(labels)}`,
      );
      // four lines: each format's usual path and its correctly rounded cache
      const legend = await page.$$eval('.half-chart .chart-legend li', (lis) => lis.map((li) => li.textContent));
      assert.equal(legend.length, 4, JSON.stringify(legend));
      assert.equal(await page.$$eval('.half-chart path.chart-line', (ps) => ps.length), 4);
      assert.deepEqual(page.problems, []);
      await page.close();
    }
  });
});
