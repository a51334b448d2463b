// Checks and conversions of JavaScript arguments for the package API. Each
// function returns a value the module can use as is, or throws a TypeError
// (wrong type) or RangeError (value out of range) whose message starts with
// `sinpe: ` and names the argument.
//
// Hostile callers are expected. Typed arrays are recognised by their internal
// slots through the intrinsic %TypedArray%.prototype getters, captured below
// when this module loads, so a Proxy, an object inheriting from a typed-array
// prototype, an own `length` property or a getter patched in later cannot
// change what is checked. Nothing here reads a property of a caller's object
// except where a function's comment says so (option values, Array elements),
// and each of those is read exactly once.

import vocabulary from '../dist/sinpe-vocabulary.js';

// Limits of one call, defined in the C++ core (vocabulary.def).
const LIMITS = vocabulary.limits;

const { apply, getOwnPropertyDescriptor, getPrototypeOf } = Reflect;
// The string keys of [[OwnPropertyKeys]] (a Proxy's ownKeys trap runs once, as for
// Reflect.ownKeys); V8 answers a plain object from its enum cache.
const { create, getOwnPropertyNames } = Object;
// isEnumerable(o, key): o's own property `key` exists and is enumerable.
const isEnumerable = Function.prototype.call.bind(Object.prototype.propertyIsEnumerable);
const { isArray } = Array;
const { isInteger, isSafeInteger } = Number;
const { log2 } = Math;
const stringify = JSON.stringify;

const NO_ARGS = Object.freeze([]);
const TypedArrayPrototype = getPrototypeOf(Int8Array.prototype);
const getter = (proto, key) => getOwnPropertyDescriptor(proto, key)?.get;
const taTag = getter(TypedArrayPrototype, Symbol.toStringTag);
export const taLength = getter(TypedArrayPrototype, 'length');
export const taBuffer = getter(TypedArrayPrototype, 'buffer');
export const taByteOffset = getter(TypedArrayPrototype, 'byteOffset');
export const taSet = TypedArrayPrototype.set;
const taAt = TypedArrayPrototype.at;
const abByteLength = getter(ArrayBuffer.prototype, 'byteLength');
// Engines without ArrayBuffer.prototype.detached (Node 20) detect it by construction below.
const abDetached = getter(ArrayBuffer.prototype, 'detached');
const sabByteLength = typeof SharedArrayBuffer === 'function' ? getter(SharedArrayBuffer.prototype, 'byteLength') : undefined;
const dvByteOffset = getter(DataView.prototype, 'byteOffset');
const Uint8ArrayCtor = Uint8Array;
const Float64ArrayCtor = Float64Array;

// Typed-array constructors by their intrinsic name ([[TypedArrayName]]).
const CONSTRUCTORS = new Map(
  [
    Int8Array,
    Uint8Array,
    Uint8ClampedArray,
    Int16Array,
    Uint16Array,
    Int32Array,
    Uint32Array,
    Float32Array,
    Float64Array,
    globalThis.Float16Array,
    globalThis.BigInt64Array,
    globalThis.BigUint64Array,
  ]
    .filter((C) => typeof C === 'function')
    .map((C) => [C.name, C]),
);
const NAMES = new Map([...CONSTRUCTORS].map(([name, C]) => [C, name]));
/** Every typed-array constructor this engine has (a list of ids or sizes may come in any). */
export const TYPED_ARRAYS = Object.freeze([...CONSTRUCTORS.values()]);
export const NUMERIC_TYPES = [...CONSTRUCTORS.values()].filter((C) => !NAMES.get(C).startsWith('Big'));

// Calls a captured built-in with `self` as this and at most one argument.
// Fixed arity: a rest parameter would allocate on every call of these hot paths.
export function call(fn, self, a) {
  if (a !== undefined) return apply(fn, self, [a]);
  return apply(fn, self, NO_ARGS);
}

// The [[TypedArrayName]] of a real typed array (any realm, subclasses too), else undefined.
export function typedArrayName(v) {
  return call(taTag, v);
}

export function isArrayBuffer(v) {
  try {
    call(abByteLength, v); // throws for anything but an ArrayBuffer (a SharedArrayBuffer too)
    return true;
  } catch {
    return false;
  }
}

function isSharedArrayBuffer(v) {
  if (sabByteLength === undefined) return false;
  try {
    call(sabByteLength, v);
    return true;
  } catch {
    return false;
  }
}

function isDataView(v) {
  try {
    call(dvByteOffset, v);
    return true;
  } catch {
    // A DataView over a detached buffer also throws here; describe() then says Object.
    return false;
  }
}

// Whether an ArrayBuffer (never a SharedArrayBuffer) is detached.
export function isDetached(buffer) {
  if (abDetached !== undefined) return call(abDetached, buffer);
  try {
    new Uint8ArrayCtor(buffer, 0, 0); // a TypeError only when the buffer is detached
    return false;
  } catch {
    return true;
  }
}

// Whether a typed array is detached or out of bounds: %TypedArray%.prototype.at
// validates the array before anything else and throws a TypeError for both.
export function unusable(typedArray) {
  try {
    call(taAt, typedArray, 0);
    return false;
  } catch {
    return true;
  }
}

// 2^24 rather than 16777216 in messages, as the documentation writes limits.
function limitText(n) {
  const e = log2(n);
  return isInteger(e) && e >= 10 ? `2^${e}` : String(n);
}

/**
 * A short description of a value for an error message. Runs no code of the
 * caller's (no getter, no Proxy trap, no toString) and never throws.
 */
export function describe(v) {
  switch (typeof v) {
    case 'string':
      return stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
    case 'bigint':
      return `${v}n`;
    case 'symbol':
      return 'a symbol';
    case 'function':
      return 'a function';
    case 'object':
      break;
    default:
      return String(v); // number, boolean, undefined
  }
  if (v === null) return 'null';
  const name = typedArrayName(v);
  if (name !== undefined) return name;
  if (isArrayBuffer(v)) return 'ArrayBuffer';
  if (isSharedArrayBuffer(v)) return 'SharedArrayBuffer';
  if (isDataView(v)) return 'DataView';
  try {
    if (isArray(v)) return 'Array';
  } catch {
    return 'a revoked Proxy';
  }
  return 'Object';
}

/** Throws `new ErrorType('sinpe: ' + message)`. */
export function fail(ErrorType, message) {
  throw new ErrorType(`sinpe: ${message}`);
}

/**
 * Refuses `rows × width` values beyond the element limit of one result
 * (checked before anything of that size is allocated).
 */
export function checkElements(name, rows, width = 1) {
  if (rows * width > LIMITS.maxElements) {
    const what = width === 1 ? `${rows} values` : `${rows} × ${width} values`;
    fail(RangeError, `${name}: ${what} exceed the ${limitText(LIMITS.maxElements)}-element (2 GiB) limit of one result`);
  }
}

function expectedTypes(Types) {
  return `a ${Types.map((T) => NAMES.get(T) ?? String(T?.name)).join(' or ')}`;
}

/**
 * A real typed array of one of `Types` (constructors, e.g. [Float32Array]).
 *
 * Refused with a TypeError: anything without a typed array's internal slots
 * (Proxies, objects inheriting from a typed-array prototype, frozen
 * look-alikes), other typed-array kinds, arrays over a SharedArrayBuffer
 * (unless `shared`, for inputs that are copied before use), arrays
 * whose buffer is detached (`<name> is detached`) and fixed-length arrays left
 * out of bounds by a resizable buffer that shrank (`<name> is out of bounds`).
 *
 * The array's own properties are never read: an own `length` (or `set`,
 * `subarray`, …) shadowing the prototype's is ignored, and the TRUE length,
 * buffer and offset come from the intrinsic getters. Pass `view` (a new,
 * plain typed array of the same kind over the same memory) to the module,
 * never `array`, so that nothing downstream reads the caller's object.
 *
 * Returns { array, view, type, length, buffer, byteOffset, byteLength }.
 */
export function typedArrayArg(name, value, Types, shared = false) {
  const type = typeof value === 'object' && value !== null ? typedArrayName(value) : undefined;
  const Type = type === undefined ? undefined : CONSTRUCTORS.get(type);
  if (Type === undefined || !Types.includes(Type)) {
    const got = describe(value);
    const hint = got === 'Object' ? ' (a Proxy or an object that only looks like a typed array is not one)' : '';
    fail(TypeError, `${name} must be ${expectedTypes(Types)}, got ${got}${hint}`);
  }
  const buffer = call(taBuffer, value);
  const length = call(taLength, value);
  // ArrayBuffer first: the usual case answers without an exception.
  if (!isArrayBuffer(buffer) && isSharedArrayBuffer(buffer)) {
    if (!shared) fail(TypeError, `${name} must not be backed by a SharedArrayBuffer`);
  } else if (length === 0 && unusable(value)) {
    // Detached or out of bounds, an array reports length 0, so only empty arrays need the test.
    if (isDetached(buffer)) fail(TypeError, `${name} is detached (its ArrayBuffer was transferred)`);
    fail(TypeError, `${name} is out of bounds (its resizable ArrayBuffer shrank below it)`);
  }
  const byteOffset = call(taByteOffset, value);
  const view = new Type(buffer, byteOffset, length);
  return { array: value, view, type, length, buffer, byteOffset, byteLength: length * Type.BYTES_PER_ELEMENT };
}

/** A typed array of exactly `Type` and `length` the module writes into (see typedArrayArg). */
export function outArg(name, value, Type, length) {
  const info = typedArrayArg(name, value, [Type]);
  if (info.length !== length) fail(RangeError, `${name} must have length ${length}, got ${info.length}`);
  return info;
}

const Uint16ArrayCtor = Uint16Array;

/**
 * The `out` of a half-precision result of `dtype` ('float16' or 'bfloat16')
 * and `length` values: a Uint16Array, or for float16 a Float16Array where the
 * engine has one (its elements are binary16 already). Returns typedArrayArg's
 * fields with `view` a plain Uint16Array over the same memory, so the bit
 * patterns are written as they are.
 */
export function halfOutArg(name, value, dtype, length) {
  const F16 = CONSTRUCTORS.get('Float16Array');
  const info = typedArrayArg(name, value, dtype === 'float16' && F16 !== undefined ? [Uint16ArrayCtor, F16] : [Uint16ArrayCtor]);
  if (info.length !== length) fail(RangeError, `${name} must have length ${length}, got ${info.length}`);
  if (info.type !== 'Uint16Array') info.view = new Uint16ArrayCtor(info.buffer, info.byteOffset, length);
  return info;
}

/**
 * Bytes given as an ArrayBuffer or a Uint8Array (a Node Buffer is one), as a
 * plain Uint8Array over the same memory (not a copy). Refuses other types,
 * SharedArrayBuffers and detached buffers.
 */
export function bytesArg(name, value) {
  if (typeof value === 'object' && value !== null && isArrayBuffer(value)) {
    if (isDetached(value)) fail(TypeError, `${name} is detached (its ArrayBuffer was transferred)`);
    return new Uint8ArrayCtor(value);
  }
  if (typeof value !== 'object' || value === null || typedArrayName(value) !== 'Uint8Array') {
    const got = describe(value);
    const hint = got === 'Object' ? ' (a Proxy or an object that only looks like one is not one)' : '';
    fail(TypeError, `${name} must be an ArrayBuffer or a Uint8Array, got ${got}${hint}`);
  }
  return typedArrayArg(name, value, [Uint8ArrayCtor]).view;
}

/** Whether two typedArrayArg results share any byte of memory. */
export function overlaps(a, b) {
  return (
    a.buffer === b.buffer &&
    a.byteLength > 0 &&
    b.byteLength > 0 &&
    a.byteOffset < b.byteOffset + b.byteLength &&
    b.byteOffset < a.byteOffset + a.byteLength
  );
}

// A new Float64Array(n) for a copy of `name`'s values.
export function freshCopy(name, n) {
  try {
    return new Float64ArrayCtor(n);
  } catch (e) {
    if (e instanceof RangeError) fail(RangeError, `${name}: no memory for a copy of its ${n} values`);
    throw e;
  }
}

// A fresh Float64Array copy of an Array (each element read once, each must be
// a number) or of a numeric typed array. Values are the core's to check.
// Longer than `most`: a TooLong of its length, no element read.
export function numbersCopy(name, value, width, most = Infinity) {
  let n;
  let arrayLike = false;
  try {
    arrayLike = isArray(value);
  } catch {
    fail(TypeError, `${name} must be an Array or a numeric typed array, got a revoked Proxy`);
  }
  let info;
  if (arrayLike) {
    n = value.length; // a Proxy's trap runs here, once
    if (!isSafeInteger(n) || n < 0) fail(RangeError, `${name}.length must be a non-negative integer, got ${describe(n)}`);
  } else {
    const type = typeof value === 'object' && value !== null ? typedArrayName(value) : undefined;
    if (type === undefined || type.startsWith('Big')) {
      const got = describe(value);
      const hint = got === 'Object' ? ' (a Proxy or an object that only looks like a typed array is not one)' : '';
      fail(TypeError, `${name} must be an Array or a numeric typed array, got ${got}${hint}`);
    }
    info = typedArrayArg(name, value, NUMERIC_TYPES, true);
    n = info.length;
  }
  checkElements(name, n, width);
  if (n > most) return new TooLong(n);
  const copy = freshCopy(name, n);
  if (arrayLike) {
    for (let i = 0; i < n; i++) {
      const v = value[i]; // an element getter or Proxy trap runs here, once per index
      if (typeof v !== 'number') fail(TypeError, `${name}[${i}] must be a number, got ${describe(v)}`);
      copy[i] = v;
    }
  } else {
    call(taSet, copy, info.view);
  }
  return copy;
}

/**
 * A list of numbers (an option such as a per-frequency factor) as a
 * fresh Float64Array copy; Array or numeric typed array as for positionsArg.
 * Its length and values are the core's to check. One longer than any plan
 * reads (the core's widest head, limits.maxDModel: the request block's
 * longest array) is a TooLong: the core gets its length alone and refuses it
 * with the option's own status, its elements never read or copied.
 */
export function numberArrayArg(name, value) {
  return numbersCopy(name, value, 1, LIMITS.maxDModel);
}

/** An array option's length, without its elements (see numberArrayArg). */
export class TooLong {
  constructor(length) {
    this.length = length;
    Object.freeze(this);
  }
}

// A snapshot's prototype: empty, frozen, itself without one, so a snapshot
// inherits nothing (a polluted Object.prototype is not in its chain) and an
// own key such as `__proto__` is a plain data property. Made with `new`
// rather than Object.create(null), a snapshot stays a fast-mode object.
function Snapshot() {}
Snapshot.prototype = Object.freeze(create(null));

/**
 * The options object as a snapshot that inherits nothing (a Snapshot):
 * `undefined` gives an empty one; null, a non-object or an Array is a
 * TypeError. Holds each OWN
 * ENUMERABLE STRING key of `options` (as `{ ...options }` would; inherited and
 * symbol keys are not options), each value read exactly once: a getter runs
 * once, here, and every later check sees the value it returned. Take the
 * snapshot before checking any other argument, so that what a getter does to
 * another argument (detach it, shrink it) is seen by that argument's check.
 */
export function snapshotOptions(name, options) {
  const snapshot = new Snapshot();
  if (options === undefined) return snapshot;
  if (options === null || typeof options !== 'object') fail(TypeError, `${name} must be an object, got ${describe(options)}`);
  let array;
  try {
    array = isArray(options);
  } catch {
    fail(TypeError, `${name} must be an object, got a revoked Proxy`);
  }
  if (array) fail(TypeError, `${name} must be an object, got Array`);
  for (const key of getOwnPropertyNames(options)) {
    // [[GetOwnProperty]] once (a Proxy's getOwnPropertyDescriptor trap), as
    // Reflect.getOwnPropertyDescriptor, without a descriptor object per key.
    if (isEnumerable(options, key)) snapshot[key] = options[key];
  }
  return snapshot;
}

/**
 * An `out` argument { cos, sin } of a RoPE cache, read by the rule above (its
 * own enumerable keys, each once): a plain object holding both arrays and
 * nothing else, returned as { cos, sin } (undefined when `out` is). Anything
 * else (a typed array, an Array, {}, { cos } alone) is a TypeError, never
 * ignored: the caller expects its arrays written. The arrays themselves are
 * checked when the call has its length (outArg, halfOutArg).
 */
export function cacheOutArg(name, out) {
  if (out === undefined) return undefined;
  const what = `${name} must be an object { cos, sin } holding the two arrays to write`;
  const kind = describe(out);
  if (kind !== 'Object') fail(TypeError, `${what}, got ${kind}`);
  const o = snapshotOptions(name, out);
  for (const key of Object.keys(o)) if (key !== 'cos' && key !== 'sin') fail(TypeError, `${what}; it has the unknown key ${describe(key)}`);
  for (const key of ['cos', 'sin']) if (o[key] === undefined) fail(TypeError, `${what}; ${name}.${key} is missing`);
  return { cos: o.cos, sin: o.sin };
}
