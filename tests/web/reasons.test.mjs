// The package's reasons on 简体中文 pages: the site words each reason the
// package can give by its name (error.status, from the vocabulary's statuses;
// error.code, from ropeOptionsFromConfig's checks) with exactly the
// placeholders the package fills (error.values). The statuses come from the
// vocabulary and the config checks from one bad config each, so a new status
// or check without a Chinese string fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import sinpe, { vocabulary, ropeOptionsFromConfig } from 'sinpe.wasm';
import zh from '../../web/src/i18n/reasons.zh.js';
import { reasonOf, reasonText } from '../../web/src/lib/reasons.js';
import { CASES } from '../js/config-cases.mjs';

const placeholders = (s) => [...new Set(s.match(/\{\w+\}/g) ?? [])].map((p) => p.slice(1, -1)).sort();
const CJK = /[\u4e00-\u9fff]/;

test('every status of the vocabulary has a 简体中文 string with the placeholders of its message', () => {
  const statuses = vocabulary.statuses.filter((s) => s.error !== 'none');
  assert.ok(statuses.length > 90, `${statuses.length} statuses`);
  for (const status of statuses) {
    const text = zh.statuses[status.name];
    assert.equal(typeof text, 'string', `no 简体中文 string for status ${status.name}`);
    assert.match(text, CJK, `${status.name}: not Chinese`);
    assert.deepEqual(placeholders(text), placeholders(status.message), `${status.name}: placeholders differ`);
  }
  const names = new Set(statuses.map((s) => s.name));
  assert.deepEqual(Object.keys(zh.statuses).filter((n) => !names.has(n)), [], 'strings for statuses the vocabulary does not have');
});

test('every check of ropeOptionsFromConfig has a 简体中文 string with the placeholders of its values', async () => {
  await sinpe(); // the rules relating the options are checked by the module
  const codes = new Set();
  for (const [code, config] of CASES) {
    let error;
    try {
      ropeOptionsFromConfig(config);
    } catch (e) {
      error = e;
    }
    assert.equal(error?.code, code, `config for ${code}`);
    codes.add(code);
    const text = zh.config[code];
    assert.equal(typeof text, 'string', `no 简体中文 string for config check ${code}`);
    assert.match(text, CJK, `${code}: not Chinese`);
    assert.deepEqual(placeholders(text).filter((p) => !(p in error.values)), [], `${code}: placeholders the package does not fill`);
    // every value the English message shows is in the Chinese one too
    const shown = reasonText(error, 'zh');
    for (const [key, value] of Object.entries(error.values)) assert.ok(shown.includes(value), `${code}: ${key} = ${value} missing from "${shown}"`);
    assert.doesNotMatch(shown, /\{\w+\}/, `${code}: a placeholder left`);
    assert.equal(reasonText(error, 'en'), error.message.replace(/^sinpe: /, ''));
  }
  const rules = new Set(vocabulary.rules.map((r) => r.status));
  // A config value against its option's rule is the option's bad-value status
  // (the one whose argument names it): worded for every option, as the status is.
  const valueStatuses = new Map(vocabulary.options.map((o) => [vocabulary.statuses.find((st) => st.name.startsWith('bad_') && st.argument === `options.${o.name}`), o.name]));
  assert.equal(valueStatuses.size, vocabulary.options.length);
  for (const [status, name] of valueStatuses) {
    const text = zh.config[status.name];
    assert.equal(typeof text, 'string', `no 简体中文 config string for ${status.name}`);
    assert.deepEqual(placeholders(text), placeholders(status.message.replaceAll(`options.${name}`, '{configKey}')), `${status.name}: placeholders differ`);
  }
  const values = new Set([...valueStatuses.keys()].map((st) => st.name));
  assert.deepEqual(Object.keys(zh.config).filter((c) => !codes.has(c) && !rules.has(c) && !values.has(c)), [], 'strings for checks the package does not have');
});

test('every rule of the vocabulary has one 简体中文 reason, worded for options and for config keys alike', () => {
  assert.ok(vocabulary.rules.length >= 5, `${vocabulary.rules.length} rules`);
  const english = new Map(vocabulary.statuses.map((s) => [s.name, s.message]));
  for (const rule of vocabulary.rules) {
    const text = zh.statuses[rule.status];
    assert.equal(typeof text, 'string', `no 简体中文 string for rule ${rule.name} (status ${rule.status})`);
    // ropeOptionsFromConfig words a broken rule as the status's message with
    // each bound option replaced by its config key: the Chinese the same way.
    const keyed = (s) => rule.options.reduce((t, name) => t.replaceAll(`options.${name}`, `{${name}Key}`), s);
    for (const name of rule.options) assert.ok(text.includes(`options.${name}`), `${rule.name}: the Chinese names options.${name}`);
    assert.equal(zh.config[rule.status], keyed(text), `${rule.name}: the config wording is the status's`);
    assert.deepEqual(placeholders(zh.config[rule.status]), placeholders(keyed(english.get(rule.status))), `${rule.name}: placeholders differ`);
  }
});

test('a refusal the site meets reads in Chinese with the package’s values, and in English as the package says it', async () => {
  const pe = await sinpe();
  const refusals = [
    () => pe.table(1, 13), // vaswani's odd d_model
    () => pe.table(1, 70000), // beyond the largest d_model
    () => pe.ropeFrequencies(8, { ropeType: 'llama3', factor: 8, lowFreqFactor: 4, highFreqFactor: 1, originalMaxPositions: 8192 }),
    () => pe.ropeFrequencies(8, { base: 0.5 }),
  ];
  let met = 0;
  for (const call of refusals) {
    let error;
    try {
      call();
    } catch (e) {
      error = e;
    }
    if (!error) continue;
    met++;
    assert.equal(typeof error.status, 'string', error.message);
    const record = reasonOf(error);
    const text = reasonText(record, 'zh');
    assert.match(text, CJK, `${error.status}: "${text}"`);
    assert.doesNotMatch(text, /\{\w+\}/);
    for (const value of Object.values(error.values)) assert.ok(text.includes(value), `${error.status}: ${value} missing from "${text}"`);
    assert.equal(reasonText(record, 'en'), error.message.replace(/^sinpe: /, ''));
  }
  assert.equal(met, refusals.length, `only ${met} of the calls were refused`);
});
