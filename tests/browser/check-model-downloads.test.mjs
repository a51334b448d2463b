// The "Check a model" page: a cache equal to the float32 recipe still shows
// its curve under the recipe's; and it keeps the extend form's prepared downloads across
// a language switch: after "Build" the links to the extended model and to its
// external data are shown again in the new language, the same object URLs
// (nothing is built or read again: the page's file reads are counted), with
// the rows and recipe the form was left with. A model built here by
// tests/js/fixtures/make-genai-model.mjs (float16, the float32 recipe, its
// tensors in external data), never by sinpe.
// npm test: quick form
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIGS, OPTIONS, ROTARY_DIM, bake, makeGenaiModel } from '../js/fixtures/make-genai-model.mjs';
import { launch, openPage, settle, assertLanguage } from './helpers.mjs';

const ROWS = 1024;
const dir = mkdtempSync(join(tmpdir(), 'sinpe-check-model-downloads-'));
const file = (name, bytes) => {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
};
const B = makeGenaiModel({ caches: { default: { ...bake('float32', ROWS, ROTARY_DIM, OPTIONS.llama31.default, 'float16'), rows: ROWS } }, dtype: 'float16', external: true });
const files = [file('model.onnx', B.model), file(B.location, B.data), file('config.json', JSON.stringify(CONFIGS.llama31))];

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a cache made by the float32 recipe: its curve, equal to the recipe’s, still shows under it', async () => {
  const page = await openPage(browser.context, '#page=check-model&lang=en');
  await page.waitForSelector('.check-model-drop');
  await page.setInputFiles('#check-model-input', files);
  await page.waitForSelector('.check-model-chart path.chart-line', { timeout: 30000 });
  await settle(page);
  const lines = await page.$$eval('.check-model-chart path.chart-line', (paths) => paths.map((p) => ({ d: p.getAttribute('d'), width: parseFloat(getComputedStyle(p).strokeWidth) })));
  assert.equal(lines.length, 2, 'the cache’s curve and the recipe’s');
  assert.equal(lines[0].d, lines[1].d, 'this cache is the recipe’s values: the two curves coincide');
  assert.ok(lines[0].width >= 2 * lines[1].width, `the cache’s line (drawn first, ${lines[0].width} px) is wider than the recipe’s on it (${lines[1].width} px)`);
  assert.deepEqual(page.problems, []);
  await page.close();
});

/** The download links shown: [{ kind, href, name, text }], and the replaced line. */
const downloads = (page) =>
  page.evaluate(() => ({
    links: [...document.querySelectorAll('a.check-model-download')].map((a) => ({ kind: a.dataset.kind, href: a.href, name: a.download, text: a.textContent })),
    replaced: document.querySelector('.check-model-replaced')?.textContent ?? '',
    rows: document.querySelector('#check-model-rows')?.value,
    recipe: document.querySelector('#check-model-recipe')?.value,
  }));

test('the extend form’s downloads survive a language switch, worded anew, nothing read or built again', async () => {
  const page = await openPage(browser.context, '#page=check-model&lang=en');
  // count the page's file reads from here on (a File's arrayBuffer, slice or stream)
  await page.evaluate(() => {
    window.fileReads = 0;
    for (const name of ['arrayBuffer', 'slice', 'stream', 'text']) {
      const own = Blob.prototype[name];
      Blob.prototype[name] = function (...args) {
        if (this instanceof File) window.fileReads++;
        return own.apply(this, args);
      };
    }
  });
  await page.waitForSelector('.check-model-drop');
  await page.setInputFiles('#check-model-input', files);
  await page.waitForSelector('#check-model-rows', { timeout: 30000 });
  await page.fill('#check-model-rows', '2048');
  await page.selectOption('#check-model-recipe', 'exact');
  await page.click('.check-model-build');
  await page.waitForSelector('a.check-model-download[data-kind="data"]', { timeout: 30000 });
  const en = await downloads(page);
  assert.deepEqual(en.links.map((l) => l.kind), ['model', 'data']);
  assert.match(en.links[0].text, /^Download model-2048\.onnx$/);
  const reads = await page.evaluate(() => window.fileReads);
  assert.ok(reads > 0, 'the page read the files it was given');

  await page.click('button[data-lang="zh"]');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN' && document.documentElement.dataset.ready === 'true');
  await settle(page);
  await page.waitForSelector('a.check-model-download', { timeout: 5000 });
  const zh = await downloads(page);
  assert.deepEqual(
    zh.links.map(({ kind, href, name }) => ({ kind, href, name })),
    en.links.map(({ kind, href, name }) => ({ kind, href, name })),
    'the same prepared files, at the same object URLs',
  );
  assert.match(zh.links[0].text, /^下载 model-2048\.onnx$/);
  assertLanguage(zh.links[1].text.replace(B.location, ''), 'zh', 'the external data link');
  assertLanguage(zh.replaced, 'zh', 'the rebuilt caches line');
  assert.deepEqual([zh.rows, zh.recipe], ['2048', 'exact'], 'the form as it was left');
  assert.equal(await page.evaluate(() => window.fileReads), reads, 'no file read again');

  // a new model given: the old downloads go
  await page.setInputFiles('#check-model-input', [files[0], files[1]]);
  await page.waitForFunction(() => !document.querySelector('a.check-model-download'), null, { timeout: 30000 });
  assert.deepEqual(page.problems, []);
  await page.close();
});
