// The rope lesson's config table can check a model: for the Qwen2.5 YaRN example
// and Llama 3.1's llama3 bands, every pair's ω and λ to six significant
// digits, whether the pair is kept, divided by s or blended, the attention
// factor, and a CSV of the table with full values — all against the float64
// RoPE reference of tests/js (written from transformers' modeling_rope_utils,
// sharing no code with the site or the package). The options are read here
// from the config text the page shows.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ropeParameters } from '../js/rope-reference.mjs';
import { launch, openPage, settle } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** sinpe options of a config.json text with `rope_scaling` (the two examples used here). */
function optionsOf(config) {
  const scaling = config.rope_scaling;
  const type = scaling.rope_type ?? scaling.type;
  const options = { ropeType: type, base: config.rope_theta, factor: scaling.factor, originalMaxPositions: scaling.original_max_position_embeddings };
  if (type === 'llama3') Object.assign(options, { lowFreqFactor: scaling.low_freq_factor, highFreqFactor: scaling.high_freq_factor });
  return { r: config.head_dim ?? config.hidden_size / config.num_attention_heads, options };
}

const relative = (a, b) => Math.abs(a - b) / Math.abs(b);

for (const [model, expectBands] of [
  ['qwen25yarn', true],
  ['llama31', true],
]) {
  test(`config table of ${model}: ω, λ to 6 significant digits, each pair's treatment, attention factor, CSV`, async () => {
    const page = await openPage(browser.context, '#lesson=rope&lang=en');
    await page.click(`button.config-example[data-model="${model}"]`);
    await settle(page);
    const { r, options } = optionsOf(JSON.parse(await page.inputValue('#rope-config-text')));
    const reference = ropeParameters(r, options);
    const plain = ropeParameters(r, { base: options.base }).invFreq;
    await page.click('.config-figure details summary');
    const rows = await page.$$eval('.config-table tbody tr', (trs) =>
      trs.map((tr) => Object.fromEntries([...tr.querySelectorAll('td')].map((td) => [td.dataset.column, td.textContent]))),
    );
    assert.equal(rows.length, r / 2);
    const seen = new Set();
    rows.forEach((row, j) => {
      const w = reference.invFreq[j];
      // six significant digits: within half a unit of the sixth digit
      assert.ok(relative(Number(row.omega), w) <= 5e-6, `ω_${j}: ${row.omega} vs ${w}`);
      assert.ok(relative(Number(row.lambda), (2 * Math.PI) / w) <= 5e-6, `λ_${j}: ${row.lambda} vs ${(2 * Math.PI) / w}`);
      assert.doesNotMatch(row.omega + row.lambda, /e/i, 'no exponent notation');
      const treatment = Math.abs(w / plain[j] - 1) < 1e-12 ? 'kept' : Math.abs((w * options.factor) / plain[j] - 1) < 1e-12 ? 'divided by s' : 'blended';
      assert.equal(row.treatment, treatment, `pair ${j}`);
      seen.add(treatment);
    });
    if (expectBands) assert.deepEqual([...seen].sort(), ['blended', 'divided by s', 'kept'], 'the example shows all three bands');
    // the attention factor, in the summary
    const summary = await page.$$eval('.config-summary dt', (dts) => Object.fromEntries(dts.map((dt) => [dt.textContent, dt.nextElementSibling.textContent])));
    assert.ok(relative(Number(summary['attention factor']), reference.attentionFactor) <= 5e-6, `attention factor ${summary['attention factor']} vs ${reference.attentionFactor}`);
    // the CSV: one row per pair, full values, named after the drawn config
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click('.config-csv')]);
    assert.equal(dl.suggestedFilename(), `sinpe_rope_config_${model}_${options.ropeType}_r${r}_b${options.base}.csv`);
    const lines = readFileSync(await dl.path(), 'utf8').trim().split('\n');
    assert.equal(lines.length, 1 + r / 2);
    assert.match(lines[0], /^j,omega,lambda,/);
    lines.slice(1).forEach((line, j) => {
      const cells = line.split(',');
      assert.equal(Number(cells[0]), j);
      assert.ok(relative(Number(cells[1]), reference.invFreq[j]) <= 1e-12, `CSV ω_${j}: ${cells[1]} vs ${reference.invFreq[j]}`);
    });
    assert.deepEqual(page.problems, []);
    await page.close();
  });
}

// Phi-3.5's LongRoPE config holds two factor sets: short_factor up to
// original_max_position_embeddings tokens, long_factor beyond. The page drew
// the short set alone without saying so; now both, named, in the chart, the
// sentence (the figure's caption), the table and the CSV.
test('config of phi35 (LongRoPE): short_factor and long_factor both drawn, each named, against the reference', async () => {
  const page = await openPage(browser.context, '#lesson=rope&lang=en');
  await page.click('button.config-example[data-model="phi35"]');
  await settle(page);
  const config = JSON.parse(await page.inputValue('#rope-config-text'));
  const r = config.hidden_size / config.num_attention_heads;
  const L = config.original_max_position_embeddings;
  const options = {
    ropeType: 'longrope',
    base: config.rope_theta,
    shortFactor: config.rope_scaling.short_factor,
    longFactor: config.rope_scaling.long_factor,
    originalMaxPositions: L,
    maxPositions: config.max_position_embeddings,
  };
  const short = ropeParameters(r, { ...options, seqLen: L }).invFreq;
  const long = ropeParameters(r, { ...options, seqLen: L + 1 }).invFreq;
  const slowShort = (2 * Math.PI) / short.at(-1);
  const slowLong = (2 * Math.PI) / long.at(-1);
  // the brief's numbers: 147,287 (short) and ≈ 3,362,711 (long)
  assert.equal(Math.round(slowShort), 147287);
  assert.ok(Math.abs(slowLong - 3362711) < 1, `${slowLong}`);
  // the chart: one line per factor set, named, beside the unscaled one
  const names = await page.$$eval('.config-figure path.chart-line', (ps) => ps.map((p) => p.dataset.series));
  assert.equal(names.length, 3, names.join(' | '));
  assert.ok(names.some((n) => /short_factor/.test(n)) && names.some((n) => /long_factor/.test(n)), names.join(' | '));
  const legend = await page.$$eval('.config-figure .chart-legend li', (lis) => lis.map((li) => li.textContent));
  assert.ok(legend.some((n) => /short_factor/.test(n)) && legend.some((n) => /long_factor/.test(n)), legend.join(' | '));
  // the sentence (the figure's caption) names both sets and both slowest wavelengths
  const sentence = await page.textContent('.config-sentence');
  assert.match(sentence, /short_factor/);
  assert.match(sentence, /long_factor/);
  // numbers grouped by thousands, as the English page writes them (147,287)
  const grouped = (x) => Math.round(x).toLocaleString('en-US');
  assert.ok(sentence.includes(grouped(slowShort)) && sentence.includes(grouped(slowLong)), sentence);
  // the table: each pair's ω and λ of both sets
  await page.click('.config-figure details summary');
  const rows = await page.$$eval('.config-table tbody tr', (trs) =>
    trs.map((tr) => Object.fromEntries([...tr.querySelectorAll('td')].map((td) => [td.dataset.column, td.textContent]))),
  );
  assert.equal(rows.length, r / 2);
  rows.forEach((row, j) => {
    assert.ok(relative(Number(row.omega), short[j]) <= 5e-6, `short ω_${j}: ${row.omega} vs ${short[j]}`);
    assert.ok(relative(Number(row.lambdaLong), (2 * Math.PI) / long[j]) <= 5e-6, `long λ_${j}: ${row.lambdaLong} vs ${(2 * Math.PI) / long[j]}`);
    assert.ok(relative(Number(row.omegaLong), long[j]) <= 5e-6, `long ω_${j}: ${row.omegaLong}`);
  });
  // the figure export's caption says which set is which
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('.config-figure .export-figure-svg')]);
  const svg = readFileSync(await dl.path(), 'utf8');
  const desc = svg.match(/<desc>([^<]*)<\/desc>/)[1];
  assert.match(desc, /short_factor/);
  assert.match(desc, /long_factor/);
  // the CSV: both sets, full values
  const [csv] = await Promise.all([page.waitForEvent('download'), page.click('.config-csv')]);
  const lines = readFileSync(await csv.path(), 'utf8').trim().split('\n');
  const head = lines[0].split(',');
  const k = head.indexOf('omega_long');
  assert.ok(k > 0, lines[0]);
  lines.slice(1).forEach((line, j) => assert.ok(relative(Number(line.split(',')[k]), long[j]) <= 1e-12, `CSV long ω_${j}`));
  assert.deepEqual(page.problems, []);
  await page.close();
});
