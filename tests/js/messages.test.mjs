// Every status of the vocabulary raised through the public API (both
// flavours): the error has the status's class, its message is the status's
// template with every placeholder filled (no `{…}` left), names the argument
// and shows the value at fault (for an array option: the index and value of
// its first bad element, or its length). The option statuses (bad_<option>,
// <option>_not_read, <option>_missing) are generated from the vocabulary's
// options and the presets and rope types that read them. The statuses the
// public API cannot reach are listed below with the reason; the test fails
// if one of them becomes reachable by the generator or a listed one is
// missing from the vocabulary. Each error also carries its status name and
// the values that refill the template into its message. Prints its case count.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import sinpe, { vocabulary } from 'sinpe.wasm';

const flavours = {};
let cases = 0;
before(async () => {
  flavours.simd = await sinpe({ simd: true });
  flavours.baseline = await sinpe({ simd: false });
});
after(() => {
  const line = `all statuses: ${cases} messages checked (${vocabulary.statuses.length} statuses, ${UNREACHABLE.size} unreachable through the API)`;
  console.log(line);
  if (process.env.SINPE_SUMMARY) appendFileSync(process.env.SINPE_SUMMARY, `${line}\n`);
});

const OPTIONS = vocabulary.options;
const FAMILIES = [
  ...vocabulary.presets.map((entry) => ({ key: 'preset', entry })),
  ...vocabulary.ropeTypes.map((entry) => ({ key: 'ropeType', entry })),
];
const R = 8; // rotary dimension of the RoPE calls: arrays of 4

// Statuses no call of the public API can raise, and why.
const UNREACHABLE = new Map([
  ['ok', 'not an error'],
  ['null_pointer', 'the C++ API given a null pointer: the package passes its own buffers'],
  ['invalid_plan', 'an empty, released or foreign plan (handle): the package calls with the plan it made for the call'],
  ['bad_request', "the glue's answer to a malformed request block, which the package never writes"],
  ['bad_chunk', "the glue's answer to a chunk outside its scratch, which the package never asks for"],
  ...OPTIONS.filter((o) => o.type === 'boolean').map((o) => [
    `bad_${snake(o.name)}`,
    'a boolean option follows its rule whatever its value; a non-boolean is the package\'s TypeError first',
  ]),
  // mropeSection: required by ropeAxes 'sectioned', 'interleaved' and 'axial' (a case below).
  ...OPTIONS.filter((o) => o.name !== 'mropeSection' && !FAMILIES.some((f) => f.entry.required.includes(o.name))).map((o) => [
    `${snake(o.name)}_missing`,
    'no preset or rope type requires it',
  ]),
]);

function snake(name) {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

// A value an option's rule accepts, and one it refuses (with how the message shows it).
function good(option) {
  if (option.name === 'mropeSection') return [R / 2]; // one axis holding every pair
  if (option.type === 'numberArray') return Array(R / 2).fill(1);
  if (option.type === 'boolean') return true;
  return { positive: 2, finite: 1, index: 3, count: 4096, length: 64, fraction: 0.5 }[option.rule];
}
function bad(option) {
  if (option.name === 'mropeSection') return { value: [1, -2, 1], shows: ['options.mropeSection[1] = -2'], values: { element: 'options.mropeSection[1] = -2' } };
  if (option.type === 'numberArray')
    return { value: [1, 1, -2, 1], shows: [`options.${option.name}[2] = -2`, `rotaryDim/2 = ${R / 2}`], values: { element: `options.${option.name}[2] = -2`, pairs: String(R / 2) } };
  const b = {
    positive: { value: -1, shows: ['got -1'], values: { value: '-1' } },
    finite: { value: Infinity, shows: ['got Infinity'], values: { value: 'Infinity' } },
    index: { value: 0.5, shows: ['got 0.5'], values: { value: '0.5' } },
    count: { value: 0, shows: ['got 0'], values: { value: '0' } },
    length: { value: 2 ** 24 + 1, shows: ['got 16777217'], values: { value: '16777217' } },
    fraction: { value: 1.5, shows: ['got 1.5'], values: { value: '1.5' } },
  }[option.rule];
  return b;
}

// A call of `family` with `options` (plus its other required options, valid).
function familyCall(family, options) {
  const o = { [family.key]: family.entry.name };
  for (const name of family.entry.required) o[name] = good(OPTIONS.find((x) => x.name === name));
  Object.assign(o, options);
  for (const [k, v] of Object.entries(o)) if (v === undefined) delete o[k];
  return family.key === 'preset' ? (pe) => pe.table(2, 8, o) : (pe) => pe.ropeCache([1], R, o);
}

// status name -> [{ call, shows: [substrings], argument, values }]; `values`:
// placeholder -> the exact text the message must show for it (numbers as
// JavaScript writes them, the caller's strings in double quotes, name lists
// as single-quoted names joined by ', ' in the vocabulary's order, arrays as
// "[N values]", argument paths as the API spells them).
const CASES = new Map();
const add = (status, call, argument, shows, values = {}) => {
  if (!CASES.has(status)) CASES.set(status, []);
  CASES.get(status).push({ call, argument, shows, values });
};
const names = (list) => list.map((x) => `'${typeof x === 'string' ? x : x.name}'`).join(', ');
const MAX_D = '65536'; // vocabulary.limits.maxDModel as README.md states it
const MAX_COUNT = '33554432'; // 2 × 2^24: rows may start at -2^24 and end below 2^24

// The fixed statuses.
const x8 = () => new Float32Array(8);
add('bad_preset', (pe) => pe.table(2, 8, { preset: 'nope' }), 'options.preset', ['"nope"', "'vaswani'"], { preset: '"nope"', presets: names(vocabulary.presets) });
add('bad_layout', (pe) => pe.table(2, 8, { layout: 'diagonal' }), 'options.layout', ['"diagonal"'], { layout: '"diagonal"', layouts: names(vocabulary.layouts) });
add('layout_conflict', (pe) => pe.table(2, 8, { preset: 'diffusers', flipSinToCos: true, layout: 'concat' }), 'options.flipSinToCos', ['options.layout']);
add('d_model_out_of_range', (pe) => pe.table(2, 0), 'dModel', ['got 0', '65536'], { dModel: '0', maxDModel: MAX_D });
add('d_model_out_of_range', (pe) => pe.prepare(70000), 'dModel', ['got 70000'], { dModel: '70000', maxDModel: MAX_D });
add('d_model_odd', (pe) => pe.table(2, 7), 'dModel', ['got 7', "'vaswani'"], { dModel: '7', preset: 'vaswani' });
add('d_model_not_multiple_of_4', (pe) => pe.grid2d(2, 2, 6, { preset: 'mae' }), 'dModel', ['got 6', "'mae'"], { dModel: '6', preset: 'mae' });
add('d_model_too_small', (pe) => pe.table(2, 2, { preset: 'fairseq' }), 'dModel', ['dModel 2', "'fairseq'"], { dModel: '2', preset: 'fairseq' });
add('d_model_too_small', (pe) => pe.table(2, 2, { preset: 'whisper' }), 'dModel', ['dModel 2', "'whisper'"]);
add('frequencies_not_finite', (pe) => pe.table(2, 8, { preset: 'tensor2tensor', minTimescale: 1e-300, maxTimescale: 1e300 }), 'options', ['options.minTimescale', "'tensor2tensor'"], { given: 'options.minTimescale, options.maxTimescale', family: 'preset', preset: 'tensor2tensor' });
add('frequencies_not_finite', (pe) => pe.ropeCache([1], 8, { ropeType: 'linear', factor: 1e-320 }), 'options', ['options.factor', "'linear'"], { given: 'options.factor', family: 'ropeType', preset: 'linear' });
add('bad_count', (pe) => pe.table(-1, 8), 'length', ['got -1'], { countName: 'length', count: '-1', maxCount: MAX_COUNT });
add('bad_count', (pe) => pe.rows(0, 2.5, 8), 'count', ['got 2.5'], { countName: 'count', count: '2.5' });
add('bad_count', (pe) => pe.grid2d(-2, 2, 8), 'height/width', ['-2 × 2'], { countName: 'height/width', count: '-2 × 2' });
add('bad_start', (pe) => pe.rows(0.5, 2, 8), 'start', ['got 0.5'], { startName: 'start', start: '0.5' });
add('position_not_finite', (pe) => pe.encode([0, NaN], 8), 'positions[1]', ['got NaN'], { position: 'positions[1]', value: 'NaN' });
add('position_not_finite', (pe) => pe.ropeCache([Infinity], 8), 'positions[0]', ['got Infinity'], { position: 'positions[0]', value: 'Infinity' });
add('position_out_of_range', (pe) => pe.encode([1, 2, 2 ** 24], 8), 'positions[2]', ['got 16777216'], { position: 'positions[2]', value: '16777216' });
add('position_out_of_range', (pe) => pe.rows(2 ** 24 - 1, 2, 8), 'rows [16777215, 16777217)', ['got 16777216'], { position: 'rows [16777215, 16777217) from start and count', value: '16777216' });
add('too_large', (pe) => pe.ropeCacheRows(0, 2 ** 24, 128), 'count', ['count = 16777216', '16777216 × 64'], { countName: 'count', count: '16777216', rows: '16777216', width: '64' });
add('too_large', (pe) => pe.table(2 ** 24, 65536), 'length', ['length = 16777216', '16777216 × 65536'], { countName: 'length', count: '16777216', rows: '16777216', width: '65536' });
add('too_large', (pe) => pe.grid2d(2 ** 14, 2 ** 14, 8), 'height/width', ['16384 × 16384'], { countName: 'height/width', count: '16384 × 16384', rows: '268435456', width: '8' });
add('bad_column_window', (pe) => pe.heatmap(0, 2, 8, { columnStart: 6, columns: 4 }), 'options.columnStart', ['[0, 8)', '[6, 10)'], { dModel: '8', columnStart: '6', columnEnd: '10' });
add('bad_value_range', (pe) => pe.heatmap(0, 2, 8, { vmin: 2, vmax: 1 }), 'options.vmin', ['(2)', '(1)'], { vmin: '2', vmax: '1' });
add('bad_rope_type', (pe) => pe.ropeCache([1], 8, { ropeType: 'ntk' }), 'options.ropeType', ['"ntk"', "'yarn'"], { ropeType: '"ntk"', ropeTypes: names(vocabulary.ropeTypes) });
add('bad_rope_layout', (pe) => pe.applyRope(x8(), [1], 8, { layout: 'concat' }), 'options.layout', ['"concat"', "'half'"], { layout: '"concat"', ropeLayouts: names(vocabulary.ropeLayouts) });
add('bad_rotary_dim', (pe) => pe.ropeCache([1], 3), 'rotaryDim', ['got 3'], { rotaryDimName: 'rotaryDim', rotaryDim: '3', maxDModel: MAX_D });
add('bad_rotary_dim', (pe) => pe.applyRope(x8(), [1], 8, { rotaryDim: 5 }), 'options.rotaryDim', ['got 5'], { rotaryDimName: 'options.rotaryDim', rotaryDim: '5' });
add('bad_rotary_dim', (pe) => pe.applyRope(new Float32Array(7), [1], 7), 'headDim', ['got 7'], { rotaryDimName: 'headDim', rotaryDim: '7' });
add('bad_head_dim', (pe) => pe.applyRope(x8(), [1], 70000, { rotaryDim: 8 }), 'headDim', ['got 70000'], { headDim: '70000', maxDModel: MAX_D });
add('rotary_dim_above_head_dim', (pe) => pe.applyRope(x8(), [1], 4, { rotaryDim: 8 }), 'options.rotaryDim', ['(8)', '(4)'], { rotaryDim: '8', headDim: '4' });
add('bad_x_length', (pe) => pe.applyRope(new Float32Array(3), [1, 2], 8), 'x', ['(3)', '(16)'], { xLength: '3', rowLength: '16' });
add('rope_base_not_above_one', (pe) => pe.ropeCache([1], 8, { base: 0.5 }), 'options.base', ['got 0.5'], { base: '0.5' });
add('rope_base_not_above_one', (pe) => pe.ropeCacheRows(0, 2, 8, { ropeType: 'linear', factor: 2, base: 1 }), 'options.base', ['got 1'], { base: '1' });
add('mrope_section_sum', (pe) => pe.ropeCache([1], R, { mropeSection: [1, 1] }), 'options.mropeSection', [`rotaryDim ${R}`], { maxRopeAxes: '4', rotaryDim: String(R), value: '[2 values]' });
// five axes: more than the core's limit, although they add up to R/2 + 1
add('mrope_section_sum', (pe) => pe.ropeCacheRows(0, 2, R, { mropeSection: [1, 1, 1, 1, 1] }), 'options.mropeSection', [`rotaryDim ${R}`], { rotaryDim: String(R), value: '[5 values]' });
add('bad_dtype', (pe) => pe.table(2, 8, { dtype: 'float64' }), 'options.dtype', ['"float64"', "'bfloat16'"], { dtype: '"float64"', dtypes: names(vocabulary.dtypes) });
add('bad_dtype', (pe) => pe.ropeCacheRows(0, 2, 8, { dtype: 'half' }), 'options.dtype', ['"half"', "'float16'"]);
add('bad_dtype', (pe) => pe.prepareRope(8, { dtype: 'fp16' }), 'options.dtype', ['"fp16"']);
add('bad_recipe', (pe) => pe.ropeCacheRows(0, 2, 8, { recipe: 'float64' }), 'options.recipe', ['"float64"', "'exact'", "'float32'"], { recipe: '"float64"', recipes: names(vocabulary.recipes) });
add('bad_recipe', (pe) => pe.prepareRope(8, { recipe: 'half' }), 'options.recipe', ['"half"']);
add('bad_rope_axes', (pe) => pe.ropeCache([1], R, { ropeAxes: 'diagonal', mropeSection: [R / 2] }), 'options.ropeAxes', ['"diagonal"', "'pixtral'"], { ropeAxes: '"diagonal"', ropeAxesNames: names(vocabulary.ropeAxes) });
add('rotary_dim_not_multiple_of_4', (pe) => pe.ropeCacheGrid(2, 2, 6, { ropeAxes: 'pixtral' }), 'rotaryDim', ['got 6', "'pixtral'"], { rotaryDimName: 'rotaryDim', rotaryDim: '6' });
add('rotary_dim_not_multiple_of_4', (pe) => pe.applyRope(new Float32Array(12), [0, 0], 6, { ropeAxes: 'pixtral' }), 'headDim', ['got 6'], { rotaryDimName: 'headDim', rotaryDim: '6' });
add('mrope_section_missing', (pe) => pe.ropeCache([1], R, { ropeAxes: 'interleaved' }), 'options.mropeSection', ["'default'"], { family: 'ropeType', familyName: 'default' });
add('axes_mismatch', (pe) => pe.ropeCacheGrid(2, 2, R), 'options.mropeSection', ['2 position axes', 'make has 1'], { axes: '1' });
add('axes_mismatch', (pe) => pe.ropeCacheGrid(2, 2, R, { mropeSection: [2, 1, 1] }), 'options.mropeSection', ['make has 3'], { axes: '3' });
add('axes_mismatch', (pe) => pe.prepareRope(R).grid(2, 2), 'options.mropeSection', ['make has 1']);
const yarn16 = { ropeType: 'yarn', factor: 2, originalMaxPositions: 512, attentionFactor: 65520, dtype: 'float16' };
add('float16_overflow', (pe) => pe.ropeCacheRows(0, 1, R, yarn16), 'options', ['options.attentionFactor', '65504'], { maxFloat16: '65504' });
add('float16_overflow', (pe) => pe.prepareRope(R, yarn16).cache([0]), 'options', ['options.attentionFactor', '65504']);
// far more entries than the axis limit: refused by its length, shown as a count
add('mrope_section_sum', (pe) => pe.ropeCache([1], R, { mropeSection: new Float64Array(100_000).fill(1) }), 'options.mropeSection', ['1 to 4 entries', '[100000 values]'], { maxRopeAxes: '4', value: '[100000 values]' });
add('mrope_section_sum', (pe) => pe.ropeCache([1], R, { mropeSection: Array(100_000).fill(1) }), 'options.mropeSection', ['[100000 values]'], { value: '[100000 values]' });
// highFreqFactor not given: the message shows llama3's default, 4 (Llama 3.1's high_freq_factor)
add('freq_factor_order', (pe) => pe.ropeCache([1], 8, { ropeType: 'llama3', lowFreqFactor: 5 }), 'options.lowFreqFactor', ['(5)', '(4)'], { lowFreqFactor: '5', highFreqFactor: '4' });
add('freq_factor_order', (pe) => pe.ropeCache([1], 8, { ropeType: 'llama3', lowFreqFactor: 3, highFreqFactor: 2 }), 'options.lowFreqFactor', ['(3)', '(2)'], { lowFreqFactor: '3', highFreqFactor: '2' });

// The option statuses, generated.
for (const option of OPTIONS) {
  const id = snake(option.name);
  const reader = FAMILIES.find((f) => f.entry.reads.includes(option.name));
  const b = bad(option);
  if (reader && b) add(`bad_${id}`, familyCall(reader, { [option.name]: b.value }), `options.${option.name}`, b.shows, b.values);
  if (option.type === 'numberArray' && option.rule === 'positive' && reader)
    add(`bad_${id}`, familyCall(reader, { [option.name]: [1, 1] }), `options.${option.name}`, ['2 values', `rotaryDim/2 = ${R / 2}`], { element: '2 values', pairs: String(R / 2) });
  const other = FAMILIES.find((f) => !f.entry.reads.includes(option.name));
  // the family named, and what it reads: its option names joined by ', ' (or 'none')
  const readsOf = (f) => f.entry.reads.join(', ') || 'none';
  if (other)
    add(`${id}_not_read`, familyCall(other, { [option.name]: good(option) }), `options.${option.name}`, [`'${other.entry.name}'`], {
      family: other.key,
      familyName: other.entry.name,
      reads: readsOf(other),
    });
  const requirer = FAMILIES.find((f) => f.entry.required.includes(option.name));
  if (requirer)
    add(`${id}_missing`, familyCall(requirer, { [option.name]: undefined }), `options.${option.name}`, [`'${requirer.entry.name}'`], {
      family: requirer.key,
      familyName: requirer.entry.name,
    });
}

// How every placeholder's value must be shown in a message: numbers as
// numbers, the caller's strings quoted, name lists as quoted lists, arrays by
// their length (never their elements), argument names as the API spells them.
const NUM = String.raw`-?(?:\d+(?:\.\d+)?(?:e[+-]?\d+)?|Infinity|NaN)`;
const NUMBER = new RegExp(`^${NUM}$`);
const NAME = /^(?:"[^"]*"|[a-z0-9-]+)$/;
const NAME_LIST = /^'[a-z0-9-]+'(?:, '[a-z0-9-]+')+$/;
const ARGUMENT = /^(?:options\.)?[a-zA-Z]+(?:\/[a-zA-Z]+)?(?:\.length)?$/;
const SHAPES = {
  ...Object.fromEntries(
    ['axes', 'dModel', 'headDim', 'rotaryDim', 'rowLength', 'rows', 'width', 'xLength', 'columnStart', 'columnEnd', 'pairs', 'start', 'base', 'lowFreqFactor', 'highFreqFactor', 'vmin', 'vmax'].map((k) => [k, NUMBER]),
  ),
  ...Object.fromEntries(['maxDModel', 'maxCount', 'maxRopeAxes', 'maxFloat16'].map((k) => [k, /^\d+$/])),
  ...Object.fromEntries(['presets', 'layouts', 'ropeTypes', 'ropeLayouts', 'ropeAxesNames', 'dtypes', 'recipes'].map((k) => [k, NAME_LIST])),
  ...Object.fromEntries(['preset', 'ropeType', 'layout', 'ropeAxes', 'dtype', 'recipe', 'familyName'].map((k) => [k, NAME])),
  ...Object.fromEntries(['countName', 'startName', 'rotaryDimName'].map((k) => [k, ARGUMENT])),
  count: new RegExp(`^${NUM}(?: × ${NUM})?$`),
  position: new RegExp(`^(?:positions\\[\\d+\\]|rows \\[${NUM}, ${NUM}\\) from [\\w.]+ and [\\w.]+)$`),
  value: new RegExp(`^(?:${NUM}|\\[\\d+ values\\]|"[^"]*"|true|false)$`),
  element: new RegExp(`^(?:options\\.\\w+\\[\\d+\\] = ${NUM}|\\d+ values)$`),
  family: /^(?:preset|ropeType)$/,
  given: /^(?:options\.\w+(?:, options\.\w+)*)?$/,
  reads: /^(?:\w+(?:, \w+)*|none)$/,
};

// Every status of the vocabulary rendered by the package's own statusError
// with a value for each placeholder a call fills: no `{…}` may be left (a
// placeholder no call fills, such as the old {bufferName}, fails here), and
// each value is shown as SHAPES says.
const SAMPLE = {
  family: 'ropeType', familyName: 'yarn', preset: 'vaswani', ropeType: 'yarn', layout: 'half', ropeAxes: 'pixtral', dtype: 'float16', recipe: 'float32',
  dModel: 8, headDim: 8, rotaryDim: 8, rotaryDimName: 'rotaryDim', rowLength: 16, rows: 2, width: 8, xLength: 3, axes: 1, wantAxes: 2,
  columnStart: 6, columnEnd: 10, vmin: 2, vmax: 1, countName: 'count', count: 3, startName: 'start', start: 0.5,
  position: 'positions[2]', value: 16777216, element: 'options.shortFactor[2] = -2', pairs: 4,
  options: { base: 0.5, lowFreqFactor: 5, highFreqFactor: 4, attentionFactor: 65520 },
};
test('every status of the vocabulary renders with its values shown as SHAPES says and no placeholder left', async () => {
  const main = createRequire(import.meta.url).resolve('sinpe.wasm');
  const { statusError } = await import(pathToFileURL(join(dirname(main), 'errors.js')).href);
  for (const status of vocabulary.statuses) {
    if (status.name === 'ok') continue;
    const error = statusError(status.code, SAMPLE);
    assert.equal(error.status, status.name);
    assert.doesNotMatch(error.message, /\{\w+\}/, `${status.name}: a placeholder is left in "${error.message}"`);
    for (const [key, shown] of Object.entries(error.values)) {
      assert.ok(SHAPES[key], `${status.name}: {${key}} has no entry in SHAPES`);
      assert.match(shown, SHAPES[key], `${status.name}: {${key}} shown as "${shown}"`);
    }
  }
});

// statusError itself (js/errors.js, loaded beside the package's entry), for
// what the API cannot reach: how each kind of value is shown (docs/errors.md:
// a string quoted, an array or typed array by its true length, never its
// elements; anything else as JavaScript writes it), a code the vocabulary
// does not have, and a placeholder no value fills.
async function loadStatusError() {
  const main = createRequire(import.meta.url).resolve('sinpe.wasm');
  return (await import(pathToFileURL(join(dirname(main), 'errors.js')).href)).statusError;
}
const codeOf = (name) => vocabulary.statuses.find((s) => s.name === name).code;

test('statusError shows each kind of value: strings quoted, arrays and typed arrays by their true length, others as written', async () => {
  const statusError = await loadStatusError();
  const shown = (value) => statusError(codeOf('bad_base'), { value }).values.value;
  assert.equal(shown('x y'), '"x y"');
  assert.equal(shown(''), '""');
  assert.equal(shown('say "hi"'), '"say \\"hi\\""');
  assert.equal(shown([1, 2, 3]), '[3 values]');
  assert.equal(shown([]), '[0 values]');
  assert.equal(shown(new Float32Array(5)), '[5 values]');
  const patched = new Float64Array(4);
  Object.defineProperty(patched, 'length', { value: 99 });
  assert.equal(shown(patched), '[4 values]', 'a typed array by its true length, not an own length property');
  assert.equal(shown({ length: 7 }), '[object Object]', 'an object that only claims a length is no array');
  assert.equal(shown(0.1), '0.1');
  assert.equal(shown(-0), '0');
  assert.equal(shown(-2.5e-7), '-2.5e-7');
  assert.equal(shown(true), 'true');
  assert.equal(shown(null), 'null');
  assert.equal(statusError(codeOf('bad_base'), { value: 'x' }).message, 'sinpe: options.base must be a positive finite number, got "x"');
  // an option's own status shows the option's given value when the call gives none
  assert.equal(statusError(codeOf('bad_base'), { options: { base: -3 } }).values.value, '-3');
  assert.equal(statusError(codeOf('bad_base'), { options: { base: 'two' } }).values.value, '"two"');
});

test('statusError: a code the vocabulary lacks is a plain Error naming it; a placeholder no value fills stays visible', async () => {
  const statusError = await loadStatusError();
  const unknown = Math.max(...vocabulary.statuses.map((s) => s.code)) + 1;
  const e = statusError(unknown, { dModel: 3 });
  assert.equal(e.constructor, Error);
  assert.equal(e.message, `sinpe: internal status ${unknown}`);
  assert.equal(e.status, undefined);
  // d_model_odd with no dModel: `{dModel}` is left for a check (the messages test, the faults suite) to catch, never "undefined"
  const odd = statusError(codeOf('d_model_odd'), { preset: 'vaswani' });
  assert.equal(odd.message, `sinpe: ${vocabulary.statuses.find((s) => s.name === 'd_model_odd').message.replace('{preset}', 'vaswani')}`);
  assert.match(odd.message, /got \{dModel\}$/);
  assert.deepEqual(Object.keys(odd.values), ['preset']);
  assert.ok(Object.isFrozen(odd.values));
});

// A template as a pattern: its placeholders match anything but braces.
const templatePattern = (message) =>
  new RegExp(`^sinpe: ${message.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}|\{\w+\}/g, '[^{}]+')}$`);

test('the unreachable list names statuses of the vocabulary, none of which the generator reaches', () => {
  const names = new Set(vocabulary.statuses.map((s) => s.name));
  for (const name of UNREACHABLE.keys()) assert.ok(names.has(name), `${name} is no status`);
  for (const name of CASES.keys()) assert.ok(!UNREACHABLE.has(name), `${name} is listed as unreachable but a case raises it`);
});

for (const status of vocabulary.statuses) {
  if (UNREACHABLE.has(status.name)) continue;
  test(`${status.name}: raised through the API, its message filled, naming the argument and showing the value`, () => {
    const list = CASES.get(status.name) ?? [];
    assert.ok(list.length > 0, `no call raises ${status.name}: add one, or list it as unreachable with the reason`);
    const pattern = templatePattern(status.message);
    for (const flavour of ['simd', 'baseline'])
      for (const { call, argument, shows, values } of list) {
        cases++;
        let error;
        try {
          call(flavours[flavour]);
        } catch (e) {
          error = e;
        }
        assert.ok(error, `${status.name} (${flavour}): ${call} did not throw`);
        assert.equal(error.constructor.name, status.error, `${status.name}: ${error.message}`);
        assert.doesNotMatch(error.message, /\{\w+\}/, `${status.name}: a placeholder is left`);
        assert.match(error.message, pattern, `${status.name}: not this status's message`);
        assert.ok(error.message.includes(argument), `${status.name}: "${error.message}" does not name ${argument}`);
        for (const s of shows) assert.ok(error.message.includes(s), `${status.name}: "${error.message}" does not show ${s}`);
        // the same reason, machine-readable: the status name, and values that refill its template into the message
        assert.equal(error.status, status.name, `${status.name}: error.status`);
        const refilled = status.message.replace(/\{(\w+)\}/g, (whole, key) => {
          assert.equal(typeof error.values?.[key], 'string', `${status.name}: error.values.${key}`);
          return error.values[key];
        });
        assert.equal(error.message, `sinpe: ${refilled}`, `${status.name}: error.values do not give the message`);
        // how each value is shown, not only that it was filled: exactly, where the case says
        for (const [key, text] of Object.entries(values)) assert.equal(error.values[key], text, `${status.name}: {${key}} in "${error.message}"`);
        for (const [key, shown] of Object.entries(error.values)) {
          assert.ok(SHAPES[key], `${status.name}: {${key}} has no entry in SHAPES (say how its value is shown)`);
          assert.match(shown, SHAPES[key], `${status.name}: {${key}} shown as "${shown}"`);
        }
      }
  });
}
