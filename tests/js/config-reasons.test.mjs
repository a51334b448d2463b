// ropeOptionsFromConfig's errors carry their reason in machine-readable form:
// `code` (which check), `configKey` (the key at fault, as the message names
// it) and `values` (what the message shows), so the lesson site can word the
// reason in 简体中文. One bad config per check; every throw in js/rope-config*.js
// has a code, every code is raised here and listed in sinpe.d.ts.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import sinpe, { ropeOptionsFromConfig, vocabulary } from 'sinpe.wasm';
import { CASES } from './config-cases.mjs';

const dir = dirname(createRequire(import.meta.url).resolve('sinpe.wasm/package.json'));
// ropeOptionsFromConfig's files: js/rope-config.js (the reader) and every
// ./rope-config-*.js it imports, directly or not (key locations, value
// checks, errors).
const sourceFiles = ['rope-config.js'];
for (const f of sourceFiles) {
  for (const m of readFileSync(join(dir, 'js', f), 'utf8').matchAll(/from '\.\/(rope-config-[a-z]+\.js)'/g)) {
    if (!sourceFiles.includes(m[1])) sourceFiles.push(m[1]);
  }
}
const source = sourceFiles.map((f) => readFileSync(join(dir, 'js', f), 'utf8')).join('\n');
const dts = readFileSync(join(dir, 'js/sinpe.d.ts'), 'utf8');

// The codes written at the throws of js/rope-config*.js (each follows the message, before the key).
const thrown = [...source.matchAll(/[`')],\s*'([a-z]+(?:_[a-z]+)*)',\s*(?:[A-Za-z_][\w.]*|'config(?:\.\w+)*'|`\$\{)/g)].map((m) => m[1]);

// The rules relating RoPE options are the core's (vocabulary.rules); the
// standalone export checks them with the module loaded last.
before(async () => {
  await sinpe();
});

// A broken rule's code is its status. Rules no config.json can break: pixtral's
// (ropeOptionsFromConfig never sets ropeAxes 'pixtral').
const NOT_FROM_CONFIG = new Set(['rotary_dim_not_multiple_of_4']);
const ruleCodes = vocabulary.rules.map((r) => r.status);
// Each option's bad-value status (the one whose argument names it) and its rule ('[]' for an array's entries).
const RULE_OF_OPTION_STATUS = new Map(
  vocabulary.options.map((o) => [vocabulary.statuses.find((s) => s.name.startsWith('bad_') && s.argument === `options.${o.name}`).name, o.rule + (o.type === 'numberArray' ? '[]' : '')]),
);
const OPTION_STATUSES = new Set(RULE_OF_OPTION_STATUS.keys());

// Under StrykerJS (scripts/mutation-tests.sh) the sources are instrumented:
// their text is no longer what this test reads; the cases below still run.
const instrumented = source.includes('stryMutAct_');

test('every throw of ropeOptionsFromConfig has a code, and every code is raised below and listed in sinpe.d.ts', { skip: instrumented && 'js/ is instrumented by StrykerJS' }, () => {
  assert.equal(thrown.length, (source.match(/throw fail\(/g) ?? []).length, 'a throw in js/rope-config*.js without a code');
  assert.ok(ruleCodes.length >= 5, `${ruleCodes.length} rules`);
  const codes = new Set([...thrown, ...ruleCodes.filter((c) => !NOT_FROM_CONFIG.has(c))]);
  // A value against its option's rule is the option's bad_<option> status (the
  // core's): one case per kind of rule a config value can break.
  const raised = new Set(CASES.map(([code]) => code));
  const valueCodes = [...raised].filter((c) => OPTION_STATUSES.has(c));
  assert.deepEqual(new Set(valueCodes.map((c) => RULE_OF_OPTION_STATUS.get(c))), new Set(['positive', 'count', 'fraction', 'count[]', 'positive[]']), 'value rules raised');
  assert.deepEqual(new Set([...raised].filter((c) => !OPTION_STATUSES.has(c))), codes, 'codes raised here vs codes in js/rope-config*.js and the rules');
  const listed = dts.match(/interface ConfigError[\s\S]*?readonly code: string;/);
  assert.ok(listed, 'sinpe.d.ts declares ConfigError.code');
  assert.deepEqual(new Set([...listed[0].matchAll(/`'(\w+)'`/g)].map((m) => m[1])), new Set([...thrown, ...ruleCodes]), 'codes listed in sinpe.d.ts');
});

for (const [code, config, configKey, shows] of CASES) {
  test(`${code}: ${configKey}`, () => {
    let error;
    try {
      ropeOptionsFromConfig(config);
    } catch (e) {
      error = e;
    }
    assert.ok(error, `the config for ${code} was accepted`);
    assert.equal(error.code, code, error.message);
    assert.equal(error.configKey, configKey, error.message);
    assert.ok(error.message.startsWith('sinpe: ') && error.message.includes(configKey), error.message);
    assert.equal(error.values.configKey, configKey);
    for (const [key, value] of Object.entries(shows)) assert.equal(error.values[key], value, `${code}: values.${key}`);
    // every value given is what the message shows
    for (const [key, value] of Object.entries(error.values)) {
      assert.equal(typeof value, 'string', `${code}: values.${key} is text`);
      assert.ok(error.message.includes(value), `${code}: values.${key} = ${value} is not in "${error.message}"`);
    }
  });
}

// The message shows a wrong value by its kind: a string quoted, an array by its
// length, an object as "an object", anything else as String() writes it.
test('a value of the wrong type is shown by its kind', () => {
  const shown = [
    [[1, 2], 'an array of 2'],
    [{ a: 1 }, 'an object'],
    ['x', "'x'"],
    [true, 'true'],
  ];
  for (const [value, text] of shown) {
    assert.throws(
      () => ropeOptionsFromConfig({ head_dim: value }),
      (e) => e instanceof TypeError && e.code === 'not_number' && e.values.value === text && e.message === `sinpe: config.head_dim must be a number, got ${text}`,
      `head_dim ${JSON.stringify(value)}`,
    );
  }
});

// An mrope_section longer than the core's limit of position axes is refused by
// its length before its elements are read: the core's mrope_section_sum status,
// worded here with every placeholder filled (the rotary dimension from the
// config: hidden_size 64 / 4 heads = 16; the limit from the vocabulary).
test('an mrope_section longer than maxRopeAxes: the rule’s message, every placeholder filled; a long one shown by its first 8 entries', () => {
  const most = vocabulary.limits.maxRopeAxes;
  const short = Array.from({ length: most + 2 }, (_, i) => i + 1);
  assert.throws(
    () => ropeOptionsFromConfig({ hidden_size: 64, num_attention_heads: 4, rope_scaling: { rope_type: 'default', mrope_section: short } }),
    (e) => e.code === 'mrope_section_sum' && e.values.value === `[${short.join(', ')}]` && !/[{}]/.test(e.message),
  );
  // one longer than any plan reads (the core's widest head): refused by its length, its entries never sent
  const section = Array.from({ length: vocabulary.limits.maxDModel + 1 }, (_, i) => i + 1);
  const config = { hidden_size: 64, num_attention_heads: 4, rope_scaling: { rope_type: 'default', mrope_section: section } };
  const shown = `${section.slice(0, 8).join(', ')}, … (${section.length} entries)`;
  assert.throws(
    () => ropeOptionsFromConfig(config),
    (e) =>
      e instanceof RangeError &&
      e.code === 'mrope_section_sum' &&
      e.configKey === 'config.rope_scaling.mrope_section' &&
      e.values.rotaryDim === '16' &&
      e.values.maxRopeAxes === String(most) &&
      e.values.value === `[${shown}]` &&
      !/[{}]/.test(e.message) &&
      e.message.includes('(rotaryDim 16)'),
  );
});
