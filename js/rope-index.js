// The multimodal RoPE (M-RoPE) position ids of one text + image + video
// sequence, as the Qwen vision-language models compute them. Pure JavaScript:
// it returns positions for pe.ropeCache / pe.applyRope with options.mropeSection.
//
// transformers' Qwen2VLModel.get_rope_index, Qwen2_5_VLModel.get_rope_index
// and Qwen3VLModel.get_rope_index all call modeling_rope_utils.get_mrope_index
// with the layout 'interleaved_runs' (_mrope_index_interleaved_runs):
// - the sequence is cut into runs of text, image and video tokens (the
//   processor's mm_token_type_ids: 1 for image_token_id, 2 for video_token_id);
// - a text run counts on from the current position, the same on all three
//   axes (t, h, w);
// - an image or video run takes the next grid (t, h, w) of its kind; its
//   tokens are the grid merged by spatial_merge_size, in t, h, w order, at
//   (current + floor(k × interval), current + row, current + column)
//   (get_mrope_vision_positions), and the current position then moves on by
//   max(h, w) / spatial_merge_size;
// - the interval is 1, except for Qwen2.5-VL's videos:
//   tokens_per_second × int(second_per_grid_t) (vision_config.tokens_per_second;
//   second_per_grid_ts from the processor, 1 when absent);
// - Qwen3-VL writes a timestamp before each video frame, so each video grid
//   counts as t grids of one frame (vision_config.timestamped_video_frames);
// - padded tokens (attention mask 0) are skipped and keep position 0
//   (_mrope_place_positions); ropeDelta = largest position + 1 − the number
//   of unpadded tokens, what generation adds to the 1-D position of each
//   later token.
//
// A batch (rows of equal length, as nested lists or as a tensor { data, dims:
// [B, S] } such as transformers.js keeps input_ids) is laid out row by row
// with ONE queue of image grids and one of video grids for the whole batch:
// row b takes the grids after those rows 0 … b−1 took (get_mrope_index's
// grid iterators). output: 'tensors' answers in the shapes of transformers'
// and transformers.js's get_rope_index: int64 position ids [3, B, S] and
// deltas [B, 1].

import vocabulary from '../dist/sinpe-vocabulary.js';
import { fail, describe, snapshotOptions, checkElements, typedArrayArg, TYPED_ARRAYS } from './args.js';

const LIMITS = vocabulary.limits;
const MODELS = Object.freeze(['qwen2-vl', 'qwen2.5-vl', 'qwen3-vl']);
const OUTPUTS = Object.freeze(['rows', 'tensors']);
const AXES = 3;
const OPTION_NAMES = Object.freeze([
  'imageTokenId',
  'videoTokenId',
  'visionStartTokenId',
  'spatialMergeSize',
  'imageGridThw',
  'videoGridThw',
  'secondPerGridTs',
  'tokensPerSecond',
  'model',
  'attentionMask',
  'output',
]);
const TEXT = 0;
const IMAGE = 1;
const VIDEO = 2;
const BigInt64ArrayCtor = BigInt64Array;
const toBigInt = BigInt;

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

const isTypedArray = (v) => ArrayBuffer.isView(v) && !(v instanceof DataView);

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

function listArg(name, value, max, limitName) {
  const info = listInfo(name, value);
  if (info === undefined) fail(TypeError, `${name} must be an array or a typed array, got ${describe(value)}`);
  return readList(name, info, max, limitName);
}

// A tensor as transformers.js keeps one: an object (not a list) with `dims`
// and `data`, each read once. Returns { dims, data }; the caller checks the
// sizes before reading anything of data (tensorData). `what` says
// which lists the argument may also be, for the message of an object without
// dims.
function tensorArg(name, value, rank, what) {
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
function tensorData(name, data, count, dims) {
  const info = listInfo(`${name}.data`, data);
  if (info === undefined) fail(TypeError, `${name}.data must be an array or a typed array, got ${describe(data)}`);
  const what = `${dims.join(' × ')} values (its dims)`;
  if (info.length !== count) fail(RangeError, `${name}.data must hold ${what}, got ${info.length}`);
  return readList(`${name}.data`, info, count, what);
}

// Any other object is read as a tensor (tensorArg refuses one without dims).
const isTensor = (v) => typeof v === 'object' && v !== null && !Array.isArray(v) && !ArrayBuffer.isView(v) && !(v instanceof ArrayBuffer);
const MATRIX_FORMS = 'an array or a typed array (one sequence, or an array of rows), or a tensor { data, dims: [rows, columns] }';

// An integer (a number or a bigint, as transformers.js keeps token ids) as a number.
function integerArg(name, value) {
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

function positiveIntegerArg(name, value) {
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

// Grids as [[t, h, w], ...]: an array of triples, a flat list of 3k values, or
// a tensor { data, dims: [k, 3] } (transformers.js's image_grid_thw). At most
// `tokens` grids (each lays out at least one token).
function gridsArg(name, value, merge, tokens) {
  let triples;
  if (isTensor(value)) {
    const { dims, data } = tensorArg(name, value, 2, 'an array or a typed array of [t, h, w] triples, or a tensor { data, dims: [grids, 3] }');
    if (dims[1] !== 3) fail(RangeError, `${name}.dims must be [grids, 3], got [${dims.join(', ')}]`);
    if (dims[0] > tokens) fail(RangeError, `${name} must hold at most ${tokens} grids (one token each at least), got ${dims[0]}`);
    const flat = tensorData(name, data, 3 * dims[0], dims);
    triples = Array.from({ length: dims[0] }, (_, i) => flat.slice(3 * i, 3 * i + 3));
  } else {
    const list = listArg(name, value, 3 * tokens, 'values (three a grid, one token each at least)');
    const nested = list.length > 0 && list.every((g) => Array.isArray(g) || isTypedArray(g));
    if (nested) triples = list.map((g, i) => listArg(`${name}[${i}]`, g, 3, 'values'));
    else {
      if (list.length % 3 !== 0) fail(RangeError, `${name} must hold [t, h, w] triples, got ${list.length} values`);
      triples = Array.from({ length: list.length / 3 }, (_, i) => list.slice(3 * i, 3 * i + 3));
    }
  }
  return triples.map((g, i) => {
    if (g.length !== 3) fail(RangeError, `${name}[${i}] must be [t, h, w], got ${g.length} values`);
    const [t, h, w] = g.map((v, k) => positiveIntegerArg(`${name}[${i}][${k}]`, v));
    for (const [k, v] of [
      [1, h],
      [2, w],
    ]) {
      if (v % merge !== 0) fail(RangeError, `${name}[${i}][${k}] (${v}) must be a multiple of spatialMergeSize (${merge})`);
    }
    // A grid of more tokens than the input holds can match no run.
    if (t * (h / merge) * (w / merge) > tokens) {
      fail(RangeError, `${name}[${i}] = [${t}, ${h}, ${w}] needs ${t * (h / merge) * (w / merge)} tokens; inputIds holds ${tokens}`);
    }
    return [t, h, w];
  });
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

/**
 * M-RoPE position ids of one sequence or a batch (see the file comment).
 * inputIds: one sequence (Array or typed array of numbers or bigints), a batch
 * (an Array of such rows, of equal length) or a tensor { data, dims: [B, S] }.
 * opts: { imageTokenId, videoTokenId, visionStartTokenId, spatialMergeSize (2),
 *   imageGridThw, videoGridThw, secondPerGridTs, tokensPerSecond, model,
 *   attentionMask (inputIds' shape), output ('rows' | 'tensors') }.
 * Returns, with output 'rows' (the default), for one sequence
 * { positions: Float64Array(n × 3), token-major (positions[3i + a] is token
 * i's position on axis a: t, h, w), ropeDelta }, for a batch an Array of
 * those, one per row; with output 'tensors' { positionIds: { type: 'int64',
 * data: BigInt64Array, dims: [3, B, S] }, ropeDeltas: { type: 'int64', data:
 * BigInt64Array, dims: [B, 1] } } (B = 1 for one sequence).
 * Throws a TypeError or RangeError naming the argument at fault: grids that do
 * not match the image or video runs of inputIds, a run whose token count is
 * not its grid's, options a model does not read.
 */
export function getRopeIndex(inputIds, opts) {
  // Own enumerable keys only, each read once, before any other argument (as
  // for every options object of the package).
  const o = snapshotOptions('options', opts);
  for (const key of Object.keys(o)) {
    if (!OPTION_NAMES.includes(key)) {
      fail(TypeError, `unknown option '${key}'; getRopeIndex takes: ${OPTION_NAMES.join(', ')}`);
    }
    if (o[key] === undefined) delete o[key];
  }

  const input = matrixArg('inputIds', inputIds, integerArg, fastInteger);
  const { rows, columns } = input;
  const tokens = rows * columns;

  let output = 'rows';
  if (o.output !== undefined) {
    if (typeof o.output !== 'string') fail(TypeError, `options.output must be a string, got ${describe(o.output)}`);
    if (!OUTPUTS.includes(o.output)) fail(RangeError, `options.output must be one of ${OUTPUTS.join(', ')}; got ${describe(o.output)}`);
    output = o.output;
  }

  const merge = o.spatialMergeSize === undefined ? 2 : positiveIntegerArg('options.spatialMergeSize', o.spatialMergeSize);
  const tokenId = (key) => (o[key] === undefined ? undefined : integerArg(`options.${key}`, o[key]));
  const imageTokenId = tokenId('imageTokenId');
  const videoTokenId = tokenId('videoTokenId');
  const visionStartTokenId = tokenId('visionStartTokenId');
  if (imageTokenId !== undefined && imageTokenId === videoTokenId) {
    fail(RangeError, `options.videoTokenId must differ from options.imageTokenId (both ${imageTokenId})`);
  }

  let model;
  if (o.model !== undefined) {
    if (typeof o.model !== 'string') fail(TypeError, `options.model must be a string, got ${describe(o.model)}`);
    if (!MODELS.includes(o.model)) fail(RangeError, `options.model must be one of ${MODELS.join(', ')}; got '${o.model}'`);
    model = o.model;
  }

  const imageGrids = o.imageGridThw === undefined ? [] : gridsArg('options.imageGridThw', o.imageGridThw, merge, tokens);
  let videoGrids = o.videoGridThw === undefined ? [] : gridsArg('options.videoGridThw', o.videoGridThw, merge, tokens);
  if (imageGrids.length > 0 && imageTokenId === undefined) {
    fail(TypeError, 'options.imageTokenId is missing (options.imageGridThw needs it to find the image tokens)');
  }
  if (videoGrids.length > 0) {
    if (videoTokenId === undefined) {
      fail(TypeError, 'options.videoTokenId is missing (options.videoGridThw needs it to find the video tokens)');
    }
    // Video positions differ between the three models; images do not.
    if (model === undefined) fail(TypeError, `options.model is missing (videos are laid out per model: ${MODELS.join(', ')})`);
  }

  // Only Qwen2.5-VL spaces video frames by time.
  for (const key of ['tokensPerSecond', 'secondPerGridTs']) {
    if (o[key] !== undefined && model !== 'qwen2.5-vl') {
      fail(RangeError, `options.${key} is read only for options.model 'qwen2.5-vl', got model ${describe(model)}`);
    }
  }
  let tokensPerSecond;
  if (o.tokensPerSecond !== undefined) {
    if (typeof o.tokensPerSecond !== 'number' || !Number.isFinite(o.tokensPerSecond)) {
      fail(TypeError, `options.tokensPerSecond must be a number, got ${describe(o.tokensPerSecond)}`);
    }
    if (!(o.tokensPerSecond > 0)) fail(RangeError, `options.tokensPerSecond must be positive, got ${o.tokensPerSecond}`);
    tokensPerSecond = o.tokensPerSecond;
  }
  let secondsPerGrid;
  if (o.secondPerGridTs !== undefined) {
    secondsPerGrid = listArg('options.secondPerGridTs', o.secondPerGridTs, tokens, 'values (one per video)').map((v, i) => {
      const name = `options.secondPerGridTs[${i}]`;
      if (typeof v !== 'number' || !Number.isFinite(v)) fail(TypeError, `${name} must be a number, got ${describe(v)}`);
      if (v < 0) fail(RangeError, `${name} must not be negative, got ${v}`);
      return v;
    });
    if (secondsPerGrid.length !== videoGrids.length) {
      fail(RangeError, `options.secondPerGridTs must have one entry per video (${videoGrids.length}), got ${secondsPerGrid.length}`);
    }
  }
  if (model === 'qwen2.5-vl' && videoGrids.length > 0 && tokensPerSecond === undefined) {
    fail(TypeError, "options.tokensPerSecond is missing (model 'qwen2.5-vl' spaces video frames by it: vision_config.tokens_per_second)");
  }

  // Each video's temporal interval (before Qwen3-VL splits videos into frames).
  let intervals = videoGrids.map((_, i) =>
    model === 'qwen2.5-vl' ? tokensPerSecond * Math.trunc(secondsPerGrid ? secondsPerGrid[i] : 1) : 1,
  );
  if (model === 'qwen3-vl') {
    const frames = videoGrids.reduce((sum, [t]) => sum + t, 0);
    if (frames > tokens) fail(RangeError, `options.videoGridThw holds ${frames} frames; inputIds holds ${tokens} tokens`);
    videoGrids = videoGrids.flatMap(([t, h, w]) => Array.from({ length: t }, () => [1, h, w]));
    intervals = videoGrids.map(() => 1);
  }

  let mask;
  if (o.attentionMask !== undefined) {
    mask = matrixArg('options.attentionMask', o.attentionMask, maskValue, fastMask);
    if (!input.batched && (mask.batched || mask.columns !== columns)) {
      const got = mask.batched ? `[${mask.rows}, ${mask.columns}]` : mask.columns;
      fail(RangeError, `options.attentionMask must have one entry per token (${columns}), got ${got}`);
    }
    if (input.batched && (!mask.batched || mask.rows !== rows || mask.columns !== columns)) {
      const got = mask.batched ? `[${mask.rows}, ${mask.columns}]` : `one sequence of ${mask.columns}`;
      fail(RangeError, `options.attentionMask must be [${rows}, ${columns}] like inputIds, got ${got}`);
    }
  }

  // One queue of grids per kind for the whole batch.
  const layout = {
    typeOf: (id) => (id === imageTokenId ? IMAGE : id === videoTokenId ? VIDEO : TEXT),
    grids: { [IMAGE]: imageGrids, [VIDEO]: videoGrids },
    used: { [IMAGE]: 0, [VIDEO]: 0 },
    intervals,
    merge,
    visionStartTokenId,
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

  if (output === 'tensors') {
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
  return input.batched ? results : results[0];
}

const GRID_NAME = { [IMAGE]: 'options.imageGridThw', [VIDEO]: 'options.videoGridThw' };
const KIND_NAME = { [IMAGE]: 'image', [VIDEO]: 'video' };

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
