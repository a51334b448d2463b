// The batch of getRopeIndex (js/rope-index.js; docs/rope-index-batch.md): the
// forms its lists arrive in (an Array, a typed array, a tensor { data, dims }
// such as transformers.js keeps input_ids), each read once with its sizes
// checked before anything of that size is read; inputIds and the attention
// mask as one sequence or rows of equal length; the layout of the rows with
// ONE queue of image grids and one of video grids for the whole batch (row b
// takes the grids after those rows 0 … b−1 took: get_mrope_index's grid
// iterators); and output 'tensors', the shapes of transformers' and
// transformers.js's get_rope_index (int64 position ids [3, B, S], deltas
// [B, 1]).

import vocabulary from '../dist/sinpe-vocabulary.js';
import { fail, describe, checkElements, typedArrayArg, TYPED_ARRAYS } from './args.js';

const LIMITS = vocabulary.limits;
export const AXES = 3;
const TEXT = 0;
const IMAGE = 1;
const VIDEO = 2;
const BigInt64ArrayCtor = BigInt64Array;
const toBigInt = BigInt;

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export const isTypedArray = (v) => ArrayBuffer.isView(v) && !(v instanceof DataView);

// A list (an Array, or a typed array read through a fresh view of its memory,
// a SharedArrayBuffer's too: its values are copied) and its length, read
// once; undefined for anything else.
function listInfo(name, value) {
  if (Array.isArray(value)) return { array: value, length: value.length };
  if (isTypedArray(value)) {
    const { view, length } = typedArrayArg(name, value, TYPED_ARRAYS, true);
    return { array: view, length };
  }
  return undefined;
}

// A list's elements as a plain array, each read once, its length checked
// against `max` before any element is read. `first`, when given, is element 0
// already read.
function readList(name, info, max, limitName, first) {
  if (info.length > max) fail(RangeError, `${name} must hold at most ${max} ${limitName}, got ${info.length}`);
  const out = new Array(info.length);
  for (let i = 0; i < info.length; i++) out[i] = i === 0 && first !== undefined ? first.value : info.array[i];
  return out;
}

export function listArg(name, value, max, limitName) {
  const info = listInfo(name, value);
  if (info === undefined) fail(TypeError, `${name} must be an array or a typed array, got ${describe(value)}`);
  return readList(name, info, max, limitName);
}

// A tensor as transformers.js keeps one: an object (not a list) with `dims`
// and `data`, each read once. Returns { dims, data }; the caller checks the
// sizes before reading anything of data (tensorData). `what` says
// which lists the argument may also be, for the message of an object without
// dims.
export function tensorArg(name, value, rank, what) {
  const dims = value.dims;
  if (dims === undefined) fail(TypeError, `${name} must be ${what}, got ${describe(value)} without dims`);
  const data = value.data;
  const d = listArg(`${name}.dims`, dims, 8, 'dimensions').map((v, i) => integerArg(`${name}.dims[${i}]`, v));
  if (d.length !== rank || d.some((v) => v < 0)) {
    fail(RangeError, `${name}.dims must be ${rank === 2 ? '[rows, columns]' : `${rank} sizes`}, got [${d.join(', ')}]`);
  }
  return { dims: d, data };
}

// A tensor's data, once its dims are checked: exactly `count` values.
export function tensorData(name, data, count, dims) {
  const info = listInfo(`${name}.data`, data);
  if (info === undefined) fail(TypeError, `${name}.data must be an array or a typed array, got ${describe(data)}`);
  const what = `${dims.join(' × ')} values (its dims)`;
  if (info.length !== count) fail(RangeError, `${name}.data must hold ${what}, got ${info.length}`);
  return readList(`${name}.data`, info, count, what);
}

// Any other object is read as a tensor (tensorArg refuses one without dims).
export const isTensor = (v) => typeof v === 'object' && v !== null && !Array.isArray(v) && !ArrayBuffer.isView(v) && !(v instanceof ArrayBuffer);
const MATRIX_FORMS = 'an array or a typed array (one sequence, or an array of rows), or a tensor { data, dims: [rows, columns] }';

// An integer (a number or a bigint, as transformers.js keeps token ids) as a number.
export function integerArg(name, value) {
  if (typeof value === 'bigint') {
    if (value > toBigInt(Number.MAX_SAFE_INTEGER) || value < -toBigInt(Number.MAX_SAFE_INTEGER)) {
      fail(RangeError, `${name} must be a safe integer, got ${value}n`);
    }
    return Number(value);
  }
  if (typeof value !== 'number' || Number.isNaN(value)) fail(TypeError, `${name} must be an integer, got ${describe(value)}`);
  if (!Number.isSafeInteger(value)) fail(RangeError, `${name} must be a safe integer, got ${value}`);
  return value;
}

export function positiveIntegerArg(name, value) {
  const v = integerArg(name, value);
  if (v < 1) fail(RangeError, `${name} must be a positive integer, got ${v}`);
  return v;
}

// The token limits, from the core: at most maxAbsPosition tokens a row (the
// positions must stay below it), and the result (3 values a token) within
// maxElements. Checked before anything of that size is read or allocated.
function checkTokens(name, rows, columns) {
  if (columns > LIMITS.maxAbsPosition) {
    fail(RangeError, `${name} must hold at most ${LIMITS.maxAbsPosition} tokens${rows > 1 ? ' a row' : ''}, got ${columns}`);
  }
  checkElements(name, rows * columns, AXES);
}

/**
 * inputIds or the attention mask in one of its forms, as { batched, rows,
 * columns, values: rows arrays of columns numbers }:
 * - one sequence: a flat Array or typed array (batched false);
 * - a batch: an Array of rows (Arrays or typed arrays) of equal length;
 * - a batch as a tensor { data, dims: [rows, columns] } (transformers.js).
 * `convert(name, v)` checks and converts each element; `fast(v)`, when it
 * returns a value, spares building the element's name for the usual case.
 */
function matrixArg(name, value, convert, fast) {
  const element = (v, elementName) => {
    const f = fast(v);
    return f !== undefined ? f : convert(elementName(), v);
  };
  if (isTensor(value)) {
    const { dims, data } = tensorArg(name, value, 2, MATRIX_FORMS);
    const [rows, columns] = dims;
    if (rows === 0 || columns === 0) fail(RangeError, `${name} must hold at least one token (dims [${rows}, ${columns}])`);
    checkTokens(name, rows, columns);
    const flat = tensorData(name, data, rows * columns, dims);
    const values = [];
    for (let b = 0; b < rows; b++) {
      const row = new Array(columns);
      for (let j = 0; j < columns; j++) row[j] = element(flat[b * columns + j], () => `${name}.data[${b * columns + j}]`);
      values.push(row);
    }
    return { batched: true, rows, columns, values };
  }
  const info = listInfo(name, value);
  if (info === undefined) {
    fail(TypeError, `${name} must be ${MATRIX_FORMS}, got ${describe(value)}`);
  }
  // Every form gives at least three values per entry: a length past the
  // result limit is refused before any element is read.
  checkElements(name, info.length, AXES);
  if (info.length === 0) fail(RangeError, `${name} must hold at least one token`);
  const first = info.array[0]; // tells one sequence from a batch; read once, reused below
  const firstInfo = listInfo(`${name}[0]`, first);
  if (firstInfo === undefined) {
    checkTokens(name, 1, info.length);
    const flat = readList(name, info, LIMITS.maxAbsPosition, 'tokens', { value: first });
    return { batched: false, rows: 1, columns: flat.length, values: [flat.map((v, j) => element(v, () => `${name}[${j}]`))] };
  }
  const rows = info.length;
  const columns = firstInfo.length;
  if (columns === 0) fail(RangeError, `${name}[0] must hold at least one token`);
  checkTokens(name, rows, columns);
  const values = [];
  for (let b = 0; b < rows; b++) {
    const rowName = `${name}[${b}]`;
    const row = b === 0 ? first : info.array[b];
    const rowInfo = b === 0 ? firstInfo : listInfo(rowName, row);
    if (rowInfo === undefined) fail(TypeError, `${rowName} must be an array or a typed array (a row of the batch), got ${describe(row)}`);
    if (rowInfo.length !== columns) fail(RangeError, `${rowName} must have ${columns} entries like ${name}[0], got ${rowInfo.length}`);
    values.push(readList(rowName, rowInfo, columns, 'tokens').map((v, j) => element(v, () => `${rowName}[${j}]`)));
  }
  return { batched: true, rows, columns, values };
}

// The usual elements, converted without a name: safe integers, 0 / 1 mask values.
const MAX_BIG = toBigInt(Number.MAX_SAFE_INTEGER);
function fastInteger(v) {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? v : undefined;
  if (typeof v === 'bigint' && v <= MAX_BIG && v >= -MAX_BIG) return Number(v);
  return undefined;
}
function fastMask(v) {
  if (v === 0 || v === 1) return v;
  if (v === 0n || v === 1n) return Number(v);
  return undefined;
}

function maskValue(name, v) {
  const m = integerArg(name, v);
  if (m !== 0 && m !== 1) fail(RangeError, `${name} must be 0 or 1, got ${m}`);
  return m;
}

/** inputIds (one sequence, rows, or a tensor), as matrixArg reads it. */
export const inputIdsArg = (value) => matrixArg('inputIds', value, integerArg, fastInteger);

/** options.attentionMask, the shape of inputIds (`input`, as inputIdsArg read it). */
export function attentionMaskArg(value, input) {
  const { rows, columns } = input;
  const mask = matrixArg('options.attentionMask', value, maskValue, fastMask);
  if (!input.batched && (mask.batched || mask.columns !== columns)) {
    const got = mask.batched ? `[${mask.rows}, ${mask.columns}]` : mask.columns;
    fail(RangeError, `options.attentionMask must have one entry per token (${columns}), got ${got}`);
  }
  if (input.batched && (!mask.batched || mask.rows !== rows || mask.columns !== columns)) {
    const got = mask.batched ? `[${mask.rows}, ${mask.columns}]` : `one sequence of ${mask.columns}`;
    fail(RangeError, `options.attentionMask must be [${rows}, ${columns}] like inputIds, got ${got}`);
  }
  return mask;
}

const GRID_NAME = { [IMAGE]: 'options.imageGridThw', [VIDEO]: 'options.videoGridThw' };
const KIND_NAME = { [IMAGE]: 'image', [VIDEO]: 'video' };

/**
 * The rows of a batch laid out, one { positions, ropeDelta } per row, the
 * grids taken from one queue per kind (see the file comment); every grid must
 * be taken by some row. `input` and `mask` as inputIdsArg and
 * attentionMaskArg read them; `o`: { imageTokenId, videoTokenId,
 * visionStartTokenId, imageGrids, videoGrids, intervals, merge, model }.
 */
export function layoutBatch(input, mask, o) {
  const { imageTokenId, videoTokenId, model } = o;
  const rows = input.rows;
  // One queue of grids per kind for the whole batch.
  const layout = {
    typeOf: (id) => (id === imageTokenId ? IMAGE : id === videoTokenId ? VIDEO : TEXT),
    grids: { [IMAGE]: o.imageGrids, [VIDEO]: o.videoGrids },
    used: { [IMAGE]: 0, [VIDEO]: 0 },
    intervals: o.intervals,
    merge: o.merge,
    visionStartTokenId: o.visionStartTokenId,
  };
  const results = [];
  for (let b = 0; b < rows; b++) {
    const name = input.batched ? (j) => `inputIds[${b}][${j}]` : (j) => `inputIds[${j}]`;
    const maskName = input.batched ? `options.attentionMask[${b}]` : 'options.attentionMask';
    results.push(layoutRow(input.values[b], mask?.values[b], layout, name, maskName));
  }
  for (const kind of [IMAGE, VIDEO]) {
    const { grids, used } = layout;
    if (used[kind] !== grids[kind].length) {
      fail(
        RangeError,
        `${GRID_NAME[kind]} has ${grids[kind].length} grids` +
          (model === 'qwen3-vl' && kind === VIDEO ? ' (one per frame)' : '') +
          ` but inputIds has ${used[kind]} ${KIND_NAME[kind]} runs`,
      );
    }
  }
  return results;
}

/** The rows' results as output 'tensors' (see the file comment). */
export function tensorsOf(results, rows, columns) {
  const tokens = rows * columns;
  const positionIds = new BigInt64ArrayCtor(AXES * tokens);
  const ropeDeltas = new BigInt64ArrayCtor(rows);
  // int64 written as two int32 halves where the engine is little-endian
  // (a BigInt per value would be allocated and collected).
  const halves = LITTLE_ENDIAN ? new Int32Array(positionIds.buffer) : undefined;
  results.forEach(({ positions, ropeDelta }, b) => {
    for (let j = 0; j < columns; j++) {
      for (let a = 0; a < AXES; a++) {
        const i = a * tokens + b * columns + j;
        const p = positions[j * AXES + a];
        if (halves !== undefined && p >= -0x80000000 && p <= 0x7fffffff) {
          halves[2 * i] = p;
          halves[2 * i + 1] = p < 0 ? -1 : 0;
        } else positionIds[i] = toBigInt(p);
      }
    }
    ropeDeltas[b] = toBigInt(ropeDelta);
  });
  return {
    positionIds: { type: 'int64', data: positionIds, dims: [AXES, rows, columns] },
    ropeDeltas: { type: 'int64', data: ropeDeltas, dims: [rows, 1] },
  };
}

// One row: its runs laid out from position 0, the grids taken from the
// layout's queues. Padded tokens keep position 0.
function layoutRow(ids, maskRow, layout, tokenName, maskName) {
  const { typeOf, grids, used, intervals, merge, visionStartTokenId } = layout;
  let valid;
  if (maskRow !== undefined) {
    valid = [];
    maskRow.forEach((m, i) => {
      if (m === 1) valid.push(i);
    });
    if (valid.length === 0) fail(RangeError, `${maskName} masks every token`);
  } else valid = ids.map((_, i) => i);

  const positions = new Float64Array(ids.length * AXES);
  let current = 0;
  let largest = -Infinity;
  const put = (slot, t, h, w) => {
    positions[slot * AXES] = t;
    positions[slot * AXES + 1] = h;
    positions[slot * AXES + 2] = w;
    largest = Math.max(largest, t, h, w);
  };

  for (let start = 0; start < valid.length; ) {
    const kind = typeOf(ids[valid[start]]);
    let end = start + 1;
    while (end < valid.length && typeOf(ids[valid[end]]) === kind) end++;
    const length = end - start;
    if (kind === TEXT) {
      for (let k = 0; k < length; k++) put(valid[start + k], current + k, current + k, current + k);
      current += length;
    } else {
      const index = used[kind]++;
      const grid = index < grids[kind].length ? grids[kind][index] : undefined;
      const first = tokenName(valid[start]);
      if (grid === undefined) {
        fail(
          RangeError,
          `inputIds has more ${KIND_NAME[kind]} runs than ${GRID_NAME[kind]} has grids (${grids[kind].length}): ` +
            `the run at ${first} has none`,
        );
      }
      if (visionStartTokenId !== undefined && (start === 0 || ids[valid[start - 1]] !== visionStartTokenId)) {
        fail(RangeError, `${first} starts a ${KIND_NAME[kind]} run without options.visionStartTokenId before it`);
      }
      const [t, h, w] = grid;
      const gh = h / merge;
      const gw = w / merge;
      if (length !== t * gh * gw) {
        fail(
          RangeError,
          `the ${KIND_NAME[kind]} run at ${first} has ${length} tokens; ${GRID_NAME[kind]}[${index}] = ` +
            `[${t}, ${h}, ${w}] with spatialMergeSize ${merge} needs ${t * gh * gw}`,
        );
      }
      const interval = kind === VIDEO ? intervals[index] : 1;
      let k = start;
      for (let ti = 0; ti < t; ti++) {
        // torch: arange(t) * interval in float32, truncated to an integer
        const dt = Math.trunc(Math.fround(Math.fround(ti) * Math.fround(interval)));
        // positions are exact integers below 2^53; past float32's range the product is infinite (torch's .long()
        // of it is garbage): either way, refused rather than a NaN, an infinity or a rounded position
        if (!Number.isSafeInteger(current + dt)) {
          fail(
            RangeError,
            `the ${KIND_NAME[kind]} run at ${first}: frame ${ti} of ${GRID_NAME[kind]}[${index}] at temporal interval ${interval} ` +
              `(options.tokensPerSecond × options.secondPerGridTs[${index}]) gets ` +
              (Number.isFinite(dt)
                ? `position ${current} + ${dt}, past the largest exact integer 2^53 − 1`
                : `no position: frame × interval is past float32's range, in which transformers computes it`),
          );
        }
        for (let hi = 0; hi < gh; hi++) {
          for (let wi = 0; wi < gw; wi++) put(valid[k++], current + dt, current + hi, current + wi);
        }
      }
      current += Math.max(gh, gw);
    }
    start = end;
  }
  return { positions, ropeDelta: largest + 1 - valid.length };
}
