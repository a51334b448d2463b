// The "Check a model" page as a teacher: each verdict and diagnosis links to
// the section of the RoPE lesson that teaches it. Models built here
// (tests/js/fixtures/make-genai-model.mjs, caches baked by the tests' own
// references) are given to the page; each link kind is clicked, and the
// lesson must open in the page's language with that section's heading in the
// window once the sections above it have drawn. Which section teaches what is
// written here from the lesson's text (float32 recipe → the precision
// pitfall, scaling → long contexts, layouts → half or interleaved, …), not
// read from the page's table. A section the lesson does not have, in a URL,
// is refused with a message and the lesson opens at its title.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIGS, OPTIONS, ROTARY_DIM, bake, makeGenaiModel } from '../js/fixtures/make-genai-model.mjs';
import { launch, openPage, settle } from './helpers.mjs';

const ROWS = 1024;
const o = OPTIONS.llama31.default;
const built = (how, dtype, extra = {}) => makeGenaiModel({ caches: { default: { ...bake(how, ROWS, ROTARY_DIM, o, dtype), rows: ROWS } }, dtype, ...extra });
const dir = mkdtempSync(join(tmpdir(), 'sinpe-check-model-links-'));
const file = (name, bytes) => {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
};
const config = file('config.json', JSON.stringify(CONFIGS.llama31));
const B = built('float32', 'float16', { external: true });

// each link kind: the files given, the language, which paragraph links (verdict or diagnosis) and the
// section it must open, with the section heading's words (as the lesson writes them, per language)
const KINDS = [
  { name: 'exact → half precision', files: [file('exact.onnx', built('exact', 'float32').model), config], lang: 'en', for: 'verdict', section: 'half', heading: /^Half precision: round once$/ },
  { name: 'float32 recipe → the precision pitfall', files: [file('model.onnx', B.model), file(B.location, B.data), config], lang: 'zh', for: 'verdict', section: 'precision', heading: /^精度陷阱$/ },
  { name: 'scaling ignored → long contexts', files: [file('plain.onnx', built('default-rope-type', 'float32').model), config], lang: 'en', for: 'mistake', section: 'scaling', heading: /^Longer contexts/ },
  { name: 'wrong factor → long contexts', files: [file('factor.onnx', built('wrong-factor', 'float32').model), config], lang: 'zh', for: 'mistake', section: 'scaling', heading: /[\u4e00-\u9fff]/ },
  { name: 'interleaved columns → layouts', files: [file('interleaved.onnx', built('layout-half-vs-interleaved', 'float32').model), config], lang: 'zh', for: 'mistake', section: 'layouts', heading: /[\u4e00-\u9fff]/ },
  { name: 'another base → the dials', files: [file('base.onnx', built('wrong-base', 'float32').model), config], lang: 'en', for: 'mistake', section: 'dials', heading: /^Each pair is a hand on a dial$/ },
  { name: 'no config → reading a config.json', files: [file('alone.onnx', built('exact', 'float32').model)], lang: 'en', for: 'verdict', section: 'config', heading: /config\.json/ },
];

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The lesson has opened and placed what it opened at (lib/position.js: html[data-placing] is gone). */
async function opened(page, lang) {
  await page.waitForSelector('article.lesson-rope');
  await page.waitForFunction((lang) => document.documentElement.lang === (lang === 'zh' ? 'zh-CN' : 'en') && document.documentElement.dataset.ready === 'true' && !document.documentElement.dataset.placing, lang, { timeout: 30000 });
}

/** The box of a section's heading against the window (below the sticky header). */
function headingInView(page, section) {
  return page.evaluate((section) => {
    const heading = document.querySelector(`article.lesson-rope > [data-section="${section}"] > h2`);
    const header = document.querySelector('.site-header').getBoundingClientRect().bottom;
    const r = heading.getBoundingClientRect();
    return { text: heading.textContent, top: r.top, bottom: r.bottom, header, height: innerHeight, scrollY };
  }, section);
}

for (const kind of KINDS) {
  test(`a checked model's link: ${kind.name} (${kind.lang})`, async () => {
    const page = await openPage(browser.context, `#page=check-model&lang=${kind.lang}`);
    await page.waitForSelector('.check-model-drop');
    await page.setInputFiles('#check-model-input', kind.files);
    await page.waitForSelector('.check-model-results[data-drawn]', { timeout: 30000 });
    const link = page.locator(`.check-model-learn[data-for="${kind.for}"] a.check-model-lesson-link`);
    assert.equal(await link.count(), 1, `one ${kind.for} link`);
    assert.equal(await link.getAttribute('data-section'), kind.section);
    await settle(page);
    await link.click();
    await opened(page, kind.lang);
    const hash = await page.evaluate(() => location.hash);
    assert.match(hash, /lesson=rope/);
    assert.match(hash, new RegExp(`lang=${kind.lang}`), 'the language is kept');
    const box = await headingInView(page, kind.section);
    assert.match(box.text, kind.heading, `the heading of ${kind.section}`);
    assert.ok(box.top >= box.header - 1 && box.bottom <= box.height, `${kind.section}'s heading in the window: ${JSON.stringify(box)}`);
    assert.ok(box.scrollY > 0 || kind.section === 'dials', 'the lesson was scrolled to it');
    assert.deepEqual(page.problems, []);
    await page.close();
  });
}

test('a URL opens the lesson at the multi-axis section (the M-RoPE diagnosis links here), in Chinese', async () => {
  const page = await openPage(browser.context, '#lesson=rope&section=multimodal&lang=zh');
  await opened(page, 'zh');
  const box = await headingInView(page, 'multimodal');
  assert.match(box.text, /文本加图像/);
  assert.ok(box.top >= box.header - 1 && box.bottom <= box.height, JSON.stringify(box));
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('a section the lesson does not have is refused with the page’s message, in each language; the lesson opens at its title', async () => {
  for (const [lang, says] of [['en', /names a section this lesson does not have/], ['zh', /网址指定的小节在本课中不存在/]]) {
    const page = await openPage(browser.context, `#lesson=rope&section=%3Cb%3Enowhere%3C%2Fb%3E&lang=${lang}`);
    await opened(page, lang);
    const text = await page.textContent('#messages .message');
    assert.match(text, says);
    assert.doesNotMatch(text, /nowhere|<b>/, 'the URL’s text is not shown');
    const title = await page.evaluate(() => document.querySelector('h1.lesson-title').getBoundingClientRect().top);
    assert.ok(title >= 0 && title < 400, `at the title (${title})`);
    assert.deepEqual(page.problems, []);
    await page.close();
  }
});
