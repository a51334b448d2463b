/**
 * sinpe.wasm: exact sinusoidal positional encodings, generated on demand in
 * WebAssembly (SIMD when the engine has it, a baseline build otherwise).
 *
 * Every value is the float64 evaluation of its preset's formula rounded to
 * float32, within 2.5e-7 (absolute) for |position| < 2^24 and dModel ≤ 65536.
 *
 * Errors: bad arguments throw a `TypeError` (wrong type, unknown option) or a
 * `RangeError` (value out of range) whose message names the argument; nothing
 * is written and the encoder stays usable.
 *
 * @packageDocumentation
 */

/** The presets: each library's formula. */
export type Preset =
  | 'vaswani'
  | 'keras'
  | 'tensor2tensor'
  | 'fairseq'
  | 'whisper'
  | 'diffusers'
  | 'guided-diffusion'
  | 'mae';

/**
 * Column layout. `interleaved`: column 2k = sin, 2k+1 = cos. `concat`: all
 * sines then all cosines. `cos-first`: all cosines then all sines.
 */
export type Layout = 'interleaved' | 'concat' | 'cos-first';

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

/** Options of methods that return a new `Float32Array`. */
export interface OutputOptions extends EncodingOptions {
  /** Write into this array (exact length required) instead of a new one; it is returned. */
  out?: Float32Array;
}

export interface Grid2dOptions extends OutputOptions {
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

/** A loaded module. All results are JS-owned arrays; none is a view into wasm memory. */
export interface Encoder {
  /** Whether the SIMD build is running. */
  readonly simd: boolean;
  /** The package version. */
  readonly version: string;
  /** All preset names. */
  readonly presets: readonly Preset[];
  /** All layout names. */
  readonly layouts: readonly Layout[];

  /**
   * Rows for arbitrary positions (any order, fractional allowed: diffusion timesteps).
   * @param positions - n positions, each finite with |p| < 2^24.
   * @param dModel - width, 1 … 65536.
   * @returns Float32Array of n × dModel values, row-major.
   */
  encode(positions: ArrayLike<number>, dModel: number, options?: OutputOptions): Float32Array;

  /**
   * Rows `start … start+count-1`.
   * @param start - integer, |start| < 2^24.
   * @param count - integer ≥ 0; the last row must stay below 2^24.
   * @returns Float32Array of count × dModel values, row-major.
   */
  rows(start: number, count: number, dModel: number, options?: OutputOptions): Float32Array;

  /** `rows(0, length, dModel, options)`: the usual `pe[:max_len]` table. */
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

  /** Bytes of wasm memory (it grows only for cached plans, never with request size). */
  heapBytes(): number;
}

/** Loads and instantiates the module. */
export default function sinpe(init?: InitOptions): Promise<Encoder>;

/** All preset names. */
export declare const presets: readonly Preset[];
/** All layout names. */
export declare const layouts: readonly Layout[];
