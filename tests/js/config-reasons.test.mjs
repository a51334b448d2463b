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

test('every throw of ropeOptionsFromConfig has a code, and every code is raised below and listed in sinpe.d.ts', () => {
  assert.equal(thrown.length, (source.match(/throw fail\(/g) ?? []).length, 'a throw in js/rope-config*.js without a code');
  assert.ok(ruleCodes.length >= 5, `${ruleCodes.length} rules`);
  const codes = new Set([...thrown, ...ruleCodes.filter((c) => !NOT_FROM_CONFIG.has(c))]);
  assert.deepEqual(new Set(CASES.map(([code]) => code)), codes, 'codes raised here vs codes in js/rope-config*.js and the rules');
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
