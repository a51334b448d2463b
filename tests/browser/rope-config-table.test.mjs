// Lesson 9's config table can check a model: for the Qwen2.5 YaRN example
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
