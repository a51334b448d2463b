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
// with one queue of image grids and one of video grids for the whole batch,
// and output: 'tensors' answers in the shapes of transformers' and
// transformers.js's get_rope_index: js/rope-index-batch.js.

import { fail, describe, snapshotOptions } from './args.js';
import {
  isTypedArray,
  isTensor,
  listArg,
  tensorArg,
  tensorData,
  integerArg,
  positiveIntegerArg,
  inputIdsArg,
  attentionMaskArg,
  layoutBatch,
  tensorsOf,
} from './rope-index-batch.js';

const MODELS = Object.freeze(['qwen2-vl', 'qwen2.5-vl', 'qwen3-vl']);
const OUTPUTS = Object.freeze(['rows', 'tensors']);
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

  const input = inputIdsArg(inputIds);
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

  const mask = o.attentionMask === undefined ? undefined : attentionMaskArg(o.attentionMask, input);
  const results = layoutBatch(input, mask, {
    imageTokenId,
    videoTokenId,
    visionStartTokenId,
    imageGrids,
    videoGrids,
    intervals,
    merge,
    model,
  });
  if (output === 'tensors') return tensorsOf(results, rows, columns);
  return input.batched ? results : results[0];
}
