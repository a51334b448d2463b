// The rope lesson, rotary position embedding, in headless Chromium (strict CSP, no
// console error, both languages). Every number the figures show is checked
// against float64 maths written here or against the independent RoPE
// reference of tests/js/rope-reference.mjs (written from REFERENCE-ROPE.md),
// never against the site's own code.
// npm test: quick form
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ropeInvFreq } from '../js/rope-reference.mjs';
import { defaultState } from '../../web/src/state.js';
import { seededVector } from '../../web/src/model/rope.js';
import { launch, openPage, settle, hashSettled, screenshot, numbersIn, assertLanguage, drawnDials } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const f32 = Math.fround;
const view = new DataView(new ArrayBuffer(4));
/** bfloat16 of a float32 value: round to nearest even on the top 16 bits (written here, not taken from the site). */
function bfloat16(x) {
  view.setFloat32(0, x);
  const u = view.getUint32(0);
  const rounded = (u + 0x7fff + ((u >>> 16) & 1)) >>> 16;
  view.setUint32(0, (rounded << 16) >>> 0);
  return view.getFloat32(0);
}

async function answer(page, question, choice) {
  const q = `fieldset.quiz-question[data-question="${question}"]`;
  await page.check(`${q} input[data-choice="${choice}"]`);
  await page.click(`${q} .quiz-reveal`);
  await settle(page);
  return {
    result: await page.getAttribute(q, 'data-result'),
    correct: await page.$eval(`${q} .quiz-choice.correct`, (l) => l.dataset.choice),
    feedback: (await page.textContent(`${q} .quiz-feedback`)).trim(),
  };
}

async function setNumber(page, key, value) {
  const box = `.lesson-rope input.number[data-key="${key}"]`;
  await page.fill(box, String(value));
  await page.press(box, 'Enter');
  await settle(page);
}

async function readNumbers(page, selector) {
  return page.$$eval(selector, (els) => els.map((e) => e.textContent.trim()));
}

describe('the rope lesson: RoPE', () => {
  test('dials turn each pair by p·ω_j (the drawn hands against float64 angles)', async () => {
    // base from the URL: inv_j = base^(−2j/r)
    const base = 500;
    const page = await openPage(browser.context, `#lesson=rope&base=${base}`);
    assert.match(await page.textContent('h1.lesson-title'), /RoPE/);
    for (const p of [1, 37, 1000]) {
      await setNumber(page, 'pos', p);
      const dials = await drawnDials(page, '.rope-dials');
      assert.equal(dials.length, 4, 'head size 8: four pairs, one dial each');
      const r = 2 * dials.length;
      // the query is drawn at its own scale: its longest pair reaches the rim
      const longest = Math.max(...dials.map((d) => Math.hypot(...d.ghost.to)));
      assert.ok(Math.abs(longest - 1) < 1e-6, `longest pair drawn at the rim (${longest})`);
      assert.deepEqual(dials.map((d) => d.key), [0, 1, 2, 3], 'dials in pair order');
      dials.forEach(({ key: j, hand, ghost }) => {
        assert.ok(hand.visible && ghost.visible, `pair ${j}: hand and unrotated vector drawn`);
        assert.ok(Math.hypot(...hand.from) < 1e-6 && Math.hypot(...ghost.from) < 1e-6, `pair ${j}: hands start at the centre`);
        const theta = p * base ** ((-2 * j) / r);
        // the hand is the ghost turned counter-clockwise by θ
        const [a0, b0] = ghost.to;
        const expected = [a0 * Math.cos(theta) - b0 * Math.sin(theta), b0 * Math.cos(theta) + a0 * Math.sin(theta)];
        const miss = Math.hypot(hand.to[0] - expected[0], hand.to[1] - expected[1]);
        assert.ok(miss < 2e-6, `p ${p} pair ${j}: hand at (${hand.to}), expected (${expected}), θ = ${theta}`);
        assert.ok(Math.abs(Math.hypot(...hand.to) - Math.hypot(a0, b0)) < 1e-6, 'a rotation keeps the length');
      });
      // the readout names the angle of pair 0 mod 360°: "Position p: pair 0 has turned to …°"
      const text = await page.textContent('.rope-dial-readout');
      const degrees = ((((p * 180) / Math.PI) % 360) + 360) % 360;
      assert.equal(numbersIn(text)[0], p, text);
      assert.ok(Math.abs(numbersIn(text)[2] - degrees) < 0.06, `${text} vs ${degrees}`);
    }
    assert.match(await hashSettled(page), /pos=1000/);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('the score depends only on the offset k; the added encoding’s does not (recomputed here)', async () => {
    const seed = 7;
    const page = await openPage(browser.context, `#lesson=rope&k=5&seed=${seed}`);
    // the lesson's inputs: a query and a key drawn from its seeded generator (the check is about
    // what the figure shows for them, computed here in float64 from the formulas)
    const r = 64;
    const base = 10000;
    const q = Float32Array.from(seededVector(r, seed));
    const key = Float32Array.from(seededVector(r, seed + 10007));
    const w = (j) => base ** ((-2 * j) / r);
    // ⟨R(p)q, R(p+k)key⟩ = ⟨q, R(k)key⟩ with R(θ)(a, b) = (a cos θ − b sin θ, a sin θ + b cos θ) on each pair
    // (j, j + r/2): Σ_j (q_1 key_1 + q_2 key_2) cos kω_j + (q_2 key_1 − q_1 key_2) sin kω_j
    const ropeScore = (k) => {
      let s = 0;
      for (let j = 0; j < r / 2; j++) {
        const [a, b] = [j, j + r / 2];
        s += (q[a] * key[a] + q[b] * key[b]) * Math.cos(k * w(j)) + (q[b] * key[a] - q[a] * key[b]) * Math.sin(k * w(j));
      }
      return s;
    };
    // ⟨q + PE(p), key + PE(p+k)⟩ with the concatenated sinusoidal table of width r
    const pe = (p, i) => (i < r / 2 ? Math.sin(p * w(i)) : Math.cos(p * w(i - r / 2)));
    const addedScore = (p, k) => q.reduce((s, qi, i) => s + (qi + pe(p, i)) * (key[i] + pe(p + k, i)), 0);

    const chart = page.locator('.lesson-rope figure.chart').first();
    await chart.scrollIntoViewIfNeeded();
    /** Moves the chart's cursor to position p (from the x axis ticks) and reads the readout's numbers. */
    const readAt = async (p) => {
      const ticks = await chart.locator('g.axis.x .tick').evaluateAll((ts) => ts.map((t) => [Number(t.textContent.replace(/,/g, '')), t.getBoundingClientRect()]).map(([v, b]) => [v, b.left + b.width / 2]));
      const [[v0, x0], [v1, x1]] = [ticks[0], ticks.at(-1)];
      const box = await chart.locator('svg.chart-svg').boundingBox();
      await page.mouse.move(x0 + ((p - v0) / (v1 - v0)) * (x1 - x0), box.y + box.height / 2);
      await settle(page);
      return numbersIn(await page.textContent('.rope-check-readout'));
    };
    for (const k of [5, 40]) {
      if (k !== 5) await setNumber(page, 'k', k);
      const expected = ropeScore(k);
      const scores = [];
      const added = [];
      for (const p of [0, 1, 100, 254, 255]) {
        const [shownP, shownKey, rope, add] = await readAt(p);
        assert.deepEqual([shownP, shownKey], [p, p + k], `the readout is for p = ${p}, key at ${p + k}`);
        assert.ok(Math.abs(rope - expected) < 2e-5 * Math.max(1, Math.abs(expected)), `k ${k}, p ${p}: RoPE score ${rope} vs ${expected}`);
        assert.ok(Math.abs(add - addedScore(p, k)) < 2e-3, `k ${k}, p ${p}: added score ${add} vs ${addedScore(p, k)}`);
        scores.push(rope);
        added.push(add);
      }
      // the verdict, recomputed from the values shown: the same at every p for RoPE, not for the added encoding
      const spread = (v) => Math.max(...v) - Math.min(...v);
      assert.ok(spread(scores) <= 5e-6, `RoPE scores over p: ${scores}`);
      assert.ok(spread(added) > 0.1, `added-encoding scores over p: ${added}`);
      // and the page states that value for this k
      const verdict = numbersIn(await page.textContent('.rope-check-verdict'));
      assert.equal(verdict[0], k);
      assert.ok(Math.abs(verdict[1] - expected) < 2e-5 * Math.max(1, Math.abs(expected)), `verdict score ${verdict[1]} vs ${expected}`);
    }
    assert.ok(Math.abs(ropeScore(5) - ropeScore(40)) > 0.01, 'the two offsets give different scores');
    // the formula the section prints is the one derived above (the sin term's sign included)
    const formula = await page.$$eval('.lesson-rope annotation', (as) => as.map((a) => a.textContent.replace(/\s+/g, ' ')).find((t) => t.includes('R(p+m)')));
    assert.ok(formula, 'the score formula is typeset');
    assert.match(formula, /\(q_1 k_1 \+ q_2 k_2\)\\cos m\\omega_j \+ \(q_2 k_1 - q_1 k_2\)\\sin m\\omega_j/, formula);
    // the chart: the RoPE line is flat, the added one is not
    const ys = await chart.locator('path.chart-line').evaluateAll((paths) => paths.map((path) => [...path.getAttribute('d').matchAll(/[ML][^,]+,([-\d.e]+)/g)].map((m) => Number(m[1]))));
    assert.equal(ys.length, 2);
    const range = (v) => Math.max(...v) - Math.min(...v);
    assert.ok(ys[0].length >= 200 && range(ys[0]) < 0.5, `RoPE line flat: ${range(ys[0])} px`);
    assert.ok(range(ys[1]) > 10, `added line moves: ${range(ys[1])} px`);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('half and interleaved layouts rotate the same vector with different pairs', async () => {
    const page = await openPage(browser.context, '#lesson=rope&pos=7');
    const x = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8].map(f32);
    const w = (j) => 10000 ** ((-2 * j) / 8);
    const rotate = (pairs, v = x) => {
      const out = v.slice();
      pairs.forEach(([a, b], j) => {
        const c = Math.cos(7 * w(j));
        const s = Math.sin(7 * w(j));
        out[a] = v[a] * c - v[b] * s;
        out[b] = v[b] * c + v[a] * s;
      });
      return out;
    };
    const expected = {
      half: rotate([0, 1, 2, 3].map((j) => [j, j + 4])),
      interleaved: rotate([0, 1, 2, 3].map((j) => [2 * j, 2 * j + 1])),
    };
    for (const layout of ['half', 'interleaved']) {
      const cells = await readNumbers(page, `.rope-layout-table[data-layout="${layout}"] tbody .rotated-cell`);
      assert.equal(cells.length, 8);
      cells.forEach((text, i) => assert.ok(Math.abs(numbersIn(text)[0] - expected[layout][i]) < 1.5e-5, `${layout}[${i}] ${text} vs ${expected[layout][i]}`));
    }
    assert.notDeepEqual(expected.half.map((v) => v.toFixed(3)), expected.interleaved.map((v) => v.toFixed(3)));
    // the page's claim, recomputed here: x reordered so that half pair j = (j, j + 4) sits at (2j, 2j + 1),
    // rotated with interleaved pairs and read back in the same order, is the half rotation of x
    const order = [0, 1, 2, 3].flatMap((j) => [j, j + 4]);
    const reordered = rotate([0, 1, 2, 3].map((j) => [2 * j, 2 * j + 1]), order.map((i) => x[i]));
    const readBack = new Array(8);
    order.forEach((i, k) => (readBack[i] = reordered[k]));
    readBack.forEach((v, i) => assert.ok(Math.abs(v - expected.half[i]) < 1e-12, `read back [${i}]`));
    const claim = numbersIn(await page.textContent('.rope-layout-check'));
    assert.deepEqual(claim.slice(0, 8), order, 'the order the page names');
    const [difference, at] = claim.slice(-2);
    assert.equal(at, 7, 'at the position of the URL');
    assert.ok(difference >= 0 && difference <= 1e-6, `stated difference ${difference}`);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('long-context scaling: the wavelength of every method against the float64 reference', async () => {
    const page = await openPage(browser.context, '#lesson=rope&factor=8&ctx=8192&base=500000');
    const options = {
      default: { ropeType: 'default', base: 500000 },
      linear: { ropeType: 'linear', base: 500000, factor: 8 },
      dynamic: { ropeType: 'dynamic', base: 500000, factor: 8, maxPositions: 8192, seqLen: 65536 },
      yarn: { ropeType: 'yarn', base: 500000, factor: 8, originalMaxPositions: 8192 },
      llama3: { ropeType: 'llama3', base: 500000, factor: 8, originalMaxPositions: 8192 },
    };
    const chart = '.lesson-rope figure.chart >> nth=1';
    await page.locator(chart).scrollIntoViewIfNeeded();
    const svgBox = await page.locator(chart).locator('svg.chart-svg').boundingBox();
    // x position of pair j from the first series' path
    const xs = await page.locator(chart).locator('path.chart-line').first().evaluate((p) => [...p.getAttribute('d').matchAll(/[ML]([-\d.e]+),/g)].map((m) => Number(m[1])));
    assert.equal(xs.length, 64, 'r = 128: 64 pairs');
    for (const j of [0, 20, 40, 63]) {
      await page.mouse.move(svgBox.x + xs[j], svgBox.y + 40);
      await settle(page);
      // "Pair j: default: λ = …, … turns within L; linear …: λ = …; …" (method names may hold digits: llama3)
      const text = await page.textContent('.rope-scaling-readout');
      assert.equal(numbersIn(text)[0], j, text);
      const shownWavelengths = text.split(';').map((part) => numbersIn(part.split('λ = ')[1])[0]);
      Object.values(options).forEach((o, k) => {
        const wavelength = (2 * Math.PI) / ropeInvFreq(128, o)[j];
        const shown = shownWavelengths[k];
        // shown with one decimal below 1000 positions, in whole positions above
        assert.ok(Math.abs(shown - wavelength) <= (wavelength < 1000 ? 0.051 : 0.51), `pair ${j}, ${o.ropeType}: ${shown} vs ${wavelength}`);
      });
    }
    // the summary counts the pairs whose wavelength fits in L, per method
    const summary = numbersIn(await page.textContent('.rope-scaling-summary'));
    const fits = Object.values(options).map((o) => Array.from(ropeInvFreq(128, o)).filter((w) => (2 * Math.PI) / w <= 8192).length);
    for (const count of fits) assert.ok(summary.includes(count), `${count} in ${summary}`);
    // the chart as a figure: its caption names the method parameters, its file name too
    const [dl] = await Promise.all([page.waitForEvent('download'), page.locator(chart).locator('.export-figure-svg').click()]);
    assert.match(dl.suggestedFilename(), /s8_L8192-en\.svg$/);
    const svg = readFileSync(await dl.path(), 'utf8');
    const desc = svg.match(/<desc>([^<]*)<\/desc>/)[1];
    for (const part of [/r = 128/, /base 500,000/, /s = 8/, /L = 8192/]) assert.match(desc, part);
    assert.equal((svg.match(/<path [^>]*class="chart-line"/g) ?? []).length, 5, 'five methods');
    // turns within L: switching the measure relabels the axis
    await page.check('input[data-key="measure"][value="rotations"]');
    await settle(page);
    assert.match(await page.locator(chart).locator('.y .axis-label').textContent(), /L = 8192\b/);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('config.json: examples, pasted text, JSON and key errors shown as text', async () => {
    const page = await openPage(browser.context, '#lesson=rope');
    await page.click('.config-example[data-model="llama31"]');
    await settle(page);
    const summary = await page.$$eval('.config-summary dd', (dds) => dds.map((d) => d.textContent));
    assert.deepEqual(summary.slice(0, 3), ['llama3', '128', '128']);
    const reference = ropeInvFreq(128, { ropeType: 'llama3', base: 500000, factor: 8, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositions: 8192 });
    const rows = await page.$$eval('.config-table tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
    assert.equal(rows.length, 64);
    for (const j of [0, 31, 45, 63]) assert.ok(Math.abs(numbersIn(rows[j][1])[0] - reference[j]) <= 5e-9 + 1e-7 * reference[j], `ω_${j}: ${rows[j][1]} vs ${reference[j]}`);
    // Phi-2: 32 of 80 dimensions rotate
    await page.click('.config-example[data-model="phi2"]');
    await settle(page);
    assert.deepEqual((await page.$$eval('.config-summary dd', (dds) => dds.map((d) => d.textContent))).slice(0, 3), ['default', '80', '32']);
    // not JSON, with markup in it: an error as text, no element made from it
    await page.fill('textarea.config-text', '<img src=x id=injected onerror="console.error(1)"> {');
    await page.click('.config-parse');
    await settle(page);
    assert.match(await page.textContent('.config-error'), /JSON/);
    assert.equal(await page.$('#injected'), null);
    assert.equal(await page.$('.config-result img'), null);
    // a bad value: the package's error names the config key
    await page.fill('textarea.config-text', JSON.stringify({ hidden_size: 4096, num_attention_heads: 32, rope_scaling: { rope_type: 'linear', factor: -2 } }));
    await page.click('.config-parse');
    await settle(page);
    const error = await page.textContent('.config-error');
    assert.match(error, /RangeError|TypeError/);
    assert.match(error, /factor/);
    assert.equal(await page.isHidden('.config-figure'), true);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('precision: float32 and bfloat16 angles against exact at 4K … 1M', async () => {
    const page = await openPage(browser.context, '#lesson=rope');
    const summary = numbersIn(await page.textContent('.precision-summary'));
    // REFERENCE-ROPE.md: 2.3e-4 just below 4096, 3.9e-3 below 65536, 6.2e-2 below 2^20 (r = 128, base 10000)
    const stated = [2.3e-4, 3.9e-3, 6.2e-2];
    const shown = summary.filter((v) => v > 1e-5 && v < 1);
    stated.forEach((s, i) => assert.ok(shown[i] > 0.7 * s && shown[i] < 1.3 * s, `float32 error ${shown[i]} vs ${s}`));
    for (const p of [4095, 1048575]) {
      await page.click(`.precision-jump[data-position="${p}"]`);
      await settle(page);
      const j = 1;
      const inv = 10000 ** (-2 / 128);
      const exact = p * inv;
      const invF = f32(1 / f32(f32(10000) ** f32(2 / 128)));
      const a32 = f32(f32(p) * invF);
      const a16 = bfloat16(a32);
      const row = async (pipeline) => numbersIn((await readNumbers(page, `.precision-table tr[data-pair="${j}"][data-pipeline="${pipeline}"] td`)).join(' '));
      const [exactAngle, exactCos] = await row('exact');
      assert.ok(Math.abs(exactAngle - exact) < 1e-6 * Math.max(1, exact), `exact angle ${exactAngle} vs ${exact}`);
      assert.ok(Math.abs(exactCos - Math.cos(exact)) < 1e-6);
      const [angle32, cos32, err32] = await row('float32');
      assert.ok(Math.abs(angle32 - a32) < 1e-6 * Math.max(1, a32), `float32 angle ${angle32} vs ${a32}`);
      assert.ok(Math.abs(cos32 - Math.cos(a32)) < 1e-6);
      assert.ok(Math.abs(err32 - Math.abs(Math.cos(a32) - Math.cos(exact))) <= 0.06 * Math.abs(Math.cos(a32) - Math.cos(exact)) + 1e-12);
      const [angle16] = await row('bf16');
      assert.equal(angle16, a16);
      const [sinpeCos, sinpeErr] = await row('sinpe');
      assert.ok(Math.abs(sinpeCos - Math.cos(exact)) < 2.5e-7 + 5e-7, `sinpe cos ${sinpeCos}`);
      assert.ok(sinpeErr < 2.5e-7);
    }
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('predict, then reveal: the score after a shift is the same; pair 0 at p = 3 (the settings stay as they were)', async () => {
    const page = await openPage(browser.context, '#lesson=rope');
    const r = await answer(page, 'shift', 'larger');
    assert.equal(r.correct, 'same');
    const [s1, s2] = numbersIn(r.feedback).filter((v) => !Number.isInteger(v));
    assert.ok(Math.abs(s1 - s2) < 1e-5, `${s1} vs ${s2}`);
    const turn = await answer(page, 'turn', 'degrees172');
    assert.equal(turn.result, 'right');
    assert.ok(numbersIn(turn.feedback).some((v) => Math.abs(v - (3 * 180) / Math.PI) < 0.06));
    assert.equal((await page.evaluate(() => window.sinpeSite.state)).pos, defaultState('rope').pos);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('简体中文, URL round trip, screenshots', async () => {
    const page = await openPage(browser.context, '#lesson=rope&lang=zh&pos=12&k=3&factor=4&ctx=4096&measure=rotations');
    assertLanguage(await page.textContent('h1.lesson-title'), 'zh', 'title');
    assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
    assert.match(await page.textContent('.rope-dial-readout'), /位置 12/);
    const state = await page.evaluate(() => window.sinpeSite.state);
    assert.deepEqual([state.pos, state.k, state.factor, state.ctx, state.measure], [12, 3, 4, 4096, 'rotations']);
    await screenshot(page, 'rope-zh');
    await page.click('button[data-lang="en"]');
    await settle(page);
    assert.match(await page.textContent('h1.lesson-title'), /RoPE/);
    assertLanguage(await page.textContent('h1.lesson-title'), 'en', 'title');
    await screenshot(page, 'rope-en');
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
