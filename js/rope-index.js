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

import vocabulary from '../dist/sinpe-vocabulary.js';
import { fail } from './args.js';

const MODELS = Object.freeze(['qwen2-vl', 'qwen2.5-vl', 'qwen3-vl']);
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
]);
const TEXT = 0;
const IMAGE = 1;
const VIDEO = 2;

function describe(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (ArrayBuffer.isView(v)) return `a ${v.constructor.name}`;
  if (typeof v === 'string') return `'${v}'`;
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'object') return 'an object';
  return String(v);
}

// A list of values (Array or typed array, not a DataView) as a plain array,
// each element read once.
function listArg(name, value) {
  const isList = Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView));
  if (!isList) fail(TypeError, `${name} must be an array or a typed array, got ${describe(value)}`);
  const length = value.length;
  const out = new Array(length);
  for (let i = 0; i < length; i++) out[i] = value[i];
  return out;
}

// An integer (a number or a bigint, as transformers.js keeps token ids) as a number.
function integerArg(name, value) {
  if (typeof value === 'bigint') {
    if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < -BigInt(Number.MAX_SAFE_INTEGER)) {
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

// Grids as [[t, h, w], ...] (an array of triples, or a flat list of 3k values
// as transformers.js keeps a (k, 3) tensor's data).
function gridsArg(name, value, merge) {
  const list = listArg(name, value);
  const nested = list.length > 0 && list.every((g) => Array.isArray(g) || ArrayBuffer.isView(g));
  let triples;
  if (nested) triples = list.map((g, i) => listArg(`${name}[${i}]`, g));
  else {
    if (list.length % 3 !== 0) fail(RangeError, `${name} must hold [t, h, w] triples, got ${list.length} values`);
    triples = Array.from({ length: list.length / 3 }, (_, i) => list.slice(3 * i, 3 * i + 3));
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
    return [t, h, w];
  });
}

/**
 * M-RoPE position ids of one sequence (see the file comment).
 * inputIds: token ids (Array or typed array; numbers or bigints).
 * opts: { imageTokenId, videoTokenId, visionStartTokenId, spatialMergeSize (2),
 *   imageGridThw, videoGridThw, secondPerGridTs, tokensPerSecond, model, attentionMask }.
 * Returns { positions: Float64Array(n × 3), token-major (positions[3i + a] is
 * token i's position on axis a: t, h, w), ropeDelta }.
 * Throws a TypeError or RangeError naming the argument at fault: grids that do
 * not match the image or video runs of inputIds, a run whose token count is
 * not its grid's, options a model does not read.
 */
export function getRopeIndex(inputIds, opts) {
  const ids = listArg('inputIds', inputIds).map((v, i) => integerArg(`inputIds[${i}]`, v));
  if (ids.length === 0) fail(RangeError, 'inputIds must hold at least one token');
  if (ids.length > vocabulary.limits.maxAbsPosition) {
    fail(RangeError, `inputIds must hold at most ${vocabulary.limits.maxAbsPosition} tokens, got ${ids.length}`);
  }

  if (opts === undefined) opts = {};
  if (typeof opts !== 'object' || opts === null || Array.isArray(opts)) {
    fail(TypeError, `options must be an object, got ${describe(opts)}`);
  }
  // Own enumerable keys only, each read once (as for every options object of the package).
  const o = {};
  for (const key of Object.keys(opts)) {
    if (!OPTION_NAMES.includes(key)) {
      fail(TypeError, `unknown option ${describe(key)}; getRopeIndex takes: ${OPTION_NAMES.join(', ')}`);
    }
    const v = opts[key];
    if (v !== undefined) o[key] = v;
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

  const imageGrids = o.imageGridThw === undefined ? [] : gridsArg('options.imageGridThw', o.imageGridThw, merge);
  let videoGrids = o.videoGridThw === undefined ? [] : gridsArg('options.videoGridThw', o.videoGridThw, merge);
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
    secondsPerGrid = listArg('options.secondPerGridTs', o.secondPerGridTs).map((v, i) => {
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
    videoGrids = videoGrids.flatMap(([t, h, w]) => Array.from({ length: t }, () => [1, h, w]));
    intervals = videoGrids.map(() => 1);
  }

  let valid;
  if (o.attentionMask !== undefined) {
    const mask = listArg('options.attentionMask', o.attentionMask);
    if (mask.length !== ids.length) {
      fail(RangeError, `options.attentionMask must have one entry per token (${ids.length}), got ${mask.length}`);
    }
    valid = [];
    mask.forEach((m, i) => {
      const v = integerArg(`options.attentionMask[${i}]`, m);
      if (v !== 0 && v !== 1) fail(RangeError, `options.attentionMask[${i}] must be 0 or 1, got ${v}`);
      if (v === 1) valid.push(i);
    });
    if (valid.length === 0) fail(RangeError, 'options.attentionMask masks every token');
  } else valid = ids.map((_, i) => i);

  const typeOf = (id) => (id === imageTokenId ? IMAGE : id === videoTokenId ? VIDEO : TEXT);
  const positions = new Float64Array(ids.length * AXES);
  const grids = { [IMAGE]: imageGrids, [VIDEO]: videoGrids };
  const used = { [IMAGE]: 0, [VIDEO]: 0 };
  const gridName = { [IMAGE]: 'options.imageGridThw', [VIDEO]: 'options.videoGridThw' };
  const kindName = { [IMAGE]: 'image', [VIDEO]: 'video' };
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
      const grid = grids[kind][index];
      const first = valid[start];
      if (grid === undefined) {
        fail(
          RangeError,
          `inputIds has more ${kindName[kind]} runs than ${gridName[kind]} has grids (${grids[kind].length}): ` +
            `the run at inputIds[${first}] has none`,
        );
      }
      if (visionStartTokenId !== undefined && (start === 0 || ids[valid[start - 1]] !== visionStartTokenId)) {
        fail(RangeError, `inputIds[${first}] starts a ${kindName[kind]} run without options.visionStartTokenId before it`);
      }
      const [t, h, w] = grid;
      const gh = h / merge;
      const gw = w / merge;
      if (length !== t * gh * gw) {
        fail(
          RangeError,
          `the ${kindName[kind]} run at inputIds[${first}] has ${length} tokens; ${gridName[kind]}[${index}] = ` +
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
  for (const kind of [IMAGE, VIDEO]) {
    if (used[kind] !== grids[kind].length) {
      fail(
        RangeError,
        `${gridName[kind]} has ${grids[kind].length} grids` +
          (model === 'qwen3-vl' && kind === VIDEO ? ' (one per frame)' : '') +
          ` but inputIds has ${used[kind]} ${kindName[kind]} runs`,
      );
    }
  }
  return { positions, ropeDelta: largest + 1 - valid.length };
}
