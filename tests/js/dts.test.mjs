// sinpe.d.ts against the vocabulary the core generates: every name union
// (presets, layouts, rope types, rope layouts, rope axes, dtypes, recipes) is
// the generated one, and every option of the hand-written interfaces matches,
// so the types cannot drift from what the module accepts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { vocabulary } from 'sinpe.wasm';

const dir = dirname(createRequire(import.meta.url).resolve('sinpe.wasm/package.json'));
const dts = readFileSync(join(dir, 'js/sinpe.d.ts'), 'utf8');

// The name unions are generated from the core's vocabulary into
// dist/sinpe-vocabulary.d.ts; sinpe.d.ts re-exports each.
const generated = readFileSync(join(dir, 'dist/sinpe-vocabulary.d.ts'), 'utf8');

// The string members of `export type Name = 'a' | 'b' ...;` in the generated file,
// after checking that sinpe.d.ts exports the generated type under the same name.
function union(name) {
  assert.match(dts, new RegExp(`export type ${name} = V\\.${name};`), `sinpe.d.ts re-exports the generated ${name}`);
  const m = generated.match(new RegExp(`export type ${name} =([^;]*);`));
  assert.ok(m, `sinpe-vocabulary.d.ts declares type ${name}`);
  return [...m[1].matchAll(/'([^']*)'/g)].map((x) => x[1]);
}

// The member names of `export interface Name ... { ... }` (one level).
function members(name) {
  const m = dts.match(new RegExp(`export interface ${name}\\b[^{]*\\{([\\s\\S]*?)\\n\\}`));
  assert.ok(m, `sinpe.d.ts declares interface ${name}`);
  return [...m[1].matchAll(/^\s{2}(?:readonly\s+)?(\w+)\??:/gm)].map((x) => x[1]);
}

test('the .d.ts unions list exactly the vocabulary names', () => {
  assert.deepEqual(union('Preset'), vocabulary.presets.map((p) => p.name));
  assert.deepEqual(union('Layout'), [...vocabulary.layouts]);
  assert.deepEqual(union('RopeType'), vocabulary.ropeTypes.map((t) => t.name));
  assert.deepEqual(union('RopeLayout'), [...vocabulary.ropeLayouts]);
  assert.deepEqual(union('RopeAxes'), [...vocabulary.ropeAxes]);
  assert.deepEqual(union('Dtype'), [...vocabulary.dtypes]);
  assert.match(dts, /export type HalfDtype = Exclude<Dtype, 'float32'>;/);
  assert.deepEqual(union('Recipe'), [...vocabulary.recipes]);
});

test('the .d.ts option interfaces declare exactly the vocabulary options, with their types', () => {
  const sinusoidal = new Set(vocabulary.presets.flatMap((p) => p.reads));
  const rope = new Set(vocabulary.ropeTypes.flatMap((t) => t.reads));
  assert.deepEqual(new Set(members('EncodingOptions')), new Set(['preset', 'layout', ...sinusoidal]));
  assert.deepEqual(new Set(members('RopeOptions')), new Set(['ropeType', 'ropeAxes', ...rope]));
  const declared = { number: 'number', boolean: 'boolean', numberArray: 'ArrayLike<number>' };
  for (const o of vocabulary.options) {
    const m = dts.match(new RegExp(`\\n\\s{2}${o.name}\\?: ([^;]+);`));
    assert.ok(m, `option ${o.name} is declared`);
    assert.equal(m[1], declared[o.type], `option ${o.name}: ${m[1]} vs vocabulary type ${o.type}`);
  }
});
