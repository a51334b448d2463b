// Consumer: a TypeScript project type-checks this file with `tsc --noEmit`
// against the shipped sinpe.d.ts. The @ts-expect-error lines must be errors,
// so the declarations are shown to constrain, not just to exist.
import sinpe, {
  presets,
  layouts,
  ropeTypes,
  ropeLayouts,
  ropeAxes,
  dtypes,
  vocabulary,
  ropeOptionsFromConfig,
  getRopeIndex,
  type Encoder,
  type RopeIndex,
  type Preset,
  type Layout,
  type InitOptions,
  type PreparedEncoder,
  type RopeType,
  type RopeLayout,
  type RopeCache,
  type RopeAxes,
  type Dtype,
  type PreparedRope,
} from 'sinpe.wasm';

const init: InitOptions = { simd: 'auto' };
const pe: Encoder = await sinpe(init);
const preset: Preset = presets[0];
const layout: Layout = layouts[1];
const a: Float32Array = pe.rows(0, 8, 64, { preset, layout });
const b: Float32Array = pe.encode(new Float64Array([0.5, 999.25]), 64, { preset: 'diffusers', flipSinToCos: true, out: new Float32Array(128) });
const c: Float32Array = pe.grid2d(14, 14, 768, { preset: 'mae', clsToken: true });
const x: Float32Array = pe.addTo(new Float32Array(2 * 16 * 64), 64, { start: 1, seqLen: 16, preset: 'fairseq', paddingIdx: 1 });
const px: Uint8ClampedArray = pe.heatmap(0, 32, 64, { columnStart: 0, columns: 32, vmin: -1, vmax: 1, colormap: new Uint8Array(1024) });
const f: Float64Array = pe.frequencies(64, { preset: 'tensor2tensor', minTimescale: 1, maxTimescale: 1e4 });
const flags: [boolean, string] = [pe.simd, pe.version];
void [a, b, c, x, px, f, flags];

// The prepared fast path: rows, encode, and zero-copy chunks over wasm memory.
const enc: PreparedEncoder = pe.prepare(64, { preset: 'mae' });
const width: number = enc.dModel;
const r: Float32Array = enc.rows(0, 4, new Float32Array(4 * width));
const e: Float32Array = enc.encode([0.5, 2]);
enc.chunks(0, 10000, (view: Float32Array, firstRow: number) => void [view[0], firstRow]);
void [r, e];

// RoPE: frequencies, caches (optionally into caller arrays), rotation in place, config.json.
const ropeType: RopeType = ropeTypes[3];
const ropeLayout: RopeLayout = ropeLayouts[1];
const inv: Float64Array = pe.ropeFrequencies(128, { ropeType: 'llama3', factor: 8, originalMaxPositions: 8192 });
const cache: RopeCache = pe.ropeCache(new Float64Array([0, 1, 2]), 64, { ropeType, factor: 4, originalMaxPositions: 4096, out: { cos: new Float32Array(96), sin: new Float32Array(96) } });
const rows: RopeCache = pe.ropeCacheRows(0, 16, 64, { ropeType: 'longrope', shortFactor: new Float64Array(32).fill(1), longFactor: new Float64Array(32).fill(2), originalMaxPositions: 4096 });
const q: Float32Array = pe.applyRope(new Float32Array(3 * 2 * 64), [0, 1, 2], 64, { rotaryDim: 32, layout: ropeLayout });
const { headDim, rotaryDim, options } = ropeOptionsFromConfig({ rope_theta: 500000, head_dim: 128 });
const sameConfig = pe.ropeOptionsFromConfig({ rope_scaling: { rope_type: 'linear', factor: 2 } });
const att: number = cache.attentionFactor * rows.attentionFactor;
void [inv, q, headDim, rotaryDim, options, sameConfig, att];

// Half precision, multi-axis and grid RoPE, prepared RoPE.
const dtype: Dtype = dtypes[1];
const axesName: RopeAxes = ropeAxes[0];
const h16: Uint16Array = pe.rows(0, 4, 64, { dtype: 'float16' });
const hb: Uint16Array = pe.encode([0.5], 64, { dtype: 'bfloat16', out: new Uint16Array(64) });
const t32: Float32Array = pe.table(4, 64, { dtype: 'float32' });
const halfEnc: PreparedEncoder<Uint16Array> = pe.prepare(64, { dtype: 'float16' });
const hr: Uint16Array = halfEnc.rows(0, 2);
const m: RopeCache = pe.ropeCache([0, 0, 0, 1, 2, 3], 128, { mropeSection: [16, 24, 24], ropeAxes: axesName });
const mh: RopeCache<Uint16Array> = pe.ropeCacheRows(0, 4, 128, { dtype: 'float16' });
const g: RopeCache = pe.ropeCacheGrid(4, 4, 64, { ropeAxes: 'pixtral' });
const pr: PreparedRope = pe.prepareRope(64, { ropeAxes: 'pixtral' });
const prh: PreparedRope<Uint16Array> = pe.prepareRope(64, { dtype: 'bfloat16' });
const gc: Float32Array = pr.grid(2, 2).cos;
const hc: Uint16Array = prh.cacheRows(0, 2).sin;
const rotated: Float32Array = pr.apply(new Float32Array(64), [0, 1], 64, { layout: 'half' });
const prFacts: [number, number, number, Float64Array, Dtype] = [pr.rotaryDim, pr.axes, pr.attentionFactor, pr.frequencies, pr.dtype];
void [dtype, h16, hb, t32, hr, m, mh, g, gc, hc, rotated, prFacts];

// Per-layer-type parameters, the layout, and M-RoPE position ids.
const gemma = ropeOptionsFromConfig({ model_type: 'gemma3_text', rope_local_base_freq: 10000, num_hidden_layers: 6 });
const layout2: RopeLayout = gemma.layout;
const sliding: number | undefined = gemma.layerTypes?.sliding_attention?.rotaryDim;
const kinds: string[] | undefined = gemma.layers;
const index = getRopeIndex(new BigInt64Array([1n, 5n, 5n, 5n, 5n]), { imageTokenId: 5n, imageGridThw: [[1, 4, 4]] });
const mrope: Float64Array = index.positions;
const delta: number = pe.getRopeIndex([1, 2, 3]).ropeDelta;
// A batch: rows, or a transformers.js-style tensor; output 'tensors' in transformers.js's shapes.
const perRow: number = getRopeIndex([[1, 2], [3, 4]], { attentionMask: [[0, 1], [1, 1]] })[1].ropeDelta;
const ids = { data: new BigInt64Array([1n, 5n, 5n, 5n, 5n]), dims: [1, 5] };
const grid = { data: new BigInt64Array([1n, 4n, 4n]), dims: [1, 3] };
const tensors = getRopeIndex(ids, { imageTokenId: 5n, imageGridThw: grid, output: 'tensors' });
const ids64: BigInt64Array = tensors.positionIds.data;
const batchRows: number = tensors.ropeDeltas.dims[0];
void [layout2, sliding, kinds, mrope, delta, perRow, ids64, batchRows];

// The core's vocabulary, read-only.
const maxD: number = vocabulary.limits.maxDModel;
const reads: readonly string[] = vocabulary.presets[0].reads;
void [maxD, reads];

// @ts-expect-error: not a preset
pe.rows(0, 1, 8, { preset: 'bert' });
// @ts-expect-error: layout names are fixed
pe.rows(0, 1, 8, { layout: 'sin-first' });
// @ts-expect-error: dModel is a number
pe.rows(0, 1, '8');
// @ts-expect-error: out must be a Float32Array
pe.rows(0, 1, 8, { out: new Float64Array(8) });
// @ts-expect-error: heatmap's out is a Uint8ClampedArray
pe.heatmap(0, 1, 8, { out: new Float32Array(32) });
// @ts-expect-error: grid2d takes no dtype (the package refuses it as an unknown option)
pe.grid2d(2, 2, 8, { dtype: 'float32' });
// @ts-expect-error: results are read-only facts
pe.simd = false;
// @ts-expect-error: init.simd is 'auto' | boolean
void sinpe({ simd: 'yes' });
// @ts-expect-error: test and benchmark hooks are not part of the package
pe.heapBytes();
// @ts-expect-error: not a rope type
pe.ropeCache([0], 8, { ropeType: 'ntk' });
// @ts-expect-error: RoPE layouts are 'half' | 'interleaved'
pe.applyRope(new Float32Array(8), [0], 8, { layout: 'concat' });
// @ts-expect-error: getRopeIndex's model is one of the three Qwen vision-language families
getRopeIndex([1], { model: 'llava' });
// @ts-expect-error: output is 'rows' or 'tensors'
getRopeIndex([1], { output: 'tensor' });
// @ts-expect-error: a batch answers one RopeIndex per row
const notOne: RopeIndex = getRopeIndex([[1], [2]]);
void notOne;
// @ts-expect-error: a chunk is a Float32Array view
enc.chunks(0, 1, (view: Float64Array) => void view);
// @ts-expect-error: a half-precision result is a Uint16Array
const wrong: Float32Array = pe.rows(0, 1, 8, { dtype: 'float16' });
void wrong;
// @ts-expect-error: not a dtype
pe.rows(0, 1, 8, { dtype: 'float64' });
// @ts-expect-error: not a rope-axes layout
pe.ropeCache([0], 8, { ropeAxes: 'diagonal' });
// @ts-expect-error: a float32 out for a half dtype
pe.ropeCacheRows(0, 1, 8, { dtype: 'float16', out: { cos: new Float32Array(4), sin: new Float32Array(4) } });
// @ts-expect-error: the vocabulary is read-only
vocabulary.limits.maxDModel = 1;
