// The positions readers of the package API (split from args.js, whose rules
// and helpers they use): positions are read once, by the same rule as every
// argument, but typed arrays stay where they are until the chunk loop reads
// them (js/engine.js), so they are checked again when the call's read phase
// ends and copied only when the call writes their memory.
import {
  call,
  checkElements,
  fail,
  freshCopy,
  isArrayBuffer,
  isDetached,
  numbersCopy,
  NUMERIC_TYPES,
  overlaps,
  taBuffer,
  taByteOffset,
  taLength,
  taSet,
  typedArrayArg,
  typedArrayName,
  unusable,
} from './args.js';

// Positions positionsArg left in the caller's memory: its plain views (never
// an object of the caller's), which positionsChecked checks again.
const VIEWS = new WeakSet();

// The ArrayBuffers of loaded modules' memories (engine.js notes each one it
// sees): memory the module writes, and detaches when it grows.
const MEMORIES = new WeakSet();

/** Notes `buffer` as a loaded module's memory. */
export function moduleMemory(buffer) {
  MEMORIES.add(buffer);
}

/**
 * Positions, for the module to read later, once: a numeric typed array
 * (brand-checked; BigInt arrays refused) as a plain view of the caller's
 * memory (typedArrayArg's `view`, not a copy), or a fresh Float64Array copy
 * of an Array (sparse ones too; each element read exactly once and must be a
 * number), of a typed array over a SharedArrayBuffer (whose values another
 * thread may change while the call runs) or of one in a module's memory
 * (which the module writes, and detaches when it grows). The values
 * themselves are the core's to check (finite, |p| < 2^24), which names the
 * first bad one.
 *
 * `width` is the number of values each position yields in the result (dModel,
 * rotaryDim / 2, …): a length whose result would exceed the element limit is
 * refused before anything is allocated.
 *
 * Reading an Array's elements may run the caller's code (getters, Proxy
 * traps): call this BEFORE checking the other array arguments, so that code
 * cannot detach or shrink them after their check. Code of the caller's that
 * runs after this call (a getter of `out`) may change, detach or shrink a
 * typed array: hand the result to positionsChecked once the call's last
 * caller code has run, then to positionsToRead once its outputs are known.
 */
export function positionsArg(name, value, width = 1) {
  if (typeof value === 'object' && value !== null) {
    const type = typedArrayName(value);
    if (type !== undefined && !type.startsWith('Big')) {
      const info = typedArrayArg(name, value, NUMERIC_TYPES, true);
      if (isArrayBuffer(info.buffer) && !MEMORIES.has(info.buffer)) {
        checkElements(name, info.length, width);
        VIEWS.add(info.view);
        return info.view;
      }
    }
  }
  return numbersCopy(name, value, width);
}

// The bytes a plain typed array of this module's own covers (intrinsic getters).
function span(a) {
  const bytes = call(taLength, a) * a.BYTES_PER_ELEMENT;
  return { buffer: call(taBuffer, a), byteOffset: call(taByteOffset, a), byteLength: bytes };
}

/**
 * positionsArg's result once the call's read phase is over (no code of the
 * caller's runs after it): a view of the caller's memory is checked again, as
 * a getter that ran after positionsArg may have detached it or shrunk its
 * resizable buffer (the same TypeError naming `name`). Its values are the ones
 * read from here on.
 */
export function positionsChecked(name, positions) {
  if (VIEWS.has(positions) && call(taLength, positions) === 0 && unusable(positions)) {
    if (isDetached(call(taBuffer, positions))) fail(TypeError, `${name} is detached (its ArrayBuffer was transferred)`);
    fail(TypeError, `${name} is out of bounds (its resizable ArrayBuffer shrank below it)`);
  }
  return positions;
}

/**
 * The positions a call's chunk loop reads (positionsChecked's result), once
 * the arrays the call writes are known: a view of the caller's memory is read
 * where it is, unless the call itself writes there: it is copied (a fresh
 * Float64Array) when it shares memory with any of `written` (the plain typed
 * arrays the call fills). The chunk loop may then read it twice (the check of
 * a list spanning several chunks, then chunk by chunk): nothing changes it in
 * between.
 */
export function positionsToRead(name, positions, written) {
  if (!VIEWS.has(positions)) return positions; // a private copy
  const own = span(positions);
  let shared = false;
  for (let k = 0; k < written.length && !shared; k++) shared = overlaps(own, span(written[k]));
  if (!shared) return positions;
  const copy = freshCopy(name, own.byteLength / positions.BYTES_PER_ELEMENT);
  call(taSet, copy, positions);
  return copy;
}
