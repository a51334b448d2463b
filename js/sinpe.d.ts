/**
 * sinpe.wasm: exact sinusoidal positional encodings, generated on demand in
 * WebAssembly (SIMD when the engine has it, a baseline build otherwise).
 *
 * Every value is the float64 evaluation of its preset's formula rounded once
 * (to nearest, ties to even) to its dtype — float32, float16 or bfloat16 — for
 * |position| < 2^24 and dModel ≤ 65536.
 *
 * Errors: bad arguments throw a `TypeError` (wrong type, unknown option, an
 * option the chosen formula does not read, a look-alike or detached typed
 * array) or a `RangeError` (value out of range, a formula that overflows)
 * whose message names the argument; nothing is written and the encoder stays
 * usable. Loading failures reject `sinpe()` with an `Error` saying what to
 * pass, the engine's error as its `cause`. An error for one of the core's
 * statuses is a {@link StatusError} (its status name and the values in its
 * message); {@link ropeOptionsFromConfig}'s are {@link ConfigError}s.
 *
 * Methods are bound: `const table = pe.table; table(3, 4)` works.
 *
 * @packageDocumentation
 */

// The name unions come from the core's vocabulary (generated with the build).
import type * as V from '../dist/sinpe-vocabulary.js';

/** The presets: each library's formula. */
export type Preset = V.Preset;

/**
 * Column layout. `interleaved`: column 2k = sin, 2k+1 = cos. `concat`: all
 * sines then all cosines. `cos-first`: all cosines then all sines.
 */
export type Layout = V.Layout;

/** Options read by every method. Options a preset does not read throw a `TypeError`. */
export interface EncodingOptions {
  /** Which formula. Default `'vaswani'`. */
  preset?: Preset;
  /** Overrides the preset's own layout. */
  layout?: Layout;
  /** vaswani, keras, mae, fairseq: the wavelength base. Default 10000. */
  base?: number;
  /** tensor2tensor: `min_timescale` (multiplies every frequency, as t2t does). Default 1. */
  minTimescale?: number;
  /** tensor2tensor, whisper: `max_timescale`. Default 10000. */
  maxTimescale?: number;
  /** diffusers: `downscale_freq_shift`. Default 1. */
  freqShift?: number;
  /** diffusers: `flip_sin_to_cos` (cos half first). Default false. Cannot be combined with `layout`. */
  flipSinToCos?: boolean;
  /** diffusers: multiplies the angle. Default 1. */
  scale?: number;
  /** diffusers, guided-diffusion: `max_period`. Default 10000. */
  maxPeriod?: number;
  /** fairseq: the row at this position is all zeros. */
  paddingIdx?: number;
}

/**
 * Result element types. `float32`: a `Float32Array` (the default).
 * `float16` (IEEE binary16) and `bfloat16`: a `Uint16Array` of bit patterns,
 * each the float64 value rounded once to nearest-even.
 */
export type Dtype = V.Dtype;
/** The half-precision {@link Dtype}s, whose results are `Uint16Array` bit patterns. */
export type HalfDtype = Exclude<Dtype, 'float32'>;

/** Options of methods that return a new `Float32Array`. */
export interface OutputOptions extends EncodingOptions {
  /** Write into this array (exact length required) instead of a new one; it is returned. */
  out?: Float32Array;
  /** Default `'float32'`. */
  dtype?: 'float32';
}

/** {@link OutputOptions} for a half-precision result: `Uint16Array` bit patterns. */
export interface HalfOutputOptions extends EncodingOptions {
  dtype: HalfDtype;
  /**
   * Write into this array (exact length required) instead of a new one; it is
   * returned. For `float16`, a `Float16Array` is accepted too where the engine
   * has one (the same bits).
   */
  out?: Uint16Array;
}

/** Options of {@link Encoder.prepare}. */
export interface PrepareOptions extends EncodingOptions {
  /** The element type of every result. Default `'float32'`. */
  dtype?: Dtype;
}

export interface Grid2dOptions extends EncodingOptions {
  /** Write into this array (exact length required) instead of a new one; it is returned. */
  out?: Float32Array;
  /** Prepend one all-zero row (MAE's class token). Default false. */
  clsToken?: boolean;
}

export interface AddToOptions extends EncodingOptions {
  /** Position of each sequence's first row. Default 0. */
  start?: number;
  /** Rows per sequence; `x` holds `x.length / (seqLen * dModel)` sequences. Default: one sequence. */
  seqLen?: number;
}

export interface HeatmapOptions extends EncodingOptions {
  /** 256 RGBA entries (length 1024); entry 0 ↔ vmin, 255 ↔ vmax. Default: a grey ramp. */
  colormap?: Uint8Array | Uint8ClampedArray;
  /** First column drawn. Default 0. */
  columnStart?: number;
  /** Columns drawn. Default `dModel - columnStart`. */
  columns?: number;
  /** Value mapped to entry 0. Default -1. */
  vmin?: number;
  /** Value mapped to entry 255. Default 1. */
  vmax?: number;
  /** Write into this array (length `count * columns * 4`) instead of a new one. */
  out?: Uint8ClampedArray;
}

/** Options of {@link default | sinpe()}. */
export interface InitOptions {
  /** `'auto'` (default) uses SIMD when the engine validates a SIMD module; `true` requires it; `false` forces the baseline build. */
  simd?: 'auto' | boolean;
  /** The `.wasm` bytes, when you load them yourself. */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /**
   * Where the `.wasm` file is served from, for bundlers that do not handle
   * `new URL('…', import.meta.url)`: called with `'sinpe-simd.wasm'` or
   * `'sinpe-baseline.wasm'` (both exported as `sinpe.wasm/sinpe-simd.wasm`, …).
   */
  locateFile?: (path: string, prefix: string) => string;
}

/**
 * A loaded module. All results are JS-owned arrays; only
 * {@link PreparedEncoder.chunks} hands out views into wasm memory, valid
 * during its callback.
 */
export interface Encoder {
  /** Whether the SIMD build is running. */
  readonly simd: boolean;
  /** The package version. */
  readonly version: string;
  /** All preset names. */
  readonly presets: readonly Preset[];
  /** All layout names. */
  readonly layouts: readonly Layout[];
  /** All RoPE types. */
  readonly ropeTypes: readonly RopeType[];
  /** All RoPE rotation layouts. */
  readonly ropeLayouts: readonly RopeLayout[];

  /**
   * Rows for arbitrary positions (any order, fractional allowed: diffusion timesteps).
   * @param positions - n positions, each finite with |p| < 2^24.
   * @param dModel - width, 1 … 65536.
   * @returns Float32Array of n × dModel values, row-major.
   */
  encode(positions: ArrayLike<number>, dModel: number, options: HalfOutputOptions): Uint16Array;
  encode(positions: ArrayLike<number>, dModel: number, options?: OutputOptions): Float32Array;

  /**
   * Rows `start … start+count-1`.
   * @param start - integer, |start| < 2^24.
   * @param count - integer ≥ 0; the last row must stay below 2^24.
   * @returns Float32Array of count × dModel values, row-major.
   */
  rows(start: number, count: number, dModel: number, options: HalfOutputOptions): Uint16Array;
  rows(start: number, count: number, dModel: number, options?: OutputOptions): Float32Array;

  /** `rows(0, length, dModel, options)`: the usual `pe[:max_len]` table. */
  table(length: number, dModel: number, options: HalfOutputOptions): Uint16Array;
  table(length: number, dModel: number, options?: OutputOptions): Float32Array;

  /**
   * 2-D encoding (ViT / MAE `get_2d_sincos_pos_embed`): cell m = r·width + c
   * (after the optional class-token row); columns [0, dModel/2) encode the
   * column coordinate c, [dModel/2, dModel) the row coordinate r.
   * @returns Float32Array of (height·width + clsToken) × dModel values.
   */
  grid2d(height: number, width: number, dModel: number, options?: Grid2dOptions): Float32Array;

  /**
   * In place `x += PE`: the `X + P[:, :seq_len]` step. `x` holds
   * batch × seqLen × dModel values; every sequence gets rows start … start+seqLen-1.
   * @returns `x`.
   */
  addTo(x: Float32Array, dModel: number, options?: AddToOptions): Float32Array;

  /** Angular frequencies ω_k (radians per position) of the preset at this width. */
  frequencies(dModel: number, options?: EncodingOptions): Float64Array;

  /**
   * The fused heatmap kernel: rows `start … start+count-1`, columns
   * `columnStart … columnStart+columns-1`, each value mapped through `colormap`.
   * @returns RGBA bytes, ready for `new ImageData(pixels, columns, count)`.
   */
  heatmap(start: number, count: number, dModel: number, options?: HeatmapOptions): Uint8ClampedArray;

  /**
   * A prepared encoder for one width and options: the options are checked and
   * the plan made once; each call then checks only its own arguments. The
   * fast path for many small requests (one row per frame, say).
   */
  prepare(dModel: number, options: PrepareOptions & { dtype: HalfDtype }): PreparedEncoder<Uint16Array>;
  prepare(dModel: number, options?: PrepareOptions): PreparedEncoder;

  /** The RoPE frequencies inv_j (radians per position), j < rotaryDim/2, in float64. */
  ropeFrequencies(rotaryDim: number, options?: RopeOptions): Float64Array;

  /**
   * cos/sin caches for `positions` (fractional allowed, |p| < 2^24): row-major
   * (n, rotaryDim/2), cos = cos(p·inv_j)·attentionFactor, sin likewise —
   * onnxruntime's `RotaryEmbedding` `cos_cache`/`sin_cache` layout. With a
   * multi-axis plan (`mropeSection` or `ropeAxes`, A axes) `positions` holds
   * A values per token, token-major: `positions[i*A + a]` is token i's
   * position on axis a (a `RangeError` naming `positions` unless its length
   * is a multiple of A).
   */
  ropeCache(positions: ArrayLike<number>, rotaryDim: number, options: HalfRopeCacheOptions): RopeCache<Uint16Array>;
  ropeCache(positions: ArrayLike<number>, rotaryDim: number, options?: RopeCacheOptions): RopeCache;

  /**
   * {@link Encoder.ropeCache} for positions `start … start+count-1`. With a
   * multi-axis plan each token's one position is on every axis (text tokens,
   * as transformers does for 1-D position ids).
   */
  ropeCacheRows(start: number, count: number, rotaryDim: number, options: HalfRopeCacheOptions): RopeCache<Uint16Array>;
  ropeCacheRows(start: number, count: number, rotaryDim: number, options?: RopeCacheOptions): RopeCache;

  /**
   * The cache of a `height × width` patch grid for a two-axis plan (`ropeAxes`
   * `'pixtral'`, or `'axial'` / `'sectioned'` with two sections; axis 0 the
   * row, axis 1 the column): patch m = i·width + j (row-major) at row i,
   * column j; height·width rows of rotaryDim/2 values.
   */
  ropeCacheGrid(height: number, width: number, rotaryDim: number, options: HalfRopeCacheOptions): RopeCache<Uint16Array>;
  ropeCacheGrid(height: number, width: number, rotaryDim: number, options?: RopeCacheOptions): RopeCache;

  /**
   * A prepared RoPE for one rotary dimension and options: the plan is made
   * once; each call then checks only its own arguments. Same values as the
   * `pe.rope*` methods.
   */
  prepareRope(rotaryDim: number, options: PrepareRopeOptions & { dtype: HalfDtype }): PreparedRope<Uint16Array>;
  prepareRope(rotaryDim: number, options?: PrepareRopeOptions): PreparedRope;

  /**
   * Rotates queries or keys in place. `x` holds n tokens × numHeads × headDim
   * values ([token][head][dim]), token i at `positions[i]` (with a multi-axis
   * plan of A axes, at `positions[i*A … i*A + A-1]`); numHeads =
   * x.length / (n · headDim). Dimensions `rotaryDim … headDim-1` pass through.
   * @returns `x`.
   */
  applyRope(x: Float32Array, positions: ArrayLike<number>, headDim: number, options?: ApplyRopeOptions): Float32Array;

  /** RoPE options from a model's parsed config.json (see {@link ropeOptionsFromConfig}). */
  ropeOptionsFromConfig(config: object): RopeConfig;

  /** M-RoPE position ids of one text + image + video sequence or a batch (see {@link getRopeIndex}). */
  getRopeIndex(inputIds: RopeIndexInput, options: RopeIndexOptions & { output: 'tensors' }): RopeIndexTensors;
  getRopeIndex(inputIds: ArrayLike<number | bigint>, options?: RopeIndexOptions & { output?: 'rows' }): RopeIndex;
  getRopeIndex(inputIds: RopeIndexBatch, options?: RopeIndexOptions & { output?: 'rows' }): RopeIndex[];
}

/**
 * A prepared encoder (see {@link Encoder.prepare}); `T` is `Float32Array`, or
 * `Uint16Array` for a half-precision `dtype`.
 */
export interface PreparedEncoder<T extends Float32Array | Uint16Array = Float32Array> {
  /** The width of every row. */
  readonly dModel: number;
  /** The element type of every result. */
  readonly dtype: Dtype;
  /** Same values as `pe.rows(start, count, dModel, options)`, into `out` when given. */
  rows(start: number, count: number, out?: T): T;
  /** Same values as `pe.encode(positions, dModel, options)`, into `out` when given. */
  encode(positions: ArrayLike<number>, out?: T): T;
  /**
   * Zero-copy: calls `callback(view, firstRow)` for consecutive chunks of rows
   * `start … start+count-1`. `view` is a Float32Array over the module's memory
   * holding rows `firstRow … firstRow + view.length/dModel - 1` (`firstRow` is
   * a position). Read it, copy it (`out.set(view, …)`), upload it
   * (`device.queue.writeBuffer`, `gl.texSubImage2D`) — but do not keep it: when
   * the callback returns the view is detached (length 0), and the next chunk
   * reuses its memory. The encoder cannot be called from inside the callback.
   */
  chunks(start: number, count: number, callback: (view: T, firstRow: number) => void): void;
}

/** A prepared RoPE (see {@link Encoder.prepareRope}). */
export interface PreparedRope<T extends Float32Array | Uint16Array = Float32Array> {
  readonly rotaryDim: number;
  /** Position axes per token: 1, or the plan's sections (2 for pixtral). */
  readonly axes: number;
  /** The factor every cos and sin is multiplied by. */
  readonly attentionFactor: number;
  /** inv_j, j < rotaryDim/2, float64 (a copy). */
  readonly frequencies: Float64Array;
  /** The element type of every cache. */
  readonly dtype: Dtype;
  /** How every cache is computed. */
  readonly recipe: Recipe;
  /** Same values as `pe.ropeCache(positions, rotaryDim, options)`. */
  cache(positions: ArrayLike<number>, out?: { cos: T; sin: T }): RopeCache<T>;
  /** Same values as `pe.ropeCacheRows(start, count, rotaryDim, options)`. */
  cacheRows(start: number, count: number, out?: { cos: T; sin: T }): RopeCache<T>;
  /** Same values as `pe.ropeCacheGrid(height, width, rotaryDim, options)`. */
  grid(height: number, width: number, out?: { cos: T; sin: T }): RopeCache<T>;
  /** Same as `pe.applyRope(x, positions, headDim, { ...options, rotaryDim, layout })`. */
  apply(x: Float32Array, positions: ArrayLike<number>, headDim: number, options?: { layout?: RopeLayout }): Float32Array;
}

/** RoPE frequency types (Hugging Face `rope_type`). */
export type RopeType = V.RopeType;

/**
 * RoPE rotation layouts. `half`: pair j is (j, j + rotaryDim/2) (GPT-NeoX,
 * Hugging Face `rotate_half`, onnxruntime `interleaved = 0`). `interleaved`:
 * pair j is (2j, 2j + 1) (GPT-J, Meta's `freqs_cis`, onnxruntime `interleaved = 1`).
 */
export type RopeLayout = V.RopeLayout;

/**
 * How a multi-axis RoPE maps position axes to rotary pairs. `sectioned`
 * (Qwen2-VL, Qwen2.5-VL; the default with `mropeSection`): consecutive
 * sections of pairs per axis. `interleaved` (Qwen3-VL): pair j turns with
 * axis j mod A within A·section. `axial`: each section a RoPE of its own
 * width (vision towers). `pixtral`: row and column on alternate frequencies.
 */
export type RopeAxes = V.RopeAxes;

/**
 * RoPE options (transformers' `modeling_rope_utils`). An option the rope type
 * does not read throws a `TypeError`.
 */
export interface RopeOptions {
  /** Default `'default'`. */
  ropeType?: RopeType;
  /** `rope_theta`; every type. Default 10000; must be > 1. */
  base?: number;
  /** Context-extension factor s: linear, dynamic (required), yarn, longrope, llama3 (default 8). */
  factor?: number;
  /** `max_position_embeddings`: dynamic (required), yarn, longrope. */
  maxPositions?: number;
  /** `original_max_position_embeddings`: yarn, longrope, llama3 (default 8192). */
  originalMaxPositions?: number;
  /** Current sequence length, an integer in [1, 2^24] (2^24 covers positions up to 2^24 − 1): dynamic (grows the base beyond maxPositions), longrope (long factors beyond L). */
  seqLen?: number;
  /** llama3: default 1. */
  lowFreqFactor?: number;
  /** llama3: default 4. */
  highFreqFactor?: number;
  /** yarn: default 32. */
  betaFast?: number;
  /** yarn: default 1. */
  betaSlow?: number;
  /** yarn, longrope: multiplies every cos and sin (else derived from the factor). */
  attentionFactor?: number;
  /** yarn (DeepSeek): with mscaleAllDim, attention factor m(s, mscale) / m(s, mscaleAllDim). */
  mscale?: number;
  /** yarn (DeepSeek). */
  mscaleAllDim?: number;
  /** yarn: round the correction range to integers. Default true. */
  truncate?: boolean;
  /** longrope (required): rotaryDim/2 positive rescale factors used up to L. */
  shortFactor?: ArrayLike<number>;
  /** longrope (required): rotaryDim/2 positive rescale factors used beyond L. */
  longFactor?: ArrayLike<number>;
  /**
   * `partial_rotary_factor`, proportional: the fraction of the pairs that turn, in (0, 1]; default 1. The rotary
   * dimension is the whole head; the pairs beyond the fraction keep frequency 0 (transformers v5
   * `_compute_proportional_rope_parameters`, Gemma 4's full-attention layers).
   */
  partialRotaryFactor?: number;
  /**
   * `mrope_section`, every type: rotary pairs per position axis (Qwen2-VL: [16, 24, 24]), integers adding up to
   * rotaryDim/2. With one position per token every axis takes that position, which is plain RoPE.
   */
  mropeSection?: ArrayLike<number>;
  /**
   * The multi-axis layout (see {@link RopeAxes}); `'pixtral'` takes no
   * mropeSection (two axes, rotaryDim a multiple of 4), the others need it.
   */
  ropeAxes?: RopeAxes;
}

/**
 * How a RoPE cache is computed. `exact` (the default): cos(p·inv_j)·att in
 * float64, rounded once to the dtype. `float32`: PyTorch's and
 * onnxruntime-genai's float32 steps (inv_j, the position and their product
 * rounded to float32; cos/sin of that float32 angle rounded to float32; ×
 * the attention factor in float32; one cast to the dtype) — the values
 * models exported from PyTorch bake, off exact by ~2e-4 at position 4096 and
 * ~9e-3 at 131072.
 */
export type Recipe = V.Recipe;

export interface RopeCacheOptions extends RopeOptions {
  /** Default `'exact'`. */
  recipe?: Recipe;
  /** Write into these arrays (each n × rotaryDim/2, not overlapping) instead of new ones. */
  out?: { cos: Float32Array; sin: Float32Array };
  /** Default `'float32'`. */
  dtype?: 'float32';
}

/** {@link RopeCacheOptions} for a half-precision cache: `Uint16Array` bit patterns. */
export interface HalfRopeCacheOptions extends RopeOptions {
  dtype: HalfDtype;
  /** Default `'exact'`. */
  recipe?: Recipe;
  /** As for {@link HalfOutputOptions.out}, per array. */
  out?: { cos: Uint16Array; sin: Uint16Array };
}

/** Options of {@link Encoder.prepareRope}. */
export interface PrepareRopeOptions extends RopeOptions {
  /** The element type of every cache. Default `'float32'`. */
  dtype?: Dtype;
  /** How every cache is computed. Default `'exact'`. */
  recipe?: Recipe;
}

export interface ApplyRopeOptions extends RopeOptions {
  /** Dimensions rotated (even, ≤ headDim). Default headDim. */
  rotaryDim?: number;
  /** Default `'half'`. */
  layout?: RopeLayout;
}

/** A RoPE cache (see {@link Encoder.ropeCache}); `Uint16Array` bit patterns for a half `dtype`. */
export interface RopeCache<T extends Float32Array | Uint16Array = Float32Array> {
  cos: T;
  sin: T;
  /** The factor every value was multiplied by (1 unless yarn or longrope scale). */
  attentionFactor: number;
}

/** One parameter set of a config.json: the head width, the rotary width and the options. */
export interface RopeLayerConfig {
  /** The head width (Gemma 4's full-attention layers: global_head_dim). */
  headDim: number;
  /** The rotated width, for ropeCache / ropeCacheRows / ropeFrequencies and applyRope's options.rotaryDim. */
  rotaryDim: number;
  /** ropeType and the options it reads; ropeAxes 'interleaved' for Qwen3-VL's mrope_interleaved. */
  options: RopeOptions;
}

/** What {@link ropeOptionsFromConfig} reads from a config.json. */
export interface RopeConfig extends RopeLayerConfig {
  /** The rotation layout: 'interleaved' where the config says so (DeepSeek's rope_interleave), else 'half'. */
  layout: RopeLayout;
  /**
   * One set per attention layer type, when the config has per-layer-type
   * parameters (Gemma 3's rope_local_base_freq, transformers v5 rope_parameters
   * keyed by layer type); the top-level fields are full_attention's. A
   * null-prototype object: every layer type the file names (`__proto__` too) is
   * an own key.
   */
  layerTypes?: Record<string, RopeLayerConfig>;
  /** The layer type of each layer (the config's layer_types, or Gemma 3's sliding_window_pattern). */
  layers?: string[];
}

/**
 * A tensor as transformers.js keeps one, duck-typed: only `dims` and `data`
 * are read (a transformers.js `Tensor` is one).
 */
export interface RopeIndexTensor {
  dims: ArrayLike<number | bigint>;
  data: ArrayLike<number | bigint>;
}

/** A batch of token ids (or of mask values): rows of equal length, or a tensor with dims [B, S]. */
export type RopeIndexBatch = ArrayLike<ArrayLike<number | bigint>> | RopeIndexTensor;

/** One sequence or a batch. */
export type RopeIndexInput = ArrayLike<number | bigint> | RopeIndexBatch;

/** Options of {@link getRopeIndex}: the model's token ids and the processor's grids. */
export interface RopeIndexOptions {
  /** config.json image_token_id; needed with imageGridThw. */
  imageTokenId?: number | bigint;
  /** config.json video_token_id; needed with videoGridThw. */
  videoTokenId?: number | bigint;
  /** config.json vision_start_token_id: when given, every image or video run must follow one. */
  visionStartTokenId?: number | bigint;
  /** vision_config.spatial_merge_size (2). */
  spatialMergeSize?: number | bigint;
  /** The processor's image_grid_thw: [t, h, w] per image, a flat list of triples, or a tensor with dims [N, 3]; one queue for the whole batch. */
  imageGridThw?: ArrayLike<ArrayLike<number | bigint>> | ArrayLike<number | bigint> | RopeIndexTensor;
  /** The processor's video_grid_thw: [t, h, w] per video, a flat list of triples, or a tensor with dims [N, 3]; one queue for the whole batch. */
  videoGridThw?: ArrayLike<ArrayLike<number | bigint>> | ArrayLike<number | bigint> | RopeIndexTensor;
  /** Qwen2.5-VL: the processor's second_per_grid_ts, one per video (1 each when absent). */
  secondPerGridTs?: ArrayLike<number>;
  /** Qwen2.5-VL: vision_config.tokens_per_second; needed with videos. */
  tokensPerSecond?: number;
  /** Whose video layout to follow; needed with videos (images are laid out alike by all three). */
  model?: 'qwen2-vl' | 'qwen2.5-vl' | 'qwen3-vl';
  /** 1 for a token, 0 for padding (skipped, left at position 0); the shape of inputIds. */
  attentionMask?: RopeIndexInput;
  /**
   * 'rows' (default): a {@link RopeIndex} for one sequence, an array of them for a batch.
   * 'tensors': transformers.js's shapes, int64 position ids [3, B, S] and deltas [B, 1].
   */
  output?: 'rows' | 'tensors';
}

/** What {@link getRopeIndex} returns with `output: 'tensors'` (B = 1 for one sequence). */
export interface RopeIndexTensors {
  /** positionIds.data[(a × B + b) × S + j]: row b, token j, axis a (t, h, w). */
  positionIds: { type: 'int64'; data: BigInt64Array; dims: [3, number, number] };
  /** Each row's largest position + 1 − its number of unpadded tokens. */
  ropeDeltas: { type: 'int64'; data: BigInt64Array; dims: [number, 1] };
}

/** What {@link getRopeIndex} returns. */
export interface RopeIndex {
  /** n × 3 positions, token-major: positions[3i + a] is token i's position on axis a (t, h, w). */
  positions: Float64Array;
  /** Largest position + 1 − the number of unpadded tokens: what generation adds to later tokens' 1-D positions. */
  ropeDelta: number;
}

/**
 * The core's vocabulary, generated from `cpp/include/sinpe/vocabulary.def`:
 * every preset (with the options it reads and their defaults), rope type,
 * layout, option, status and limit.
 */
export interface Vocabulary {
  readonly version: string;
  readonly limits: {
    readonly maxDModel: number;
    readonly maxAbsPosition: number;
    readonly maxRopeAxes: number;
    readonly maxElements: number;
  };
  readonly layouts: readonly Layout[];
  readonly ropeLayouts: readonly RopeLayout[];
  readonly ropeAxes: readonly RopeAxes[];
  readonly dtypes: readonly Dtype[];
  readonly recipes: readonly Recipe[];
  readonly options: readonly {
    readonly name: string;
    readonly type: 'number' | 'boolean' | 'numberArray';
    readonly rule: string;
    readonly configKey: string | null;
    readonly doc: string;
  }[];
  readonly presets: readonly VocabularyFormula<Preset>[];
  readonly ropeTypes: readonly VocabularyFormula<RopeType>[];
  readonly statuses: readonly {
    readonly code: number;
    readonly name: string;
    readonly error: 'none' | 'RangeError' | 'TypeError';
    readonly argument: string;
    readonly message: string;
  }[];
  /**
   * The rules a RoPE plan's options and rotary dimension must keep together
   * (beyond each option's own rule), in the order the core checks them: a
   * broken rule is its `status`; `options` are the option names it binds.
   */
  readonly rules: readonly {
    readonly name: string;
    readonly status: string;
    readonly options: readonly string[];
    readonly text: string;
  }[];
}

/**
 * An error thrown for one of the core's statuses (`vocabulary.statuses`):
 * besides its message, the status name and what each `{placeholder}` of that
 * status's message template became, as the message shows it, so the reason
 * can be worded in another language. (Type errors the JavaScript layer finds
 * before the core sees a value, such as a string for a number, carry neither.)
 */
export interface StatusError extends Error {
  /** The status name, e.g. `'d_model_odd'`. */
  readonly status: string;
  /** Placeholder name → the text the message shows for it, e.g. `{ preset: 'vaswani', dModel: '13' }`. */
  readonly values: Readonly<Record<string, string>>;
}

/** An error of {@link ropeOptionsFromConfig}: which check refused the config and the key at fault. */
export interface ConfigError extends Error {
  /**
   * The check: `'not_number'`, `'not_positive_integer'`, `'not_boolean'`, `'not_array'`,
   * `'element_not_number'`, `'not_object'`, `'not_config'`, `'text_config_not_object'`,
   * `'not_string_array'`, `'element_not_string'`, `'layer_type_not_object'`, `'no_layer_parameters'`,
   * `'missing_head_width'`, `'heads_not_divisor'`, `'not_string'`,
   * `'unknown_rope_type'`, `'missing'`, `'mrope_section_missing'`, `'cycle'` (an object the reader needs
   * refers back to one enclosing it), `'too_long'` (an array longer than one result may be), or the
   * status of a broken rule of `vocabulary.rules`, which the core checks: `'rope_base_not_above_one'`,
   * `'bad_rotary_dim'`, `'mrope_section_sum'`, `'rotary_dim_not_multiple_of_4'`, `'freq_factor_order'`
   * (the core's message for that status, each option it names replaced by its config key), or, for a
   * value against its option's rule (positive, count, fraction, the entries per pair), which the core
   * checks too, that option's bad-value status from `vocabulary.statuses` (bad_base for rope_theta,
   * bad_short_factor, bad_partial_rotary_factor, ...), worded the same way.
   */
  readonly code: string;
  /** For a broken rule: its name in `vocabulary.rules` (e.g. `'freq_factor_order'`). */
  readonly rule?: string;
  /** The config key at fault as the message writes it, e.g. `'config.rope_scaling.factor'`. */
  readonly configKey: string;
  /** `configKey` and the other values the message shows, as it shows them. */
  readonly values: Readonly<Record<string, string>>;
}

/** A preset or rope type: the options its formula reads, their defaults (null: none) and which are required. */
export interface VocabularyFormula<Name extends string> {
  readonly name: Name;
  readonly layout?: Layout;
  readonly reads: readonly string[];
  readonly defaults: Readonly<Record<string, number | null>>;
  readonly required: readonly string[];
}

/** Loads and instantiates the module. */
export default function sinpe(init?: InitOptions): Promise<Encoder>;

/** All preset names. */
export declare const presets: readonly Preset[];
/** All layout names. */
export declare const layouts: readonly Layout[];
/** All RoPE types. */
export declare const ropeTypes: readonly RopeType[];
/** All RoPE rotation layouts. */
export declare const ropeLayouts: readonly RopeLayout[];
/** All multi-axis RoPE layouts. */
export declare const ropeAxes: readonly RopeAxes[];
/** All result element types. */
export declare const dtypes: readonly Dtype[];
/** All RoPE cache recipes. */
export declare const recipes: readonly Recipe[];
/** The core's vocabulary. */
export declare const vocabulary: Vocabulary;
/**
 * A model's parsed config.json → `{ headDim, rotaryDim, options, layout }` for
 * the RoPE methods: `rope_scaling` (its type under `type` or `rope_type`, with
 * `rope_theta` at the top level) or `rope_parameters` (transformers v5),
 * `partial_rotary_factor`, `head_dim`, `max_position_embeddings`,
 * `original_max_position_embeddings` (in the scaling object or at the top
 * level), `mrope_section` / `mrope_interleaved`, `rope_interleave`; the
 * `text_config` of a multimodal config; per-layer-type parameters as
 * `layerTypes` and `layers`. Throws a TypeError/RangeError naming the config key.
 * The rules relating the options it reads (`vocabulary.rules`) are checked by
 * the module: call it after `await sinpe()` (it uses the module loaded last),
 * or as `pe.ropeOptionsFromConfig`; before any module is loaded, a config
 * whose options need that check is a TypeError saying so.
 */
export declare function ropeOptionsFromConfig(config: object): RopeConfig;
/**
 * The M-RoPE position ids of one sequence or a batch, as transformers'
 * get_rope_index of Qwen2-VL, Qwen2.5-VL and Qwen3-VL computes them
 * (modeling_rope_utils get_mrope_index; a batch takes the grids in order across
 * its rows). Throws a TypeError/RangeError naming the argument when the grids
 * do not match the image and video tokens.
 */
export declare function getRopeIndex(inputIds: RopeIndexInput, options: RopeIndexOptions & { output: 'tensors' }): RopeIndexTensors;
export declare function getRopeIndex(inputIds: ArrayLike<number | bigint>, options?: RopeIndexOptions & { output?: 'rows' }): RopeIndex;
export declare function getRopeIndex(inputIds: RopeIndexBatch, options?: RopeIndexOptions & { output?: 'rows' }): RopeIndex[];
/** The 16-bit result types (`dtype` names whose results are Uint16Array bit patterns). */
export declare const halfDtypes: readonly Exclude<Dtype, 'float32'>[];
/** The codec of a 16-bit float type: its constants and its bit-pattern functions. */
export interface HalfCodec {
  /** Fraction bits. */ readonly m: number;
  /** Exponent bits. */ readonly k: number;
  /** Exponent bias. */ readonly bias: number;
  /** Smallest normal exponent. */ readonly emin: number;
  /** Largest finite value. */ readonly max: number;
  /** The halfway point past `max`: from it up, a value rounds to infinity. */ readonly overflow: number;
  /** x rounded once to the format, to nearest, ties to even, as a number (±Infinity past the range). */
  round(x: number): number;
  /** The same rounding as its bit pattern (a quiet NaN for NaN). */
  encode(x: number): number;
  /** The value of a bit pattern (as the package's Uint16Array results hold them). */
  decode(bits: number): number;
  /** The spacing of the format's numbers at |x| (one ulp). */
  ulp(x: number): number;
}
/** The codec of `dtype` ('float16' or 'bfloat16'); a RangeError for any other value. */
export declare function halfCodec(dtype: Exclude<Dtype, 'float32'>): HalfCodec;
