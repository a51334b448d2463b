// ropeOptionsFromConfig's value checks at their edges: the kind of error (a
// value of the wrong type is a TypeError, one of the right type out of range a
// RangeError, as the README's error table says), the range of each rule as the
// core's vocabulary states it (count: an integer in [1, 2^24); positive: > 0;
// a section list: 1 to maxRopeAxes entries; an array: at most 2^29 entries),
// both sides of every bound, and the config key path named in the message.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import sinpe from 'sinpe.wasm';

let read;
before(async () => {
  const pe = await sinpe();
  read = pe.ropeOptionsFromConfig;
});

const BASE = Object.freeze({ hidden_size: 256, num_attention_heads: 2, rope_theta: 10000, max_position_embeddings: 4096 }); // head_dim 128: 64 pairs
const ones = (n) => Array.from({ length: n }, () => 1);
const longrope = (longFactor) => ({ ...BASE, rope_scaling: { rope_type: 'longrope', short_factor: ones(64), long_factor: longFactor, original_max_position_embeddings: 4096 } });
const yarn = (original) => ({ ...BASE, rope_scaling: { rope_type: 'yarn', factor: 2, original_max_position_embeddings: original } });
const mrope = (section) => ({ ...BASE, rope_scaling: { rope_type: 'mrope', mrope_section: section } });

function refused(config, type, path) {
  assert.throws(
    () => read(config),
    (e) => e instanceof type && e.message.includes(path),
    `${type.name} naming ${path}`,
  );
}

test('a string where a number belongs is a TypeError naming its key, never a RangeError', () => {
  refused({ ...BASE, head_dim: '128' }, TypeError, 'config.head_dim');
  refused(yarn('4096'), TypeError, 'config.rope_scaling.original_max_position_embeddings');
  refused(longrope(['1', ...ones(63)]), TypeError, 'config.rope_scaling.long_factor[0]');
});

test('a positive integer: 1 is one', () => {
  const got = read({ ...BASE, hidden_size: 64, num_attention_heads: 1 });
  assert.equal(got.headDim, 64);
  refused({ ...BASE, num_attention_heads: 0 }, RangeError, 'config.num_attention_heads');
});

test('a count (original_max_position_embeddings) is an integer in [1, 2^24)', () => {
  assert.equal(read(yarn(1)).options.originalMaxPositions, 1);
  assert.equal(read(yarn(2 ** 24 - 1)).options.originalMaxPositions, 2 ** 24 - 1);
  refused(yarn(2 ** 24), RangeError, 'config.rope_scaling.original_max_position_embeddings');
  refused(yarn(0), RangeError, 'config.rope_scaling.original_max_position_embeddings');
  refused(yarn(1.5), RangeError, 'config.rope_scaling.original_max_position_embeddings');
});

test('per-pair factors are positive: 0 is refused, the smallest positive number is not', () => {
  refused(longrope([0, ...ones(63)]), RangeError, 'config.rope_scaling.long_factor[0]');
  refused(longrope([...ones(63), -1]), RangeError, 'config.rope_scaling.long_factor[63]');
  assert.equal(read(longrope([Number.MIN_VALUE, ...ones(63)])).options.longFactor[0], Number.MIN_VALUE);
});

test('a section list: entries of 1 are counts, and 1 to maxRopeAxes (4) entries', () => {
  assert.deepEqual(read(mrope([1, 31, 32])).options.mropeSection, [1, 31, 32]);
  assert.deepEqual(read(mrope([16, 16, 16, 16])).options.mropeSection, [16, 16, 16, 16]);
  refused(mrope([16, 16, 16, 8, 8]), RangeError, 'config.rope_scaling.mrope_section');
  refused(mrope([0, 32, 32]), RangeError, 'config.rope_scaling.mrope_section[0]');
});

test('an array of exactly 2^29 entries is read for its length; one more is refused before any entry is read', () => {
  // 2^29 entries pass the limit and fail the per-pair length (64); 2^29 + 1 fail the limit
  assert.throws(() => read(longrope(new Array(2 ** 29))), (e) => e instanceof RangeError && e.code === 'bad_long_factor' && /long_factor must be an array of rotaryDim\/2 = 64 positive finite numbers, got 536870912 values/.test(e.message));
  assert.throws(() => read(longrope(new Array(2 ** 29 + 1))), (e) => e instanceof RangeError && /has 536870913 entries, more than the 2\^29/.test(e.message));
});

// An array option longer than any plan reads (the core's widest head) goes
// to the core as its length alone, and the core refuses it with the option's
// own status: the package's own calls and the config reader alike, for the
// first such option of a call, its entries never copied; the module stays usable.
test('array options longer than any plan reads: the first one’s own status (not a malformed request), its length shown', async () => {
  const pe = await sinpe();
  const { maxDModel } = (await import('sinpe.wasm')).vocabulary.limits;
  const long = ones(maxDModel + 1);
  for (const [options, status, shown] of [
    [{ ropeType: 'longrope', shortFactor: long, longFactor: ones(8) }, 'bad_short_factor', `${maxDModel + 1} values`],
    [{ ropeType: 'longrope', shortFactor: long, longFactor: ones(100_000) }, 'bad_short_factor', `${maxDModel + 1} values`],
    [{ ropeType: 'longrope', shortFactor: ones(8), longFactor: ones(100_000) }, 'bad_long_factor', '100000 values'],
    [{ ropeType: 'longrope', shortFactor: ones(8), longFactor: ones(9) }, 'bad_long_factor', '9 values'],
  ]) {
    assert.throws(
      () => pe.ropeFrequencies(16, options),
      (e) => e instanceof RangeError && e.status === status && e.values.element === shown && e.message.includes(`got ${shown}`),
      `${status}: ${options.shortFactor.length}, ${options.longFactor.length}`,
    );
  }
  // a sparse array of 2^29 entries: refused by its length at once, no entry read
  const huge = [];
  huge.length = 2 ** 29;
  assert.throws(() => pe.ropeFrequencies(16, { ropeType: 'longrope', shortFactor: huge, longFactor: ones(8) }), (e) => e.status === 'bad_short_factor' && e.values.element === `${2 ** 29} values`);
  assert.throws(() => read(longrope(ones(100_000))), (e) => e instanceof RangeError && e.code === 'bad_long_factor' && e.configKey === 'config.rope_scaling.long_factor' && e.message.includes('got 100000 values'));
  assert.equal(pe.ropeFrequencies(16, { ropeType: 'longrope', shortFactor: ones(8), longFactor: ones(8), originalMaxPositions: 4096, factor: 1 }).length, 8);
});
