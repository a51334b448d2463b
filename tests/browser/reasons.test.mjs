// The package's reasons on the page, in the page's language: a refused
// d_model's message, a variant card's refusal and the rope lesson's config errors
// read in 简体中文 on Chinese pages (the package's English reason nowhere in
// them) and as the package says them on English pages. The reasons are the
// package's own, raised here in node by the same calls the page makes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import sinpe, { ropeOptionsFromConfig } from 'sinpe.wasm';
import zh from '../../web/src/i18n/reasons.zh.js';
import { launch, openPage, settle, HAN } from './helpers.mjs';

let browser;
let pe;
before(async () => {
  browser = await launch();
  pe = await sinpe();
});
after(async () => {
  await browser?.close();
});

function thrown(call) {
  try {
    call();
  } catch (error) {
    return error;
  }
  assert.fail(`${call} was accepted`);
}
const english = (error) => error.message.replace(/^sinpe: /, '');
const chinese = (error) => (error.status ? zh.statuses[error.status] : zh.config[error.code]).replace(/\{(\w+)\}/g, (w, k) => error.values[k]);

function assertReason(text, error, lang, what) {
  if (lang === 'zh') {
    assert.match(text, HAN, what);
    assert.ok(!text.includes(english(error)), `${what}: the English reason in a Chinese page: ${text}`);
    assert.ok(text.includes(chinese(error)), `${what}: "${chinese(error)}" not in "${text}"`);
  } else assert.ok(text.includes(english(error)), `${what}: "${english(error)}" not in "${text}"`);
}

for (const lang of ['en', 'zh']) {
  test(`${lang}: a d_model the package refuses gives its reason in the page's language`, async () => {
    const page = await openPage(browser.context, `#lesson=heatmap&d=129&lang=${lang}`);
    const error = thrown(() => pe.table(1, 129));
    const text = (await page.$$eval('#messages p.message', (ps) => ps.map((p) => p.textContent))).join('\n');
    assertReason(text, error, lang, 'message about d = 129');
    await page.close();
  });

  test(`${lang}: a variant card that refuses d_model says why in the page's language`, async () => {
    const page = await openPage(browser.context, `#lesson=variants&d=7&preset=keras&lang=${lang}`);
    const error = thrown(() => pe.table(1, 7, { preset: 'vaswani' }));
    const refusals = await page.$$eval('.card-refusal', (ps) => ps.map((p) => p.textContent).filter(Boolean));
    assert.ok(refusals.length > 0, 'a card refuses d = 7');
    assert.ok(refusals.every((r) => !r.includes(english(error)) || lang === 'en'), refusals.join('\n'));
    assertReason(refusals.join('\n'), error, lang, 'card refusals');
    await page.close();
  });

  test(`${lang}: the rope lesson's config errors give the key and the reason in the page's language`, async () => {
    const page = await openPage(browser.context, `#lesson=rope&lang=${lang}`);
    const configs = [
      { hidden_size: 64, num_attention_heads: 4, rope_scaling: { rope_type: 'linear' } },
      { hidden_size: 64, num_attention_heads: 4, rope_theta: 0.5 },
    ];
    for (const config of configs) {
      const error = thrown(() => ropeOptionsFromConfig(config));
      await page.fill('#rope-config-text', JSON.stringify(config));
      await page.click('.config-parse');
      await settle(page);
      const text = await page.textContent('.config-result .config-error');
      assert.ok(text.includes(error.configKey), `names ${error.configKey}: ${text}`);
      assertReason(text, error, lang, error.code);
    }
    assert.deepEqual(page.problems, []);
    await page.close();
  });
}
