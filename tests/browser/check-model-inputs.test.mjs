// The "Check a model" page's inputs and words, in English and Chinese: a
// missing external data file is named (the one the model asks for); a file
// beside the model that the model does not name (notes.txt) is never listed as
// its external data, and a .onnx that is no model by its first bytes is
// refused by name, the model in use kept; an unreadable config.json is
// reported once (not also as "no config.json given"); counts read as words
// (no "site(s)", no "cache(s)"), the group of a lone cache says what it is; the
// extend form proposes a longer cache (the config's max_position_embeddings
// when that is more than the cache holds, else it asks), says what it will do
// ("512 → 1024 rows") and refuses the rows the model already has.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIGS, OPTIONS, ROTARY_DIM, bake, makeGenaiModel } from '../js/fixtures/make-genai-model.mjs';
import { launch, openPage, settle } from './helpers.mjs';

const o = OPTIONS.llama31.default;
const config = CONFIGS.llama31; // max_position_embeddings 1024
const built = (rows, dtype, extra = {}) => makeGenaiModel({ caches: { default: { ...bake('exact', rows, ROTARY_DIM, o, dtype), rows } }, dtype, ...extra });
const full = built(1024, 'float32');
const short = built(512, 'float32');
const external = built(1024, 'float16', { external: true });

const dir = mkdtempSync(join(tmpdir(), 'sinpe-check-model-inputs-'));
const file = (name, bytes) => {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
};
const paths = {
  full: file('llama-1024.onnx', full.model),
  short: file('llama-512.onnx', short.model),
  external: file('model.onnx', external.model),
  data: file(external.location, external.data),
  notes: file('notes.txt', 'exported with torch 2.5, opset 17\n'),
  textModel: file('notes.onnx', 'this is not a model\n'),
  config: file('config.json', JSON.stringify(config)),
  badConfig: join(dir, 'bad', 'config.json'),
};

let browser;
before(async () => {
  mkdirSync(join(dir, 'bad'), { recursive: true });
  writeFileSync(paths.badConfig, '{ "rope_theta": 500000, ');
  browser = await launch();
});
after(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

const WORDS = {
  en: { fileData: /^External data: /, missing: /keeps tensors in the external data file/, notUsed: /not external data of/, noConfig: /No config\.json given/, unread: /could not be read/, one: /one place/, plural: /\(s\)/, group: /the one cache/, same: /already have 1024 rows/, ask: /already hold 1024 rows/ },
  zh: { fileData: /^外部数据：/, missing: /外部数据文件/, notUsed: /不是 .* 的外部数据/, noConfig: /没有提供 config\.json/, unread: /无法读取/, one: /1 处 RoPE/, plural: /\(s\)/, group: /唯一的缓存/, same: /已经是 1024 行/, ask: /已有 1024 行/ },
};

/** Gives the page files and waits until it is done with them (a report shown, or a message). */
async function give(page, files) {
  const before = Number((await page.getAttribute('.check-model-results', 'data-drawn')) ?? 0);
  await page.setInputFiles('#check-model-input', files);
  await page.waitForFunction(
    (n) => Number(document.querySelector('.check-model-results')?.dataset.drawn ?? 0) > n || (document.querySelector('.check-model-error') && !/…$/.test(document.querySelector('.check-model-status')?.textContent ?? '')),
    before,
    { timeout: 30000 },
  );
  await settle(page);
}

const seen = (page) =>
  page.evaluate(() => ({
    files: [...document.querySelectorAll('.check-model-files li')].map((li) => li.textContent),
    errors: [...document.querySelectorAll('.check-model-error')].map((p) => p.textContent),
    status: document.querySelector('.check-model-status')?.textContent ?? '',
    noConfig: document.querySelector('.check-model-noconfig')?.textContent ?? null,
    table: Object.fromEntries([...document.querySelectorAll('.check-model-site tr')].map((tr) => [tr.querySelector('th').textContent, tr.querySelector('td').textContent])),
    sites: document.querySelectorAll('.check-model-site').length,
  }));

for (const lang of ['en', 'zh']) {
  const W = WORDS[lang];

  test(`${lang}: a missing external data file is named; a file the model does not name is not its external data; a .onnx that is no model is refused`, async () => {
    const page = await openPage(browser.context, `#page=check-model&lang=${lang}`);
    await page.waitForSelector('.check-model-drop');
    // the model without its data file: the message names the file it asks for
    await give(page, [paths.external, paths.config]);
    let s = await seen(page);
    assert.equal(s.sites, 0);
    const missing = s.errors.find((e) => W.missing.test(e));
    assert.ok(missing, `a message on the missing data file: ${s.errors}`);
    assert.ok(missing.includes(`“${external.location}”`), `it names ${external.location}: ${missing}`);
    // the data file and a notes.txt: the data is used, notes.txt is not listed as external data, and is said not used
    await give(page, [paths.data, paths.notes]);
    s = await seen(page);
    assert.equal(s.sites, 1, `the report is shown: ${s.errors}`);
    const data = s.files.filter((f) => W.fileData.test(f));
    assert.deepEqual(data.map((f) => f.replace(W.fileData, '')), [external.location], `files listed: ${s.files}`);
    assert.ok(!s.files.some((f) => f.includes('notes.txt')), `notes.txt is not listed: ${s.files}`);
    assert.ok(s.errors.some((e) => W.notUsed.test(e) && e.includes('notes.txt')), `notes.txt is said not used: ${s.errors}`);
    // a text file named .onnx: refused by name, the model in use stays
    await page.setInputFiles('#check-model-input', [paths.textModel]);
    await page.waitForFunction(() => /notes\.onnx/.test(document.querySelector('.check-model-errors')?.textContent ?? ''));
    await settle(page);
    s = await seen(page);
    assert.ok(s.files.some((f) => f.includes('model.onnx') && !f.includes('notes.onnx')), `the model in use is kept: ${s.files}`);
    assert.ok(!s.files.some((f) => f.includes('notes.onnx')), `notes.onnx is not taken as the model: ${s.files}`);
    assert.equal(s.sites, 1);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test(`${lang}: an unreadable config.json is reported once; counts and the group read as words`, async () => {
    const page = await openPage(browser.context, `#page=check-model&lang=${lang}`);
    await page.waitForSelector('.check-model-drop');
    await give(page, [paths.full, paths.badConfig]);
    let s = await seen(page);
    assert.ok(s.errors.some((e) => e.includes('config.json')), `the bad config is named: ${s.errors}`);
    assert.doesNotMatch(s.noConfig ?? '', W.noConfig, 'not also "no config.json given"');
    assert.match(s.noConfig ?? '', W.unread);
    assert.match(s.status, W.one);
    assert.doesNotMatch(s.status, W.plural);
    for (const value of Object.values(s.table)) assert.doesNotMatch(value, W.group);
    // with a good config: no note at all
    await give(page, [paths.config]);
    s = await seen(page);
    assert.equal(s.noConfig, null);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test(`${lang}: the extend form proposes a longer cache, says what it will do, refuses the rows the model has`, async () => {
    const page = await openPage(browser.context, `#page=check-model&lang=${lang}`);
    await page.waitForSelector('.check-model-drop');
    // 512 rows, the config allows 1024: proposed, and said
    await give(page, [paths.short, paths.config]);
    assert.equal(await page.inputValue('#check-model-rows'), '1024');
    assert.match(await page.textContent('.check-model-plan'), /^512 → 1024\b/);
    assert.equal(await page.isDisabled('.check-model-build'), false);
    // 1024 rows, as many as the config allows: the form asks, and 1024 is no change
    await give(page, [paths.full]);
    assert.equal(await page.inputValue('#check-model-rows'), '');
    assert.match(await page.textContent('.check-model-ask'), W.ask);
    await page.fill('#check-model-rows', '1024');
    assert.match(await page.textContent('.check-model-plan'), W.same);
    assert.equal(await page.isDisabled('.check-model-build'), true, 'no build of the same rows');
    await page.fill('#check-model-rows', '2048');
    assert.match(await page.textContent('.check-model-plan'), /^1024 → 2048\b/);
    await page.click('.check-model-build');
    await page.waitForSelector('.check-model-replaced');
    assert.doesNotMatch(await page.textContent('.check-model-replaced'), W.plural);
    assert.deepEqual(page.problems, []);
    await page.close();
  });
}
