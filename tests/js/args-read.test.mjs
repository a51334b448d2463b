// The one argument reader every method shares (js/args.js), at the edges its
// mutants found untested: how a refused value is shown (by what it is, by the
// ECMAScript type or the intrinsic name of its kind, running none of its
// code), the element limit of one result on both sides of 2^29
// (vocabulary.limits.maxElements, the core's), which out arrays share memory
// (byte ranges of one ArrayBuffer that intersect; adjacent ones do not), the
// kinds a half-precision out may be, and an Array's length as a Proxy reports
// it. Every refusal is checked by tests/js/refused.mjs (the error class, the
// `sinpe: ` prefix, no placeholder left); accepted calls are compared with
// tests/js/rope-reference.mjs, never with sinpe's own output.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import sinpe, { getRopeIndex, vocabulary } from 'sinpe.wasm';
import { refused } from './refused.mjs';
import { ropeCache as referenceRopeCache } from './rope-reference.mjs';
import { referenceRow, TOLERANCE } from './reference.mjs';

let pe;
before(async () => {
  pe = await sinpe();
});

const MAX_ELEMENTS = vocabulary.limits.maxElements;
const MAX_D = vocabulary.limits.maxDModel;
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const ends = (text) => new RegExp(`${escape(text)}$`);

test('a refused position element is shown by its ECMAScript type: bigint with n, symbol, function, null, boolean, string quoted', () => {
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  const cases = [
    [3n, '3n'],
    [-12345678901234567890n, '-12345678901234567890n'],
    [Symbol('p'), 'a symbol'],
    [() => 0, 'a function'],
    [null, 'null'],
    [undefined, 'undefined'],
    [true, 'true'],
    ['7', '"7"'],
    [{ valueOf: () => 1 }, 'Object'],
    [[1], 'Array'],
    [revoked.proxy, 'a revoked Proxy'],
  ];
  for (const [value, shown] of cases) {
    refused(() => pe.encode([0, value], 8), TypeError, /^sinpe: positions\[1\] must be a number, got /, ends(`got ${shown}`));
  }
});

test('a string is shown quoted, whole up to 40 characters, else its first 40 and an ellipsis', () => {
  const key40 = 'k'.repeat(40);
  refused(() => pe.table(2, 4, { [key40]: 1 }), TypeError, new RegExp(`^sinpe: unknown option "${key40}";`));
  const key41 = `${key40}z`;
  refused(() => pe.table(2, 4, { [key41]: 1 }), TypeError, new RegExp(`^sinpe: unknown option "${key40}…";`));
  const long = 'abc'.repeat(100_000);
  const error = refused(() => pe.encode([0, long], 8), TypeError, ends(`positions[1] must be a number, got "${long.slice(0, 40)}…"`));
  assert.ok(error.message.length < 120, `the message holds the whole string: ${error.message.length} characters`);
});

test('a value that is no typed array is shown by its kind: ArrayBuffer, SharedArrayBuffer, DataView, a typed array by its own name', () => {
  const cases = [
    [new ArrayBuffer(32), 'ArrayBuffer'],
    [new SharedArrayBuffer(32), 'SharedArrayBuffer'],
    [new DataView(new ArrayBuffer(32)), 'DataView'],
    [new Float64Array(8), 'Float64Array'],
    [new BigInt64Array(8), 'BigInt64Array'],
    [new Uint8ClampedArray(32), 'Uint8ClampedArray'],
  ];
  for (const [x, shown] of cases) {
    // x of applyRope must be a Float32Array
    refused(() => pe.applyRope(x, [0], 8), TypeError, ends(`x must be a Float32Array, got ${shown}`));
  }
  // positions: the same names; a BigInt array is not a numeric typed array
  for (const [positions, shown] of [...cases.slice(0, 3), [new BigInt64Array(2), 'BigInt64Array']]) {
    refused(() => pe.encode(positions, 8), TypeError, ends(`positions must be an Array or a numeric typed array, got ${shown}`));
  }
});

test('an object that only looks like a typed array gets the hint; an Array, a revoked Proxy and primitives do not', () => {
  const hint = ' (a Proxy or an object that only looks like a typed array is not one)';
  refused(() => pe.applyRope(Object.create(Float32Array.prototype), [0], 8), TypeError, ends(`got Object${hint}`));
  refused(() => pe.applyRope(new Proxy(new Float32Array(8), {}), [0], 8), TypeError, ends(`got Object${hint}`));
  refused(() => pe.encode({ length: 1, 0: 0 }, 8), TypeError, ends(`got Object${hint}`));
  const revoked = Proxy.revocable([], {});
  revoked.revoke();
  refused(() => pe.applyRope(revoked.proxy, [0], 8), TypeError, ends('x must be a Float32Array, got a revoked Proxy'));
  refused(() => pe.encode(revoked.proxy, 8), TypeError, ends('positions must be an Array or a numeric typed array, got a revoked Proxy'));
  for (const [x, shown] of [[[0, 1], 'Array'], [null, 'null'], [5, '5'], ['x', '"x"']]) {
    refused(() => pe.applyRope(x, [0], 8), TypeError, ends(`x must be a Float32Array, got ${shown}`));
  }
});

test('the element limit of one result is 2^29 (vocabulary.limits.maxElements): exactly 2^29 passes the check, one row more is refused before anything is read', () => {
  assert.equal(MAX_ELEMENTS, 2 ** 29);
  assert.equal(MAX_D, 2 ** 16);
  const rows = MAX_ELEMENTS / MAX_D; // 8192 rows of 65536 values: 2^29
  // At the limit the size is accepted: the first element read is the hole at 0.
  refused(() => pe.encode(new Array(rows), MAX_D), TypeError, /^sinpe: positions\[0\] must be a number, got undefined$/);
  // One row more: refused by the size, naming rows and width, no element read.
  const reads = [];
  const over = new Proxy(new Array(rows + 1), {
    get(target, key) {
      if (key !== 'length') reads.push(key);
      return Reflect.get(target, key);
    },
  });
  refused(() => pe.encode(over, MAX_D), RangeError, ends(`positions: ${rows + 1} × ${MAX_D} values exceed the 2^29-element (2 GiB) limit of one result`));
  assert.deepEqual(reads, []);
  // One value per position (applyRope): the count alone.
  refused(
    () => pe.applyRope(new Float32Array(8), new Array(MAX_ELEMENTS + 1), 8),
    RangeError,
    ends(`positions: ${MAX_ELEMENTS + 1} values exceed the 2^29-element (2 GiB) limit of one result`),
  );
});

test('an Array whose length a Proxy reports as no array length is refused naming positions.length', () => {
  for (const [length, shown] of [[-1, '-1'], [1.5, '1.5'], [2 ** 53, '9007199254740992'], ['2', '"2"'], [NaN, 'NaN']]) {
    const positions = new Proxy([0, 1], { get: (t, k) => (k === 'length' ? length : Reflect.get(t, k)) });
    refused(() => pe.encode(positions, 8), RangeError, ends(`positions.length must be a non-negative integer, got ${shown}`));
  }
});

// out.cos and out.sin of a RoPE cache in one ArrayBuffer: byte ranges
// [o, o + n) that intersect share memory; ranges that only touch do not.
test('cos and sin side by side in one buffer (either order) are written; overlapping by one element is refused naming both', () => {
  const positions = [0, 3, 7.5];
  const r = 8;
  const n = positions.length * (r / 2);
  const want = referenceRopeCache(positions, r);
  for (const cosFirst of [true, false]) {
    const buffer = new ArrayBuffer(2 * n * 4);
    const first = new Float32Array(buffer, 0, n).fill(NaN);
    const second = new Float32Array(buffer, n * 4, n).fill(NaN);
    const out = cosFirst ? { cos: first, sin: second } : { cos: second, sin: first };
    const got = pe.ropeCache(positions, r, { out });
    assert.equal(got.cos, out.cos);
    for (let i = 0; i < n; i++) {
      assert.ok(Math.abs(out.cos[i] - want.cos[i]) < 1e-6, `cos[${i}] (cos first: ${cosFirst})`);
      assert.ok(Math.abs(out.sin[i] - want.sin[i]) < 1e-6, `sin[${i}] (cos first: ${cosFirst})`);
    }
  }
  for (const cosFirst of [true, false]) {
    const buffer = new ArrayBuffer((2 * n - 1) * 4);
    const first = new Float32Array(buffer, 0, n).fill(5);
    const second = new Float32Array(buffer, (n - 1) * 4, n).fill(5);
    const out = cosFirst ? { cos: first, sin: second } : { cos: second, sin: first };
    refused(() => pe.ropeCache(positions, r, { out }), RangeError, /options\.out\.cos and options\.out\.sin must not share memory/);
    assert.ok(new Float32Array(buffer).every((v) => v === 5), 'an out array was written');
  }
  // Separate buffers at the same offsets share nothing.
  const cos = new Float32Array(new ArrayBuffer(n * 4));
  const sin = new Float32Array(new ArrayBuffer(n * 4));
  pe.ropeCache(positions, r, { out: { cos, sin } });
  assert.ok(Math.abs(sin[5] - want.sin[5]) < 1e-6);
});

test('a half-precision out is a Uint16Array (for float16 also a Float16Array where the engine has one); another kind or length is refused naming it', () => {
  const f16 = typeof globalThis.Float16Array === 'function';
  const kinds = { float16: f16 ? 'a Uint16Array or Float16Array' : 'a Uint16Array', bfloat16: 'a Uint16Array' };
  for (const dtype of ['float16', 'bfloat16']) {
    const sin = new Uint16Array(4);
    refused(() => pe.ropeCache([0], 8, { dtype, out: { cos: new Float32Array(4), sin } }), TypeError, ends(`options.out.cos must be ${kinds[dtype]}, got Float32Array`));
    refused(() => pe.ropeCache([0], 8, { dtype, out: { cos: new Uint16Array(4), sin: new Uint16Array(3) } }), RangeError, ends('options.out.sin must have length 4, got 3'));
    const out = { cos: new Uint16Array(4).fill(0xffff), sin: new Uint16Array(4).fill(0xffff) };
    pe.ropeCache([0], 8, { dtype, out });
    // position 0: cos 1 and sin 0 for every pair: 1.0 is 0x3c00 in binary16, 0x3f80 in bfloat16
    assert.deepEqual([...out.cos], Array(4).fill(dtype === 'float16' ? 0x3c00 : 0x3f80));
    assert.deepEqual([...out.sin], [0, 0, 0, 0]);
  }
});

// Token ids may come in any kind of typed array (Qwen2-VL's get_rope_index
// reads a tensor of ids): a text-only sequence of n tokens gets positions
// 0 … n − 1 on each of the three axes and a rope delta of 0.
test('getRopeIndex takes ids in every typed-array kind, BigInt ones included', () => {
  const kinds = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array, BigInt64Array, BigUint64Array];
  for (const Kind of kinds) {
    const ids = Kind.from([5, 6, 7, 8], Kind.name.startsWith('Big') ? BigInt : Number);
    const got = getRopeIndex(ids);
    assert.deepEqual([...got.positions], [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3], Kind.name);
    assert.equal(got.ropeDelta, 0, Kind.name);
  }
});

test('a refusal lists every kind an argument may be: a colormap is a Uint8Array or a Uint8ClampedArray', () => {
  for (const [colormap, shown] of [[new Float32Array(1024), 'Float32Array'], [new Int8Array(1024), 'Int8Array'], [[0, 0, 0, 255], 'Array']]) {
    refused(() => pe.heatmap(0, 2, 4, { colormap }), TypeError, ends(`options.colormap must be a Uint8Array or Uint8ClampedArray, got ${shown}`));
  }
  // Both kinds are taken.
  for (const Kind of [Uint8Array, Uint8ClampedArray]) assert.equal(pe.heatmap(0, 2, 4, { colormap: new Kind(1024) }).length, 2 * 4 * 4);
});

test('init.wasmBinary that is neither an ArrayBuffer nor a Uint8Array is refused by that name, with the hint for a look-alike', async () => {
  const hint = ' (a Proxy or an object that only looks like one is not one)';
  const cases = [
    ['AGFzbQEAAAA=', '"AGFzbQEAAAA="'],
    [null, 'null'],
    [new Float32Array(4), 'Float32Array'],
    [new SharedArrayBuffer(8), 'SharedArrayBuffer'],
    [{ byteLength: 8 }, `Object${hint}`],
    [new Proxy(new Uint8Array(8), {}), `Object${hint}`],
  ];
  for (const [wasmBinary, shown] of cases) {
    await assert.rejects(sinpe({ wasmBinary }), (e) => {
      refused(() => {
        throw e;
      }, TypeError, ends(`init.wasmBinary must be an ArrayBuffer or a Uint8Array, got ${shown}`));
      return true;
    });
  }
});

test('positions in a SharedArrayBuffer are read (copied first); an out there is refused', () => {
  const positions = new Float64Array(new SharedArrayBuffer(3 * 8));
  positions.set([0, 5, 1000.5]);
  const got = pe.encode(positions, 8);
  positions.forEach((p, i) => {
    const want = referenceRow(p, 8);
    for (let j = 0; j < 8; j++) assert.ok(Math.abs(got[i * 8 + j] - want[j]) <= TOLERANCE, `row ${i}, column ${j}`);
  });
  refused(() => pe.encode([0], 8, { out: new Float32Array(new SharedArrayBuffer(32)) }), TypeError, ends('options.out must not be backed by a SharedArrayBuffer'));
});

test('an empty array that is unusable is named for why: detached, or out of bounds of a resizable buffer that shrank', () => {
  const resizable = new ArrayBuffer(64, { maxByteLength: 64 });
  const x = new Float32Array(resizable, 32, 8);
  resizable.resize(16);
  refused(() => pe.applyRope(x, [0], 8), TypeError, ends('x is out of bounds (its resizable ArrayBuffer shrank below it)'));
  const gone = new Float32Array(8);
  structuredClone(gone.buffer, { transfer: [gone.buffer] });
  refused(() => pe.applyRope(gone, [0], 8), TypeError, ends('x is detached (its ArrayBuffer was transferred)'));
});

// A copy of an Array's positions is a Float64Array of its length; when the
// engine cannot allocate it, the call is refused naming the argument (not
// the engine's bare "Array buffer allocation failed"), no element is read,
// and the module stays usable. Run in a child process whose address space is
// capped (prlimit, util-linux) just above what it has once the module is
// loaded, so the 4 GiB copy of 2^29 positions cannot be had; the cap is then
// lifted and a rotation checked: (1, 0) at position 1 with headDim 2 is
// (cos 1, sin 1).
test('a copy of positions the engine cannot allocate is a RangeError naming positions; nothing is read; the module stays usable', { skip: process.platform !== 'linux' && 'needs Linux (/proc, prlimit)' }, () => {
  const script = `
    import { readFileSync } from 'node:fs';
    import { execFileSync } from 'node:child_process';
    import sinpe from 'sinpe.wasm';
    const pe = await sinpe();
    const vmSize = Number(/VmSize:\\s+(\\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) * 1024;
    execFileSync('prlimit', ['--pid', String(process.pid), '--as=' + (vmSize + 2 ** 30) + ':']);
    const reads = [];
    const positions = new Proxy([], { get(t, k) { if (k === 'length') return 2 ** 29; reads.push(String(k)); throw new Error('element read'); } });
    let error;
    try { pe.applyRope(new Float32Array(0), positions, 8); } catch (e) { error = { name: e.constructor.name, message: e.message }; }
    execFileSync('prlimit', ['--pid', String(process.pid), '--as=unlimited:']);
    const x = new Float32Array([1, 0]);
    pe.applyRope(x, [1], 2);
    console.log(JSON.stringify({ error, reads, x: [...x] }));
  `;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(run.status, 0, `the process failed: ${run.signal ?? ''} ${run.stderr.slice(0, 600)}`);
  const { error, reads, x } = JSON.parse(run.stdout.trim());
  assert.ok(error, 'the call was accepted');
  assert.equal(error.name, 'RangeError', error.message);
  assert.match(error.message, /^sinpe: positions: no memory for a copy of its 536870912 values$/);
  assert.deepEqual(reads, []);
  assert.ok(Math.abs(x[0] - Math.cos(1)) < 1e-6 && Math.abs(x[1] - Math.sin(1)) < 1e-6, `(1, 0) rotated by 1 radian: ${x}`);
});

// An empty list of positions is a list of no rows: an empty result, no error.
test('an empty Array of positions gives an empty result (length 0 is a length)', () => {
  assert.equal(pe.encode([], 8).length, 0);
  const cache = pe.ropeCache([], 8);
  assert.equal(cache.cos.length, 0);
  assert.equal(cache.sin.length, 0);
  const x = new Float32Array(0);
  assert.equal(pe.applyRope(x, [], 8), x);
});

// The options argument is read as `{ ...options }` would read it: undefined is
// no options; anything but a non-Array object is refused naming `options`
// (never read as an empty set of options, nor left to a built-in's own error);
// only own enumerable string keys are options.
test('options that are not a plain object are refused naming options: null, a primitive, an Array, a revoked Proxy', () => {
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  const cases = [
    [null, 'null'],
    [5, '5'],
    ['vaswani', '"vaswani"'],
    [true, 'true'],
    [[], 'Array'],
    [[1, 2], 'Array'],
    [revoked.proxy, 'a revoked Proxy'],
  ];
  for (const [options, shown] of cases) {
    refused(() => pe.encode([0, 1], 8, options), TypeError, /^sinpe: options must be an object, got /, ends(`got ${shown}`));
    refused(() => pe.table(2, 8, options), TypeError, ends(`options must be an object, got ${shown}`));
  }
  // undefined is no options: the defaults (vaswani, base 10000).
  const got = pe.encode([3], 8, undefined);
  const want = referenceRow(3, 8);
  for (let j = 0; j < 8; j++) assert.ok(Math.abs(got[j] - want[j]) <= TOLERANCE, `column ${j}`);
});

test('a non-enumerable own key of options is no option: ignored, whatever it holds', () => {
  const options = {};
  Object.defineProperty(options, 'base', { value: -1, enumerable: false });
  Object.defineProperty(options, 'noSuchOption', { value: 1, enumerable: false });
  const got = pe.encode([0, 5, 1000.5], 8, options);
  [0, 5, 1000.5].forEach((p, i) => {
    const want = referenceRow(p, 8);
    for (let j = 0; j < 8; j++) assert.ok(Math.abs(got[i * 8 + j] - want[j]) <= TOLERANCE, `row ${i}, column ${j}`);
  });
  // The same keys enumerable are read (and refused).
  refused(() => pe.encode([0], 8, { base: -1 }), RangeError, /options\.base/);
  refused(() => pe.encode([0], 8, { noSuchOption: 1 }), TypeError, /unknown option "noSuchOption"/);
});
