// What the lessons teach, checked against the maths and the sources they
// quote: the pitfalls lesson states the tutorial notebook's bug the right way round;
// numbers are written by the page's one rule (a minus sign, grouping).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import en from '../../web/src/i18n/en.js';
import zh from '../../web/src/i18n/zh.js';
import { buggyTable } from '../../web/src/model/pitfalls.js';
import { formatInteger } from '../../web/src/lib/numbers.js';
import { wavelengthText } from '../../web/src/lessons/rope/format.js';

test('the pitfalls lesson: the notebook exponent is 2·(2i)/d where 2i/d is meant, and every text says so', () => {
  // the notebook's sin line: pos / 10000 ** (2 * torch.arange(0, d, 2) / d), arange(0, d, 2) = 2i
  const d = 16;
  const table = buggyTable(2, d);
  for (let i = 0; i < d / 2; i++) {
    const notebook = Math.sin(1 / 10000 ** ((2 * (2 * i)) / d));
    assert.ok(Math.abs(table[d + 2 * i] - notebook) < 1e-12, `pair ${i}: the lesson's buggy table follows the notebook line`);
  }
  // the summary names the written form first, the meant one second
  assert.match(en.summary.pitfalls[0], /2·\(2i\)\/d where 2i\/d is meant/);
  assert.doesNotMatch(en.summary.pitfalls[0], /2i\/d where 2·\(2i\)\/d is meant|or the reverse/);
  assert.match(zh.summary.pitfalls[0], /该写 2i\/d 时写成 2·\(2i\)\/d/);
  assert.doesNotMatch(zh.summary.pitfalls[0], /该写 2·\(2i\)\/d 时写成 2i\/d|或反过来/);
  // and the lesson's own bug text agrees: the exponent becomes 4i/d
  for (const table of [en, zh]) assert.match(table.lessons.pitfalls.bugText[0], /4i\/d/);
});

test('integers: a negative one has the minus sign, in both languages (the rope lesson rope delta −3)', () => {
  for (const lang of ['en', 'zh']) {
    assert.equal(formatInteger(-3, lang), '\u22123');
    assert.equal(formatInteger(-20473564, lang), '\u221220,473,564');
    assert.equal(formatInteger(3, lang), '3');
  }
});

test('the rope lesson: a long wavelength is grouped like every integer beside it (20,473,564 beside 500,000)', () => {
  assert.equal(wavelengthText(20473564.2), formatInteger(20473564));
  assert.equal(wavelengthText(20473564.2), '20,473,564');
  assert.equal(wavelengthText(6.2832), '6.3');
});
