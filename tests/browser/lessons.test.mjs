// Every lesson in headless Chromium: loads without console/CSP errors, draws
// its canvases with the right colours at cells whose value is known from the
// maths, explains a hovered cell with the right numbers, switches language,
// round-trips its state through the URL, and leaves a screenshot.
// npm test: quick form
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, settle, hashSettled, expectedColor, canvasPixel, closeColor, hoverCell, screenshot, numbersIn, assertLanguage } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function assertPixel(page, selector, x, y, value, cmap = 'rdbu', range = [-1, 1]) {
  const actual = await canvasPixel(page, selector, x, y);
  const expected = expectedColor(cmap, value, ...range);
  assert.ok(closeColor(actual, expected), `${selector} (${x}, ${y}) should show ${value} as ${expected}, got ${actual}`);
}

async function readout(page, selector) {
  return (await page.textContent(selector)).trim();
}

function near(actual, expected, tolerance, what) {
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: expected ${expected}, got ${actual}`);
}

/** The common part of every lesson test: language switch, URL round trip, screenshot. */
async function commonChecks(page, lesson, { change, verify }) {
  // language: switch to 简体中文 and back; the same lesson, its title in the other language and back
  const title = await page.textContent('h1.lesson-title');
  assertLanguage(title, 'en', `${lesson} title`);
  await page.click('button[data-lang="zh"]');
  await settle(page);
  assert.equal(await page.getAttribute('article.lesson', 'data-lesson'), lesson);
  const zhTitle = await page.textContent('h1.lesson-title');
  assertLanguage(zhTitle, 'zh', `${lesson} title`);
  assert.notEqual(zhTitle, title);
  assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
  assert.match(await hashSettled(page), /lang=zh/);
  await screenshot(page, `${lesson}-zh`);
  await page.click('button[data-lang="en"]');
  await settle(page);
  assert.equal(await page.textContent('h1.lesson-title'), title);
  assert.equal(await page.getAttribute('html', 'lang'), 'en');

  // URL state: change something, read the hash, open it in a fresh page
  await change(page);
  await settle(page);
  const hash = await hashSettled(page);
  assert.match(hash, new RegExp(`lesson=${lesson}`));
  const second = await openPage(browser.context, hash);
  await verify(second, hash);
  assert.deepEqual(second.problems, []);
  await second.close();
  assert.deepEqual(page.problems, [], 'no console errors, failed requests or CSP violations');
}

describe('the formula lesson: the formula', () => {
  test('tables, heatmap, readout, language, URL', async () => {
    const page = await openPage(browser.context, '#lesson=formula');
    const canvas = '.lesson-formula .heatmap-canvas';
    await assertPixel(page, canvas, 0, 0, Math.sin(0));
    await assertPixel(page, canvas, 1, 0, Math.cos(0));
    await assertPixel(page, canvas, 0, 1, Math.sin(1));
    await assertPixel(page, canvas, 2, 2, Math.sin(2 / 100)); // d = 4: ω_1 = 1/100
    // seed example 3×4: row 2 is [0.9093, −0.4161, 0.0200, 0.9998]
    const row2 = await page.$$eval('.pe-table tbody tr:nth-child(3) td', (tds) => tds.map((td) => td.textContent));
    assert.deepEqual(row2, ['0.9093', '−0.4161', '0.0200', '0.9998']);
    await page.hover('.pe-table td[data-row="2"][data-col="1"]');
    const text = await readout(page, '.formula-readout');
    assert.match(text, /Position 2, column 1 = cos \(i = 0\)/);
    near(numbersIn(text).at(-1), Math.cos(2), 1e-6, 'cos 2');
    assert.ok(await page.$('.readout-math .katex'), 'formula typeset by KaTeX');
    // keyboard: focus a cell and move with the arrow keys
    await page.focus('.pe-table td[data-row="0"][data-col="0"]');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    assert.match(await readout(page, '.formula-readout'), /Position 1, column 1/);
    // step 3 names the slowest column of the table shown, and follows d and base
    const lessonText = () => page.textContent('.lesson-formula');
    assert.match(await lessonText(), /down to 0\.010000 rad per position/); // d = 4: ω_1 = 10000^(−1/2)
    await page.fill('.lesson-formula input.number[data-key="base"]', '100');
    await page.press('.lesson-formula input.number[data-key="base"]', 'Enter');
    await settle(page);
    assert.match(await lessonText(), /down to 0\.100000 rad per position/); // 100^(−1/2)
    await page.click('button.example-8x16'); // d = 16, base 10000: ω_7 = 10000^(−14/16)
    await settle(page);
    assert.match(await lessonText(), new RegExp(`down to ${(10000 ** (-14 / 16)).toFixed(6).replace('.', '\\.')} rad per position`));
    await page.click('button.example-3x4');
    await settle(page);
    await screenshot(page, 'formula-en');
    await commonChecks(page, 'formula', {
      change: (p) => p.click('button.example-8x16'),
      verify: async (p, hash) => {
        assert.match(hash, /d=16/);
        assert.match(hash, /len=8/);
        assert.equal(await p.$$eval('.pe-table tbody tr', (rows) => rows.length), 8);
        // seed 000's correct values: row 1, column 2 = sin(1/10000^(2/16)) = 0.3110 (not the buggy 0.0998)
        assert.equal(await p.textContent('.pe-table td[data-row="1"][data-col="2"]'), Math.sin(1 / 10000 ** (2 / 16)).toFixed(4));
      },
    });
    await page.close();
  });
});

describe('the heatmap lesson: reading the heatmap', () => {
  test('colours, layouts, scrolling, readout, language, URL', async () => {
    const page = await openPage(browser.context, '#lesson=heatmap&d=64&len=50&layout=concat');
    const canvas = '.lesson-heatmap .heatmap-canvas';
    assert.deepEqual(await page.$eval(canvas, (c) => [c.width, c.height]), [64, 50]);
    await assertPixel(page, canvas, 0, 0, 0); // sin half: sin 0
    await assertPixel(page, canvas, 31, 0, 0);
    await assertPixel(page, canvas, 32, 0, 1); // cos half: cos 0
    await assertPixel(page, canvas, 0, 3, Math.sin(3));
    await assertPixel(page, canvas, 32, 3, Math.cos(3));
    // toggle the layout on the same data
    await page.check('input[data-key="layout"][value="interleaved"]');
    await settle(page);
    await assertPixel(page, canvas, 1, 0, 1);
    await assertPixel(page, canvas, 1, 3, Math.cos(3));
    // the row-0 and slow-column paragraphs describe the layout shown: row 0 is sin 0 = 0 (neutral)
    // and cos 0 = 1 (saturated), alternating when interleaved; the slow columns are the right side
    const heatmapText = () => page.textContent('.lesson-heatmap');
    let text = await heatmapText();
    assert.match(text, /interleaved layout[^.]*row 0[^.]*alternates: neutral, saturated/, 'row 0 text follows the interleaved layout');
    assert.match(text, /interleaved layout[^.]*slow columns are the whole right side[^.]*neutral \(sin\) and saturated \(cos\)/, 'slow-column text follows the interleaved layout');
    assert.doesNotMatch(text, /In the (concatenated|cos-first) layout/, 'no text about another layout while interleaved is shown');
    await page.check('input[data-key="layout"][value="cos-first"]');
    await settle(page);
    text = await heatmapText();
    assert.match(text, /cos-first layout[^.]*row 0[^.]*half saturated \(the cos half on the left\) and half neutral \(the sin half on the right\)/, 'row 0 text follows the cos-first layout');
    assert.match(text, /cos-first layout[^.]*right end of each half[^.]*saturated colour in the middle of the picture \(cos\)/, 'slow-column text follows the cos-first layout');
    assert.doesNotMatch(text, /In the (concatenated|interleaved) layout/);
    await assertPixel(page, canvas, 0, 0, 1);
    await assertPixel(page, canvas, 32, 3, Math.sin(3));
    await hoverCell(page, canvas, 32, 3);
    const hovered = await readout(page, '.heatmap-readout');
    assert.match(hovered, /position 3, column 32 = sin of frequency i = 0/);
    near(numbersIn(hovered).at(-1), Math.sin(3), 1e-6, 'sin 3');
    // far beyond max_len: rows made on demand
    await page.fill('.lesson-heatmap input.number[data-key="start"]', '1000000');
    await page.press('.lesson-heatmap input.number[data-key="start"]', 'Enter');
    await settle(page);
    await assertPixel(page, canvas, 32, 0, Math.sin(1000000));
    await hoverCell(page, canvas, 32, 0);
    near(numbersIn(await readout(page, '.heatmap-readout')).at(-1), Math.sin(1000000), 1e-6, 'sin 1e6');
    // colormap choice (colour-blind safe)
    await page.selectOption('select[data-key="cmap"]', 'viridis');
    await settle(page);
    await assertPixel(page, canvas, 32, 0, Math.sin(1000000), 'viridis'); // cos-first: column 32 is sin of i = 0
    await screenshot(page, 'heatmap-en');
    await commonChecks(page, 'heatmap', {
      change: (p) => p.check('input[data-key="layout"][value="concat"]'),
      verify: async (p, hash) => {
        assert.match(hash, /start=1000000/);
        assert.match(hash, /cmap=viridis/);
        assert.equal(await p.isChecked('input[data-key="layout"][value="concat"]'), true);
        await assertPixel(p, canvas, 0, 0, Math.sin(1000000), 'viridis'); // concat: column 0 is sin of i = 0
      },
    });
    await page.close();
  });
});

describe('the waves lesson: waves and wavelengths', () => {
  test('curves, wavelengths, readout, language, URL', async () => {
    const page = await openPage(browser.context, '#lesson=waves');
    // y pixel of the values 0 and 1 from the axis ticks, then the first point of each curve
    const chart = '.lesson-waves figure.chart >> nth=0';
    const info = await page.locator(chart).evaluate((fig) => {
      const ticks = {};
      for (const tick of fig.querySelectorAll('g.axis.y .tick')) ticks[tick.textContent.replace('−', '-')] = Number(tick.getAttribute('transform').match(/,([-\d.]+)/)[1]);
      const first = {};
      for (const path of fig.querySelectorAll('path.chart-line')) first[path.dataset.series] = Number(path.getAttribute('d').match(/^M[-\d.]+,([-\d.]+)/)[1]);
      return { ticks, first };
    });
    const names = Object.keys(info.first);
    assert.equal(names.length, 4);
    // (d3-axis draws ticks half a pixel off the value for crisp lines)
    near(info.first[names[0]], info.ticks['0.0'], 0.6, 'column 6 (sin) starts at 0');
    near(info.first[names[1]], info.ticks['1.0'], 0.6, 'column 7 (cos) starts at 1');
    // frequencies that never finish a cycle within max_len = 60 at d = 32: 2π·10000^(2i/32) > 60
    let never = 0;
    for (let i = 0; i < 16; i++) if (2 * Math.PI * 10000 ** ((2 * i) / 32) > 60) never++;
    assert.match(await page.textContent('.never-summary'), new RegExp(`^${never} of the 16 frequencies`));
    // the first of them (i = 4, λ = 20π ≈ 62.8) still covers 60/62.8 = 0.95 of a cycle: not "a little"
    assert.match(await page.textContent('.never-summary'), /covers 0\.95 of a cycle/);
    // hover the curves: the readout holds sin/cos of position·ω_3
    const box = await page.locator(chart).locator('svg.chart-svg').boundingBox();
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2);
    await settle(page);
    const text = await readout(page, '.waves-readout');
    const numbers = numbersIn(text);
    const position = numbers[0];
    const omega3 = 10000 ** (-6 / 32);
    near(numbers[2], Math.sin(position * omega3), 1e-4, 'col 6');
    near(numbers[4], Math.cos(position * omega3), 1e-4, 'col 7');
    await screenshot(page, 'waves-en');
    // the text under "Columns as curves" names the columns plotted, not the default 6–9
    const wavesText = () => page.textContent('.lesson-waves');
    assert.match(await wavesText(), /columns 6 and 7 are the sine and cosine of [^;]*i = 3/);
    assert.match(await wavesText(), /columns 8 and 9 are the sine and cosine of [^.]*i = 4/);
    await page.fill('input[data-key="cols"]', '3, 8');
    await page.press('input[data-key="cols"]', 'Enter');
    await settle(page);
    const after = await wavesText();
    assert.doesNotMatch(after, /columns? 6 and 7/i);
    assert.match(after, /column 3 is the cosine of [^;]*i = 1/);
    assert.match(after, /column 8 is the sine of [^.]*i = 4/);
    assert.match(after, /here [^:]*i = 1[^:]* is the fastest and [^:]*i = 4[^:]* the slowest/);
    await page.click('button[data-lang="zh"]');
    await settle(page);
    assert.match(await wavesText(), /第 3 列是[^；]*i = 1[^；]*的余弦；第 8 列是[^。]*i = 4[^。]*的正弦/);
    await page.click('button[data-lang="en"]');
    await settle(page);
    await commonChecks(page, 'waves', {
      change: async (p) => {
        await p.fill('input[data-key="cols"]', '0, 1');
        await p.press('input[data-key="cols"]', 'Enter');
      },
      verify: async (p, hash) => {
        assert.match(hash, /cols=0%2C1/);
        assert.equal(await p.locator('.lesson-waves figure.chart').first().locator('path.chart-line').count(), 2);
        assert.match(await p.textContent('.lesson-waves'), /columns 0 and 1 are the sine and cosine of [^.]*i = 0/);
      },
    });
    await page.close();
  });

  test('the curves after changes of d and max_len are the rows of the new d (the table is kept and grown across steps)', async () => {
    const page = await openPage(browser.context, '#lesson=waves&d=16&len=60&cols=6,7');
    const set = async (key, value) => {
      await page.fill(`input.number[data-key="${key}"]`, String(value));
      await page.press(`input.number[data-key="${key}"]`, 'Enter');
      await settle(page);
    };
    // max_len grown past twice its rows, d changed (the rows start over), max_len shrunk, then grown again by steps
    await set('len', 200);
    await set('d', 32);
    await set('len', 150);
    await set('len', 400);
    await page.focus('input.slider[data-key="len"]');
    for (let k = 0; k < 3; k++) await page.keyboard.press('ArrowRight');
    await settle(page);
    assert.match(await hashSettled(page), /len=403/);
    const svg = page.locator('.lesson-waves figure.chart >> nth=0').locator('svg.chart-svg');
    const box = await svg.boundingBox();
    const positions = [];
    for (const at of [0.2, 0.95]) {
      await svg.hover({ position: { x: box.width * at, y: box.height / 2 } });
      await settle(page);
      const [position, , sin6, , cos7] = numbersIn(await readout(page, '.waves-readout'));
      const omega3 = 10000 ** (-6 / 32); // pair 3 of d = 32
      near(sin6, Math.sin(position * omega3), 1e-4, `column 6 at position ${position}`);
      near(cos7, Math.cos(position * omega3), 1e-4, `column 7 at position ${position}`);
      positions.push(position);
    }
    // one position in the rows copied when the table grew (computed after the change of d), one in the rows that growth added
    assert.ok(positions[0] > 40 && positions[0] < 150 && positions[1] > 380, `hovered positions ${positions}`);
    await page.close();
  });
});

describe('the binary lesson: binary counting', () => {
  test('bits, encoding, readout, language, URL', async () => {
    const page = await openPage(browser.context, '#lesson=binary');
    const bits = '.bits-map .heatmap-canvas';
    const enc = '.pe-map .heatmap-canvas';
    assert.deepEqual(await page.$eval(bits, (c) => [c.width, c.height]), [3, 8]);
    await assertPixel(page, bits, 2, 1, 1); // position 1 = 001: lowest bit set
    await assertPixel(page, bits, 0, 1, -1);
    await assertPixel(page, bits, 0, 4, 1); // 4 = 100
    await assertPixel(page, enc, 0, 0, 0);
    await assertPixel(page, enc, 1, 0, 1);
    await assertPixel(page, enc, 0, 5, Math.sin(5));
    await hoverCell(page, enc, 0, 5);
    const text = await readout(page, '.binary-readout');
    assert.match(text, /Position 5 = 101 in binary/);
    near(numbersIn(text).find((n) => n < 0), Math.sin(5), 1e-4, 'sin 5');
    // the bit axis is labelled with bit numbers (most significant on the left), not column indices
    assert.deepEqual(await page.$$eval('.bits-map .axis.x .tick text', (ts) => ts.map((t) => t.textContent)), ['2', '1', '0']);
    // the growth factor quoted is the one of the figure (d = 16): 10000^(2/16) = 3.16
    assert.match(await page.textContent('.binary-explain'), /3\.16 for d = 16, base 10,000/);
    await screenshot(page, 'binary-en');
    // the chart text gives the wavelengths of the columns drawn, for the d shown
    const chartText = () => page.textContent('.lesson-binary');
    assert.match(await chartText(), /wavelengths 6\.28 and 19\.87 positions for d = 16, base 10,000/);
    await page.fill('.lesson-binary input.number[data-key="d"]', '4');
    await page.press('.lesson-binary input.number[data-key="d"]', 'Enter');
    await settle(page);
    assert.match(await chartText(), /wavelengths 6\.28 and 628\.32 positions for d = 4, base 10,000/);
    await commonChecks(page, 'binary', {
      change: (p) => p.fill('input.number[data-key="bits"]', '5').then(() => p.press('input.number[data-key="bits"]', 'Enter')),
      verify: async (p, hash) => {
        assert.match(hash, /bits=5/);
        assert.deepEqual(await p.$eval(bits, (c) => [c.width, c.height]), [5, 32]);
      },
    });
    await page.close();
  });
});

describe('the embeddings lesson: adding PE to embeddings', () => {
  test('shapes, sum, dropout, readout, language, URL', async () => {
    const page = await openPage(browser.context, '#lesson=embeddings&dropout=0');
    const p = '.map-p .heatmap-canvas';
    assert.deepEqual(await page.$eval(p, (c) => [c.width, c.height]), [16, 6]);
    await assertPixel(page, p, 0, 0, 0);
    await assertPixel(page, p, 1, 0, 1);
    await assertPixel(page, p, 0, 2, Math.sin(2));
    assert.match(await page.textContent('.shapes'), /6×16/);
    await hoverCell(page, '.map-sum .heatmap-canvas', 1, 4);
    const text = await readout(page, '.embeddings-readout');
    const [position, column, x, pv, sum, dropped] = numbersIn(text);
    assert.equal(position, 4);
    assert.equal(column, 1);
    near(pv, Math.cos(4), 1e-4, 'p = cos 4');
    near(sum, x + pv, 2e-4, 'x + p');
    near(dropped, sum, 2e-4, 'no dropout at p = 0');
    // the sum is drawn on [−2, 2]: its colour at the hovered cell is that of x + p
    await assertPixel(page, '.map-sum .heatmap-canvas', 1, 4, x + pv, 'rdbu', [-2, 2]);
    await screenshot(page, 'embeddings-en');
    await commonChecks(page, 'embeddings', {
      change: async (pg) => {
        await pg.fill('input[data-key="tokens"]', 'hello world');
        await pg.press('input[data-key="tokens"]', 'Enter');
      },
      verify: async (pg, hash) => {
        assert.match(hash, /tokens=hello\+world/);
        assert.deepEqual(await pg.$eval(p, (c) => [c.width, c.height]), [16, 2]);
      },
    });
    await page.close();
  });
});

describe('the embeddings lesson: editable token embeddings', () => {
  test('cells edited from the keyboard update X + P live, are validated and kept in the URL', async () => {
    const page = await openPage(browser.context, '#lesson=embeddings&dropout=0');
    const cell = (r, c) => `.edit-table input.cell-input[data-row="${r}"][data-col="${c}"]`;
    assert.equal(await page.locator('.edit-table input.cell-input').count(), 6 * 16);
    // keyboard: focus the cell of token 1, column 3, replace its text, character by character
    await page.focus(cell(1, 3));
    await page.keyboard.press('Control+A');
    await page.keyboard.type('1.5');
    await settle(page);
    const p13 = Math.cos(1 * 10000 ** (-2 / 16)); // interleaved column 3 = cos, frequency 1
    // live: X and X + P already show the new value (no Enter needed)
    await assertPixel(page, '.map-x .heatmap-canvas', 3, 1, 1.5, 'rdbu', [-2, 2]);
    await assertPixel(page, '.map-sum .heatmap-canvas', 3, 1, 1.5 + p13, 'rdbu', [-2, 2]);
    const [position, column, x, pv, sum] = numbersIn(await readout(page, '.embeddings-readout'));
    assert.deepEqual([position, column, x], [1, 3, 1.5]);
    near(pv, p13, 1e-4, 'p');
    near(sum, 1.5 + p13, 1e-4, 'x + p');
    assert.match(await hashSettled(page), /edit=1\.3_1\.5(&|$)/);
    assert.ok(await page.$eval(cell(1, 3), (i) => i.classList.contains('edited')));
    // Up/Down move between tokens
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.row), '2');
    // invalid text: marked while typing, state unchanged, a message on commit, value restored
    await page.keyboard.press('Control+A');
    await page.keyboard.type('9');
    assert.equal(await page.getAttribute(cell(2, 3), 'aria-invalid'), 'true');
    await page.keyboard.type('x');
    await page.keyboard.press('Tab');
    await settle(page);
    assert.match(await page.textContent('.edit-status'), /“9x” is not a number from −4 to 4/);
    assert.equal(await page.evaluate(() => window.sinpeSite.state.edit), '1.3_1.5');
    assert.notEqual(await page.inputValue(cell(2, 3)), '9x');
    // the edit survives in a fresh page from the URL
    const second = await openPage(browser.context, await hashSettled(page));
    assert.equal(await second.inputValue(cell(1, 3)), '1.5');
    await assertPixel(second, '.map-sum .heatmap-canvas', 3, 1, 1.5 + p13, 'rdbu', [-2, 2]);
    // emptying the cell restores the generated value
    await second.fill(cell(1, 3), '');
    await second.press(cell(1, 3), 'Tab');
    await settle(second);
    assert.equal(await second.evaluate(() => window.sinpeSite.state.edit), '');
    assert.notEqual(await second.inputValue(cell(1, 3)), '1.5');
    assert.deepEqual(second.problems, []);
    await second.close();
    assert.deepEqual(page.problems, []);
    await page.close();
    // hostile or out-of-range URL edits: rejected or clamped with a message
    const bad = await openPage(browser.context, '#lesson=embeddings&edit=%3Cimg%20src%3Dx%3E');
    assert.match(await bad.textContent('#messages'), /“edited embedding cells” was not valid/);
    await bad.close();
    const clamped = await openPage(browser.context, '#lesson=embeddings&edit=0.0_7*40.1_1');
    assert.match(await clamped.textContent('#messages'), /“edited embedding cells” was out of range and has been changed to 0\.0_4/);
    assert.equal(await clamped.inputValue(cell(0, 0)), '4');
    await clamped.close();
  });
});

/**
 * The relative lesson's check that PE(pos + k) = M_k·PE(pos), recomputed here: every
 * row of its table against float64 sin/cos, the verdict from the values
 * shown, and the page's stated verdict against the recomputed one.
 */
async function assertRotationCheck(page, { d, pos, k, base = 10000 }) {
  const rows = await page.$$eval('.rotation-table tbody tr', (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  assert.equal(rows.length, Math.min(d / 2, 8), 'one row per frequency shown');
  let worst = 0;
  rows.forEach(([i, omega, angle, at, rotated, target], row) => {
    const w = base ** ((-2 * row) / d);
    assert.equal(Number(i), row);
    near(numbersIn(omega)[0], w, 1e-6 * w + 5e-7, `ω_${row}`);
    near(numbersIn(angle)[0], w * k, 1e-6 * w * k + 5e-7, `ω_${row}·k`);
    const pairs = [at, rotated, target].map((cell) => numbersIn(cell));
    const exact = [pos, pos + k, pos + k].map((p) => [Math.sin(p * w), Math.cos(p * w)]);
    pairs.forEach((pair, c) => pair.forEach((v, m) => near(v, exact[c][m], 1.5e-6, `row ${row}, column ${c}, ${m ? 'cos' : 'sin'}`)));
    worst = Math.max(worst, ...pairs[1].map((v, m) => Math.abs(v - pairs[2][m])));
  });
  // the verdict from the values shown: M_k·PE(pos) and PE(pos + k) agree to the 6 decimals shown
  const pass = worst <= 2e-6;
  assert.ok(pass, `M_k·PE(${pos}) and PE(${pos + k}) differ by ${worst}`);
  const check = await page.textContent('.rotation-check');
  const stated = numbersIn(check);
  assert.deepEqual(stated.slice(0, 3), [pos, k, pos + k], check);
  assert.ok(stated[3] >= 0 && stated[3] <= 2e-6, `stated difference ${stated[3]}`);
  assert.equal(await page.$$eval('.rotation-check .pass', (e) => e.length), pass ? 1 : 0, 'the verdict shown is the recomputed one');
  assert.equal(await page.$$eval('.rotation-check .fail', (e) => e.length), pass ? 0 : 1);
}

describe('the relative lesson: relative position', () => {
  test('rotation check, dot products, readout, language, URL', async () => {
    const page = await openPage(browser.context, '#lesson=relative&d=16&len=32&pos=3&k=2');
    await assertRotationCheck(page, { d: 16, pos: 3, k: 2 });
    const canvas = '.lesson-relative .heatmap-canvas';
    const dot = (offset) => {
      let sum = 0;
      for (let i = 0; i < 8; i++) sum += Math.cos(offset * 10000 ** ((-2 * i) / 16));
      return sum / 8;
    };
    // drawn on viridis from the smallest dot product shown (some offset below 32) to 1
    const lo = Math.min(...Array.from({ length: 32 }, (_, k) => dot(k)));
    await assertPixel(page, canvas, 5, 5, 1, 'viridis', [lo, 1]);
    await assertPixel(page, canvas, 1, 0, dot(1), 'viridis', [lo, 1]);
    await assertPixel(page, canvas, 20, 10, dot(10), 'viridis', [lo, 1]);
    await assertPixel(page, canvas, 10, 20, dot(10), 'viridis', [lo, 1]);
    await hoverCell(page, canvas, 20, 10);
    const text = await readout(page, '.relative-readout');
    assert.match(text, /offset p′ − p = 10/);
    near(numbersIn(text)[3], dot(10) * 8, 1e-3, 'dot product');
    await screenshot(page, 'relative-en');
    await commonChecks(page, 'relative', {
      change: (pg) => pg.fill('input.number[data-key="k"]', '7').then(() => pg.press('input.number[data-key="k"]', 'Enter')),
      verify: async (pg, hash) => {
        assert.match(hash, /k=7/);
        await assertRotationCheck(pg, { d: 16, pos: 3, k: 7 });
      },
    });
    await page.close();
  });

  test('the largest dot-product map, computed a slice of rows at a time, holds every row’s products', async () => {
    const page = await openPage(browser.context, '#lesson=relative&d=256&len=256');
    await settle(page);
    const canvas = '.lesson-relative .heatmap-canvas';
    const dot = (offset) => {
      let sum = 0;
      for (let i = 0; i < 128; i++) sum += Math.cos(offset * 10000 ** ((-2 * i) / 256));
      return sum;
    };
    // cells of the first slice's rows, of the last ones, and their mirror images
    for (const [col, row] of [[255, 1], [1, 255], [250, 200], [3, 252], [255, 255]]) {
      await hoverCell(page, canvas, col, row);
      const numbers = numbersIn(await readout(page, '.relative-readout'));
      assert.deepEqual(numbers.slice(0, 3), [row, col, col - row], `the readout names cell (${row}, ${col})`);
      near(numbers[3], dot(col - row), 2e-3, `dot product of rows ${row} and ${col}`);
    }
    await page.close();
  });
});

describe('the pitfalls lesson: pitfalls', () => {
  test('bug, float32 error, tolerance check, language, URL', async () => {
    const page = await openPage(browser.context, '#lesson=pitfalls');
    await assertPixel(page, '.map-correct .heatmap-canvas', 0, 0, 0);
    await assertPixel(page, '.map-correct .heatmap-canvas', 1, 0, 1);
    // seed 000's buggy value at position 1, column 1: cos(1 / 10000^(2·1/16)) = 0.95042
    await assertPixel(page, '.map-buggy .heatmap-canvas', 1, 1, Math.cos(1 / 10000 ** (2 / 16)));
    await assertPixel(page, '.map-difference .heatmap-canvas', 0, 0, 0);
    // the difference of two values in [−1, 1] is drawn on its own scale, −2 … 2
    await assertPixel(page, '.map-difference .heatmap-canvas', 1, 1, Math.cos(1 / 10000 ** (2 / 16)) - Math.cos(1), 'rdbu', [-2, 2]);
    await hoverCell(page, '.map-buggy .heatmap-canvas', 1, 1);
    const numbers = numbersIn(await readout(page, '.pitfalls-readout'));
    near(numbers[2], 0.95042, 1e-5, 'buggy');
    near(numbers[5], Math.cos(1), 1e-5, 'correct');
    // near position 0 the float32 recipe passes a 1e-3 tolerance everywhere
    await assertPixel(page, '.map-tolerance .heatmap-canvas', 0, 0, 1);
    assert.match(await page.textContent('.tolerance-summary'), / 0 of 128 cells fail/);
    await page.waitForFunction(() => document.querySelectorAll('.lesson-pitfalls path.chart-line').length === 1);
    await screenshot(page, 'pitfalls-en');
    await commonChecks(page, 'pitfalls', {
      change: async (pg) => {
        await pg.fill('input.number[data-key="start"]', '1048576');
        await pg.press('input.number[data-key="start"]', 'Enter');
        await pg.fill('input.number[data-key="tol"]', '1e-5');
        await pg.press('input.number[data-key="tol"]', 'Enter');
      },
      verify: async (pg, hash) => {
        assert.match(hash, /start=1048576/);
        assert.match(hash, /tol=0\.00001(&|$)/); // the tolerance itself, as typed (1e-5)
        const failed = numbersIn(await pg.textContent('.tolerance-summary'))[3];
        assert.ok(failed > 0, 'far positions fail a 1e-5 tolerance');
      },
    });
    await page.close();
  });

  test('float32 error summary gives the true maxima (REFERENCE.md, d = 512)', async () => {
    const page = await openPage(browser.context, '#lesson=pitfalls&d=512');
    // the curve is computed between frames, one octave at a time
    await page.waitForFunction(() => /d = 512/.test(document.querySelector('.error-summary')?.textContent ?? ''));
    // the whole tables: 2.31e-4 below 4096 and 3.89e-3 below 65536 (sampling only
    // the middle of each octave reported 2.2e-4 and 3.4e-3)
    const summary = await page.textContent('.error-summary');
    const m = summary.match(/d = 512, .* reaches (\S+) below position 4,?096, (\S+) below 65,536/);
    assert.ok(m, summary);
    const [e4096, e65536] = [numbersIn(m[1])[0], numbersIn(m[2])[0]];
    near(e4096, 2.3e-4, 0.05e-4, 'error below 4096');
    near(e65536, 3.9e-3, 0.05e-3, 'error below 65536');
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});

describe('the variants lesson: variants across libraries', () => {
  test('presets side by side, snippet, readout, language, URL', async () => {
    const page = await openPage(browser.context, '#lesson=variants');
    const card = (preset) => `.preset-${preset} .heatmap-canvas`;
    await assertPixel(page, card('vaswani'), 0, 0, 0);
    await assertPixel(page, card('vaswani'), 1, 0, 1);
    await assertPixel(page, card('fairseq'), 32, 0, 1); // concat: cos half starts at d/2
    await assertPixel(page, card('fairseq'), 0, 0, 0);
    await assertPixel(page, card('guided-diffusion'), 0, 0, 1); // cos first
    await assertPixel(page, card('tensor2tensor'), 0, 2, Math.sin(2));
    await hoverCell(page, card('whisper'), 32, 2);
    const text = await readout(page, '.variants-readout');
    assert.match(text, /^whisper: position 2, column 32/);
    near(numbersIn(text).at(-1), Math.cos(2), 1e-6, 'whisper cos 2');
    assert.match(await page.textContent('code.snippet'), /pe\.table\(64, 64\)/);
    await screenshot(page, 'variants-en');
    await commonChecks(page, 'variants', {
      change: (pg) => pg.click('.preset-keras button'),
      verify: async (pg, hash) => {
        assert.match(hash, /preset=keras/);
        assert.match(await pg.textContent('code.snippet'), /preset: 'keras'/);
        assert.equal(await pg.getAttribute('.preset-keras button', 'aria-pressed'), 'true');
      },
    });
    await page.close();
  });
});

describe('the variants lesson: one layout for every preset', () => {
  test('the layout override redraws the cards and is reflected in the snippet and the URL', async () => {
    const page = await openPage(browser.context, '#lesson=variants&preset=guided-diffusion');
    const card = (preset) => `.preset-${preset} .heatmap-canvas`;
    assert.ok(await page.isChecked('input[data-key="layout"][value="preset"]'));
    await assertPixel(page, card('guided-diffusion'), 0, 0, 1); // its own layout: cos first
    assert.doesNotMatch(await page.textContent('code.snippet'), /layout/);
    await page.check('input[data-key="layout"][value="concat"]'); // keyboard-reachable radio group
    await settle(page);
    await assertPixel(page, card('guided-diffusion'), 0, 0, 0); // now sin(0) first
    await assertPixel(page, card('guided-diffusion'), 32, 0, 1); // cos half from d/2
    await assertPixel(page, card('vaswani'), 1, 0, 0); // interleaved no more: column 1 = sin(0)
    await assertPixel(page, card('vaswani'), 32, 0, 1);
    const snippet = await page.textContent('code.snippet');
    assert.match(snippet, /pe\.table\(64, 64, \{ preset: 'guided-diffusion', layout: 'concat' \}\)/);
    assert.match(snippet, /pe\.heatmap\(0, 64, 64, \{ preset: 'guided-diffusion', layout: 'concat', colormap \}\)/);
    assert.match(await page.textContent('.layout-note'), /concatenated/);
    const hash = await hashSettled(page);
    assert.match(hash, /layout=concat/);
    // the readout reads the overridden table
    await hoverCell(page, card('guided-diffusion'), 32, 2);
    near(numbersIn(await readout(page, '.variants-readout')).at(-1), Math.cos(2), 1e-6, 'concat column 32 = cos 2');
    const second = await openPage(browser.context, hash);
    assert.ok(await second.isChecked('input[data-key="layout"][value="concat"]'));
    await assertPixel(second, card('guided-diffusion'), 0, 0, 0);
    // MAE takes the layout inside each half of its 2-D encoding
    await second.click('.preset-mae button');
    await settle(second);
    assert.match(await second.textContent('code.snippet'), /pe\.grid2d\(8, 8, 64, \{ preset: 'mae', layout: 'concat' \}\)/);
    // back to each preset's own: no layout in the snippet or the URL
    await second.check('input[data-key="layout"][value="preset"]');
    await settle(second);
    assert.doesNotMatch(await second.textContent('code.snippet'), /layout/);
    assert.doesNotMatch(await hashSettled(second), /layout=/);
    assert.deepEqual(second.problems, []);
    await second.close();
    assert.deepEqual(page.problems, []);
    await page.close();
    // 'preset' is a layout only in this lesson
    const other = await openPage(browser.context, '#lesson=heatmap&layout=preset');
    assert.match(await other.textContent('#messages'), /“layout” was not valid/);
    await other.close();
  });
});
