// The "Check a model" page (#page=check-model): small ONNX models built here
// by tests/js/fixtures/make-genai-model.mjs (onnxruntime-genai's Llama 3.1
// layout, caches baked by the tests' own float64 reference or by torch's
// float32 steps with Math.fround — never by sinpe) are given to the page
// through its file input and through a real drop (a DataTransfer dispatched
// on the drop zone). The verdict each cache gets on the page must be the one
// it was built for, worded in the page's language (patterns written here,
// not read from the site's strings); the extended model downloaded from the
// page is decoded with onnx-proto (not the package's onnx-buf) and its caches
// compared with the reference at the requested rows, every other tensor
// unchanged; a damaged file is named in a message and the page stays usable.
// npm test: quick form
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import onnxProto from 'onnx-proto';
import { CONFIGS, OPTIONS, ROTARY_DIM, bake, makeGenaiModel, exactCache } from '../js/fixtures/make-genai-model.mjs';
import { launch, openPage, assertLanguage, settle } from './helpers.mjs';

const { onnx } = onnxProto;
const r = ROTARY_DIM;
const ROWS = 1024; // the Llama 3.1 config's max_position_embeddings
const o = OPTIONS.llama31.default;
const config = CONFIGS.llama31;

// What the page must say for each verdict and for the "scaling ignored" diagnosis, per language.
const SAYS = {
  en: { exact: /^Exact\b/, float32: /^The float32 recipe\b/, mismatch: /^Mismatch\b/, 'default-rope-type': /ignores the config’s RoPE scaling/ },
  zh: { exact: /^精确/, float32: /^float32 算法/, mismatch: /^不符/, 'default-rope-type': /忽略了配置中的 RoPE 缩放/ },
};
// the inspector's codes, which must never be shown as they are
const CODES = ['exact', 'float32', 'mismatch', 'unchecked', 'default-rope-type', 'wrong-base', 'bad_protobuf', 'missing_external'];

const dir = mkdtempSync(join(tmpdir(), 'sinpe-check-model-'));
const file = (name, bytes) => {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
};
const built = (how, dtype, extra = {}) => makeGenaiModel({ caches: { default: { ...bake(how, ROWS, r, o, dtype), rows: ROWS } }, dtype, ...extra });

// A: float32, exact. B: float16, the float32 recipe, tensors in model.onnx.data. C: float32, llama3 scaling ignored.
const A = built('exact', 'float32');
const B = built('float32', 'float16', { external: true });
const C = built('default-rope-type', 'float32');
const paths = {
  a: file('llama-exact.onnx', A.model),
  c: file('llama-scaling-ignored.onnx', C.model),
  config: file('config.json', JSON.stringify(config)),
  broken: file('broken.onnx', Uint8Array.from({ length: 300 }, (_, i) => (i * 97 + 13) & 0xff)),
};

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The sites the page shows: { cos, verdict text, diagnosis text, table { header → value } }. */
function shown(page) {
  return page.$$eval('.check-model-site', (cards) =>
    cards.map((c) => ({
      cos: c.dataset.cos,
      verdict: c.querySelector('.check-model-verdict')?.textContent ?? '',
      diagnosis: c.querySelector('.check-model-diagnosis')?.textContent ?? null,
      deviation: c.querySelector('.check-model-deviation')?.textContent ?? '',
      caption: c.querySelector('.check-model-caption')?.textContent ?? '',
      lines: c.querySelectorAll('path.chart-line').length,
      table: Object.fromEntries([...c.querySelectorAll('tr')].map((tr) => [tr.querySelector('th').textContent, tr.querySelector('td').textContent])),
    })),
  );
}

/**
 * Runs `action` (which gives the page a model or rebuilds it) and waits until
 * the page has shown a new report (its results' data-drawn count grew); returns the sites shown.
 */
async function report(page, action) {
  const before = Number((await page.getAttribute('.check-model-results', 'data-drawn')) ?? 0);
  await action();
  await page.waitForFunction((n) => Number(document.querySelector('.check-model-results')?.dataset.drawn ?? 0) > n, before, { timeout: 30000 });
  return shown(page);
}

function checkSite(site, lang, verdict, { rows = ROWS, dtype, mistake = null }) {
  assert.match(site.verdict, SAYS[lang][verdict], `${lang}: verdict of ${site.cos}`);
  for (const [other, re] of Object.entries(SAYS[lang])) if (other !== verdict && other !== mistake) assert.doesNotMatch(site.verdict, re, `${lang}: ${site.cos} is not ${other}`);
  if (mistake) assert.match(site.diagnosis ?? '', SAYS[lang][mistake], `${lang}: diagnosis of ${site.cos}`);
  else assert.equal(site.diagnosis, null, `${lang}: ${site.cos} has no diagnosis`);
  const values = Object.values(site.table);
  assert.ok(values.includes(String(rows)) || values.includes(rows.toLocaleString('en')), `${lang}: rows ${rows} shown: ${values}`);
  assert.ok(values.includes(dtype), `${lang}: dtype ${dtype} shown`);
  assert.ok(values.includes(String(r)), `${lang}: rotary dim ${r} shown`);
  assert.ok(values.includes(`[${rows} × ${r / 2}]`), `${lang}: shape shown`);
  assert.ok(values.includes('cos_cache / sin_cache'), `${lang}: tensor names shown`);
  // the chart: two lines, a caption naming the cache and its rows
  assert.equal(site.lines, 2, `${lang}: the chart draws |cache − exact| and |float32 − exact|`);
  assert.match(site.caption, /cos_cache/);
  assert.match(site.caption, new RegExp(String(rows)));
  for (const text of [site.verdict, site.diagnosis ?? site.verdict, site.deviation]) {
    assertLanguage(text, lang, site.cos);
    for (const code of CODES) assert.ok(lang === 'en' || !new RegExp(`(^|[^-\\w])${code}([^-\\w]|$)`).test(text.replace(/float32/g, '')), `zh text shows the code ${code}: ${text}`);
  }
}

test('verdicts of an exact, a float32-recipe and a scaling-ignored model, in English and Chinese; a real drop; a damaged file', async () => {
  const page = await openPage(browser.context, '#page=check-model&lang=en');
  await page.waitForSelector('.check-model-drop');
  assert.match(await page.textContent('h1.lesson-title'), /Check a model/);

  // A through the file input, with its config
  let sites = await report(page, () => page.setInputFiles('#check-model-input', [paths.a, paths.config]));
  assert.equal(sites.length, 1);
  checkSite(sites[0], 'en', 'exact', { dtype: 'float32' });

  // the same page in Chinese: the same finding, in Chinese
  sites = await report(page, () => page.click('button[data-lang="zh"]'));
  checkSite(sites[0], 'zh', 'exact', { dtype: 'float32' });

  // B by a real drop: model.onnx, model.onnx.data and config.json in one DataTransfer
  const dataTransfer = await page.evaluateHandle(
    (files) => {
      const dt = new DataTransfer();
      for (const [name, bytes] of files) dt.items.add(new File([Uint8Array.from(bytes)], name));
      return dt;
    },
    [
      ['model.onnx', [...B.model]],
      [B.location, [...B.data]],
      ['config.json', [...new TextEncoder().encode(JSON.stringify(config))]],
    ],
  );
  sites = await report(page, () => page.dispatchEvent('.check-model-drop', 'drop', { dataTransfer }));
  checkSite(sites[0], 'zh', 'float32', { dtype: 'float16' });
  sites = await report(page, () => page.click('button[data-lang="en"]'));
  checkSite(sites[0], 'en', 'float32', { dtype: 'float16' });

  // C: scaling ignored (the config given before is kept)
  sites = await report(page, () => page.setInputFiles('#check-model-input', [paths.c]));
  checkSite(sites[0], 'en', 'mismatch', { dtype: 'float32', mistake: 'default-rope-type' });
  sites = await report(page, () => page.click('button[data-lang="zh"]'));
  checkSite(sites[0], 'zh', 'mismatch', { dtype: 'float32', mistake: 'default-rope-type' });

  // a damaged file: a message beside the drop zone naming it, in the page's language; the page stays usable
  await page.setInputFiles('#check-model-input', [paths.broken]);
  await page.waitForSelector('.check-model-error');
  const zhError = await page.textContent('.check-model-error');
  assert.match(zhError, /broken\.onnx/);
  assertLanguage(zhError.replace(/broken\.onnx/g, ''), 'zh', 'error');
  await page.click('button[data-lang="en"]');
  // the page is rebuilt in English before the file is given (given earlier, it can reach the page being replaced)
  await page.waitForFunction(() => document.documentElement.lang === 'en' && document.documentElement.dataset.ready === 'true');
  await settle(page);
  await page.setInputFiles('#check-model-input', [paths.broken]);
  await page.waitForFunction(() => /cannot be read/.test(document.querySelector('.check-model-error')?.textContent ?? ''));
  assert.match(await page.textContent('.check-model-error'), /broken\.onnx/);
  sites = await report(page, () => page.setInputFiles('#check-model-input', [paths.a]));
  checkSite(sites[0], 'en', 'exact', { dtype: 'float32' });
  assert.equal(await page.$$eval('.check-model-error', (e) => e.length), 0, 'the message goes once a good model is given');
  assert.deepEqual(page.problems, []);
  await page.close();
});

/** The float16 bits of a tensor decoded with onnx-proto (raw_data inline). */
const halves = (t) => new Uint16Array(t.rawData.buffer.slice(t.rawData.byteOffset, t.rawData.byteOffset + t.rawData.byteLength));

test('extend a float16 model with external data to 2048 exact rows: download, decode, compare with the reference', async () => {
  const page = await openPage(browser.context, '#page=check-model&lang=en');
  await page.waitForSelector('.check-model-drop');
  const modelPath = join(dir, 'model.onnx');
  writeFileSync(modelPath, B.model);
  const dataPath = file(B.location, B.data);
  const sites = await report(page, () => page.setInputFiles('#check-model-input', [modelPath, dataPath, paths.config]));
  assert.match(sites[0].verdict, SAYS.en.float32);
  // the cache already holds max_position_embeddings rows: the form asks for a number instead of proposing that one
  assert.equal(await page.inputValue('#check-model-rows'), '', 'no rows proposed when the cache is as long as the config allows');
  const rows = 2048;
  await page.fill('#check-model-rows', String(rows));
  await page.selectOption('#check-model-recipe', 'exact');
  await page.click('.check-model-build');
  await page.waitForSelector('a.check-model-download[data-kind="model"]');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('a.check-model-download[data-kind="model"]')]);
  const saved = join(dir, 'extended.onnx');
  await download.saveAs(saved);
  const [dataDownload] = await Promise.all([page.waitForEvent('download'), page.click('a.check-model-download[data-kind="data"]')]);
  assert.equal(dataDownload.suggestedFilename(), B.location);
  const savedData = join(dir, 'extended.data');
  await dataDownload.saveAs(savedData);
  assert.deepEqual(new Uint8Array(readFileSync(savedData)), B.data, 'the external data is offered unchanged');

  const before = onnx.ModelProto.decode(B.model);
  const after = onnx.ModelProto.decode(readFileSync(saved));
  const byName = (m) => new Map(m.graph.initializer.map((t) => [t.name, t]));
  const [b, a] = [byName(before), byName(after)];
  assert.deepEqual([...a.keys()].sort(), [...b.keys()].sort(), 'the same initializers');
  const want = exactCache(rows, r, o, 'float16');
  for (const which of ['cos', 'sin']) {
    const t = a.get(`${which}_cache`);
    assert.deepEqual(t.dims.map(Number), [rows, r / 2], `${which}_cache has ${rows} rows`);
    assert.equal(t.externalData.length, 0, `${which}_cache is inline`);
    const bits = halves(t);
    assert.equal(bits.length, rows * (r / 2));
    let differ = 0;
    for (let i = 0; i < bits.length; i++) if (bits[i] !== want[which][i]) differ++;
    assert.equal(differ, 0, `${which}_cache: ${differ} values differ from the exact reference rounded once to float16`);
  }
  // every other initializer as it was (here 'scale', in the external data file)
  for (const [name, t] of b) {
    if (/_cache$/.test(name)) continue;
    assert.deepEqual(onnx.TensorProto.toObject(a.get(name)), onnx.TensorProto.toObject(t), `${name} unchanged`);
  }
  assert.deepEqual(after.graph.node.map((n) => n.opType), before.graph.node.map((n) => n.opType), 'the same nodes');
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('the page is in the menu and linked from the RoPE lesson; the menu leads back to a lesson', async () => {
  const page = await openPage(browser.context, '#lesson=rope&lang=zh');
  // the link ends the lesson: scrolling to it shows sections that were out of view, which then lay out and draw
  // and move it (a click that scrolls and presses at once can press where the link was: CI, loaded). Scroll to
  // it, let those sections settle, then click it where it rests, as a reader would.
  const link = page.locator('.check-model-link a[data-page="check-model"]');
  await settle(page);
  await link.scrollIntoViewIfNeeded();
  await settle(page);
  await link.click();
  await page.waitForSelector('.check-model-drop');
  assert.match(await page.evaluate(() => location.hash), /page=check-model/);
  assertLanguage(await page.textContent('h1.lesson-title'), 'zh', 'title');
  assert.equal(await page.getAttribute('#lesson-nav a[data-page="check-model"]', 'aria-current'), 'page');
  await page.click('#lesson-nav a[data-lesson="formula"]');
  await page.waitForSelector('article.lesson-formula');
  assert.match(await page.evaluate(() => location.hash), /lesson=formula/);
  await page.click('#lesson-nav a[data-page="check-model"]');
  await page.waitForSelector('.check-model-drop');
  await page.goBack();
  await page.waitForSelector('article.lesson-formula');
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('a language switch shows the same verdict and the same messages in the new language (the files are not asked for again)', async () => {
  const page = await openPage(browser.context, '#page=check-model&lang=en');
  await page.waitForSelector('.check-model-drop');
  const messages = () => page.$$eval('.check-model-error', (ps) => ps.map((p) => ({ code: p.dataset.code, text: p.textContent })));
  const notes = file('notes.txt', new TextEncoder().encode('exported with torch 2.5\n'));
  // C (scaling ignored) with its config and a file the model does not name: a verdict, a diagnosis and a message
  let sites = await report(page, () => page.setInputFiles('#check-model-input', [paths.c, paths.config, notes]));
  checkSite(sites[0], 'en', 'mismatch', { dtype: 'float32', mistake: 'default-rope-type' });
  let said = await messages();
  assert.deepEqual(said.map((m) => m.code), ['not_named']);
  assert.match(said[0].text, /notes\.txt.*not used: llama-scaling-ignored\.onnx keeps all its tensors inside itself/);
  sites = await report(page, () => page.click('button[data-lang="zh"]'));
  checkSite(sites[0], 'zh', 'mismatch', { dtype: 'float32', mistake: 'default-rope-type' });
  said = await messages();
  assert.deepEqual(said.map((m) => m.code), ['not_named'], 'the message is still shown after the switch');
  assert.match(said[0].text, /notes\.txt.*不使用：llama-scaling-ignored\.onnx 的张量都存放在模型文件内部/);

  // B without its external data: the message naming the missing file, in each language
  const bPath = file('model.onnx', B.model);
  await page.setInputFiles('#check-model-input', [bPath]);
  await page.waitForSelector('.check-model-error[data-code="missing_data"]');
  assert.match((await messages())[0].text, new RegExp(`model\\.onnx 的部分张量存放在外部数据文件 “${B.location.replace(/\./g, '\\.')}” 中`));
  await page.click('button[data-lang="en"]');
  await page.waitForFunction(() => document.documentElement.lang === 'en' && document.documentElement.dataset.ready === 'true');
  await page.waitForSelector('.check-model-error[data-code="missing_data"]');
  said = await messages();
  assert.equal(said.length, 1, 'one message, not one per page built');
  assert.match(said[0].text, new RegExp(`model\\.onnx keeps tensors in the external data file “${B.location.replace(/\./g, '\\.')}”, which was not given`));

  // a damaged file: its message in English, then in Chinese after the switch
  await page.setInputFiles('#check-model-input', [paths.broken]);
  await page.waitForFunction(() => /cannot be read/.test(document.querySelector('.check-model-error')?.textContent ?? ''));
  await page.click('button[data-lang="zh"]');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN' && document.documentElement.dataset.ready === 'true');
  await page.waitForSelector('.check-model-error[data-code="bad_protobuf"]');
  // the model given before (B, still without its data) is read again beside it: its message too, once
  said = await messages();
  assert.deepEqual(said.map((m) => m.code).sort(), ['bad_protobuf', 'missing_data']);
  assert.match(said.find((m) => m.code === 'bad_protobuf').text, /broken\.onnx.*无法作为 ONNX 模型读取此文件/);
  assert.deepEqual(page.problems, []);
  await page.close();
});
