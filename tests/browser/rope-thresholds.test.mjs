// The rope lesson's scaling thresholds drawn where transformers puts them: llama3's
// wavelength bounds L/h_f and L/l_f (_compute_llama3_parameters) and YaRN's
// correction range ℓ, h (_compute_yarn_parameters → find_correction_range,
// floor/ceil with `truncate`, clamped to [0, dim − 1]), computed here in
// float64 from those formulas, never from the site's code. The drawn lines
// are located through the chart's own scales: pair j's x from the first
// curve's path (one point per pair), a wavelength's y by log interpolation
// between the labelled 10ⁿ ticks of the y axis.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import en from '../../web/src/i18n/en.js';
import zh from '../../web/src/i18n/zh.js';
import { launch, openPage, settle } from './helpers.mjs';

const STRINGS = { en, zh };
let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

// transformers' find_correction_dim / find_correction_range (truncate = true, the default)
const correctionDim = (turns, dim, base, L) => (dim * Math.log(L / (turns * 2 * Math.PI))) / (2 * Math.log(base));
function yarnRange(dim, base, L, betaFast = 32, betaSlow = 1) {
  const low = Math.floor(correctionDim(betaFast, dim, base, L));
  const high = Math.ceil(correctionDim(betaSlow, dim, base, L));
  return [Math.max(low, 0), Math.min(high, dim - 1)];
}
// _compute_llama3_parameters: high_freq_wavelen = L / h_f, low_freq_wavelen = L / l_f
const llama3Bounds = (L, lowFreqFactor = 1, highFreqFactor = 4) => [L / highFreqFactor, L / lowFreqFactor];

// integers as the page writes them: grouped from 10,000 on
const grouped = (v) => (Math.abs(v) >= 10000 ? new Intl.NumberFormat('en-US').format(v) : String(v));
const fill = (template, value) => template.replace('{value}', grouped(value));

const SUPER = { '⁰': 0, '¹': 1, '²': 2, '³': 3, '⁴': 4, '⁵': 5, '⁶': 6, '⁷': 7, '⁸': 8, '⁹': 9 };

/** The threshold marks of a chart, and the chart's scales read from its own drawing. */
function readChart(page, selector) {
  return page.$eval(selector, (figure) => {
    const svg = figure.querySelector('svg.chart-svg');
    const path = svg.querySelector('path.chart-line');
    const pairX = [...path.getAttribute('d').matchAll(/[ML]([-\d.e]+),/g)].map((m) => Number(m[1]));
    // d3-axis shifts its ticks by half a pixel on a 1× screen, for crisp lines
    const offset = window.devicePixelRatio > 1 ? 0 : 0.5;
    const ticks = [...svg.querySelectorAll('.axis.y .tick')].map((t) => ({ y: Number(t.getAttribute('transform').match(/translate\(0,([-\d.e]+)\)/)[1]) - offset, label: t.textContent }));
    const lines = [...svg.querySelectorAll('line.chart-mark')].map((l) => ({ threshold: l.dataset.threshold ?? '', x1: Number(l.getAttribute('x1')), x2: Number(l.getAttribute('x2')), y1: Number(l.getAttribute('y1')), y2: Number(l.getAttribute('y2')) }));
    const labels = [...svg.querySelectorAll('text.chart-mark-label')].map((t) => ({ threshold: t.dataset.threshold ?? '', text: t.textContent }));
    return { pairX, ticks, lines, labels };
  });
}

/** y of a wavelength from the labelled 10ⁿ ticks of a log axis. */
function yOf(chart, value) {
  const decades = chart.ticks
    .filter((t) => /^(1|10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)$/.test(t.label))
    .map((t) => ({ y: t.y, e: t.label === '1' ? 0 : (t.label.includes('⁻') ? -1 : 1) * Number([...t.label.slice(2).replace('⁻', '')].map((c) => SUPER[c]).join('')) }));
  assert.ok(decades.length >= 2, `two labelled decades: ${JSON.stringify(chart.ticks)}`);
  const [a, b] = [decades[0], decades.at(-1)];
  return a.y + ((Math.log10(value) - a.e) * (b.y - a.y)) / (b.e - a.e);
}

/** Checks one drawn threshold: its line where the value is, its label naming the value. */
function checkMark(chart, key, { pair, wavelength }, label, where) {
  const line = chart.lines.find((l) => l.threshold.split(' ').includes(key));
  assert.ok(line, `${where}: a line for ${key}: ${JSON.stringify(chart.lines)}`);
  if (pair !== undefined) {
    assert.ok(Math.abs(line.x1 - chart.pairX[pair]) < 0.01 && line.x1 === line.x2, `${where}: ${key} at pair ${pair} (x ${chart.pairX[pair]}), drawn at x ${line.x1}`);
  } else {
    const y = yOf(chart, wavelength);
    assert.ok(Math.abs(line.y1 - y) < 0.05 && line.y1 === line.y2, `${where}: ${key} at λ = ${wavelength} (y ${y}), drawn at y ${line.y1}`);
  }
  const text = chart.labels.find((l) => l.threshold.split(' ').includes(key))?.text ?? '';
  assert.ok(text.includes(label), `${where}: ${key} labelled "${label}" in "${text}"`);
}

describe('the rope lesson: scaling thresholds', () => {
  for (const lang of ['en', 'zh']) {
    test(`${lang}: the scaling chart marks llama3's L/h_f, L/l_f and YaRN's ℓ, h for its state`, async () => {
      const T = STRINGS[lang].lessons.rope.threshold;
      const page = await openPage(browser.context, `#lesson=rope&lang=${lang}&factor=4&ctx=32768&base=1000000`);
      const s = await page.evaluate(() => window.sinpeSite.state);
      assert.deepEqual([s.factor, s.ctx, s.base], [4, 32768, 1000000]);
      for (const state of [s, { ...s, ctx: 4096, base: 10000 }]) {
        if (state !== s) {
          await page.evaluate((h) => (location.hash = h), `#lesson=rope&lang=${lang}&factor=4&ctx=${state.ctx}&base=${state.base}`);
          await settle(page);
        }
        const chart = await readChart(page, `figure.chart:has(svg[aria-label="${STRINGS[lang].lessons.rope.scalingLabel}"])`);
        assert.equal(chart.pairX.length, 64, 'r = 128: 64 pairs');
        const [low, high] = yarnRange(128, state.base, state.ctx);
        const [hiWave, loWave] = llama3Bounds(state.ctx);
        const where = `${lang} L ${state.ctx} base ${state.base}`;
        checkMark(chart, 'yarnLow', { pair: low }, fill(T.yarnLow, low), where);
        checkMark(chart, 'yarnHigh', { pair: high }, fill(T.yarnHigh, high), where);
        checkMark(chart, 'llama3High', { wavelength: hiWave }, fill(T.llama3High, hiWave), where);
        checkMark(chart, 'llama3Low', { wavelength: loWave }, fill(T.llama3Low, loWave), where);
      }
      assert.deepEqual(page.problems, []);
      await page.close();
    });
  }

  test('a pasted Qwen2.5 YaRN config and a pasted Llama-3.1 config drive the config chart’s thresholds', async () => {
    const T = en.lessons.rope.threshold;
    const page = await openPage(browser.context, '#lesson=rope&lang=en');
    const configs = [
      // Qwen2.5-7B-Instruct with the YaRN block its model card gives for long texts
      { hidden_size: 3584, num_attention_heads: 28, max_position_embeddings: 32768, rope_theta: 1000000.0, rope_scaling: { factor: 4.0, original_max_position_embeddings: 32768, type: 'yarn' } },
      // Llama-3.1-8B
      { hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: 131072, rope_theta: 500000.0, rope_scaling: { factor: 8.0, low_freq_factor: 1.0, high_freq_factor: 4.0, original_max_position_embeddings: 8192, rope_type: 'llama3' } },
    ];
    for (const config of configs) {
      await page.fill('#rope-config-text', JSON.stringify(config, null, 2));
      await page.click('.config-parse');
      await settle(page);
      const chart = await readChart(page, '.config-figure figure.chart');
      const dim = config.hidden_size / config.num_attention_heads;
      assert.equal(chart.pairX.length, dim / 2);
      const L = config.rope_scaling.original_max_position_embeddings;
      // the package's frequencies agree with the drawn thresholds: the table's treatment of each pair
      const treatment = await page.$$eval('.config-table tbody tr', (rows) => rows.map((r) => r.querySelector('[data-column="treatment"]').textContent));
      const names = Object.fromEntries(Object.entries(en.lessons.rope.treatment).map(([k, v]) => [v, k]));
      const shown = treatment.map((t) => names[t]);
      assert.equal(shown.length, dim / 2);
      if (config.rope_scaling.type === 'yarn') {
        const [low, high] = yarnRange(dim, config.rope_theta, L);
        // transformers' ramp (j − ℓ)/(h − ℓ) clamped to [0, 1]: 0 keeps the pair, 1 divides it by s
        shown.forEach((t, j) => assert.equal(t, j <= low ? 'kept' : j >= high ? 'scaled' : 'blended', `qwen2.5 pair ${j}`));
      } else {
        const { low_freq_factor: lf, high_freq_factor: hf } = config.rope_scaling;
        const [hiWave, loWave] = llama3Bounds(L, lf, hf);
        shown.forEach((t, j) => {
          const wavelength = 2 * Math.PI * config.rope_theta ** ((2 * j) / dim);
          assert.equal(t, wavelength < hiWave ? 'kept' : wavelength > loWave ? 'scaled' : 'blended', `llama3.1 pair ${j} (λ ${wavelength})`);
        });
      }
      if (config.rope_scaling.type === 'yarn') {
        const [low, high] = yarnRange(dim, config.rope_theta, L);
        assert.deepEqual([low, high], [23, 40], 'the Qwen2.5 example’s range (ℓ = 23, h = 40)');
        checkMark(chart, 'yarnLow', { pair: low }, fill(T.yarnLow, low), 'qwen2.5 yarn');
        checkMark(chart, 'yarnHigh', { pair: high }, fill(T.yarnHigh, high), 'qwen2.5 yarn');
        assert.ok(!chart.lines.some((l) => l.threshold.includes('llama3')), 'no llama3 bounds on a YaRN config');
      } else {
        const { low_freq_factor: lf, high_freq_factor: hf } = config.rope_scaling;
        const [hiWave, loWave] = llama3Bounds(L, lf, hf);
        checkMark(chart, 'llama3High', { wavelength: hiWave }, fill(T.llama3High, hiWave), 'llama3.1');
        checkMark(chart, 'llama3Low', { wavelength: loWave }, fill(T.llama3Low, loWave), 'llama3.1');
        assert.ok(!chart.lines.some((l) => l.threshold.includes('yarn')), 'no YaRN range on a llama3 config');
      }
    }
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
