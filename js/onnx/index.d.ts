/**
 * sinpe.wasm/onnx: inspect, verify and extend the RoPE caches baked into an
 * ONNX model. See docs/onnx.md. Depends on onnx-buf (@bufbuild/protobuf);
 * the package's main entry never loads it.
 * @packageDocumentation
 */
import type { Encoder, RopeOptions, Recipe } from '../sinpe.js';

/** A source of bytes: the bytes, a Blob/File, or (Node) a path. */
export type ByteSource = Uint8Array | ArrayBuffer | Blob | string;

export interface ReadOptions {
  /** External data files by the `location` their tensors name. In Node a model given by path finds them next to it. */
  externalData?: Record<string, ByteSource>;
  /** The model's name in messages. */
  name?: string;
}

/** Where a tensor's bytes live. */
export interface TensorStorage {
  kind: 'raw_data' | 'float_data' | 'int32_data' | 'double_data' | 'external';
  location?: string;
  offset?: number;
  length?: number | null;
}

export interface OnnxModel {
  readonly name: string;
  /** The decoded ModelProto (onnx-buf message). */
  readonly proto: unknown;
  /** The model file's bytes. */
  readonly bytes: Uint8Array;
  /** A tensor's little-endian element bytes, wherever they live (external data read by slices). */
  tensorBytes(tensor: unknown): Promise<Uint8Array>;
  storage(tensor: unknown): TensorStorage;
  /** Every external data location the model's tensors name. */
  externalLocations(): Set<string>;
}

export interface TensorRef {
  name: string;
  holder: 'initializer' | 'Constant';
  /** The graph holding it, e.g. `graph/If:/model/rotemb_caches_subgraph/If/then_branch`. */
  path: string;
  shape: number[];
  dtype: string;
  /** The ONNX TensorProto.DataType code. */
  dataType: number;
  storage: TensorStorage;
}

export interface RopeConsumer {
  node: string;
  opType: string;
  domain: string;
  interleaved: 0 | 1 | null;
}

export interface RopeSite {
  kind: 'cache' | 'inv_freq';
  cos?: TensorRef;
  sin?: TensorRef;
  invFreq?: TensorRef;
  /** From the tensor names or the If branch: LongRoPE small/large, Gemma 3 global/local; 'concat' for LongRoPE's short and long caches in one tensor (see segments). */
  group: 'default' | 'small' | 'large' | 'global' | 'local' | 'concat';
  /** Group 'concat' only: the rows of each cache in the one tensor (small: rows 0 … L−1, large: L … L+M−1); in a report, each segment's own verdict too. */
  segments?: { group: 'small' | 'large'; start: number; rows: number; verdict?: SiteReport['verdict']; fit?: SiteReport['fit']; diagnosis?: SiteReport['diagnosis']; message?: string }[];
  /** Kind 'cache': the ops between the baked tensor and its reader, from the tensor on (e.g. ['Gather', 'Cast']); [] when the reader takes it directly. */
  through?: string[];
  consumers: RopeConsumer[];
  /** The consumers' layout attribute: RotaryEmbedding's `interleaved`, GroupQueryAttention's `rotary_interleaved`, as onnxruntime reads them (null: none, or they disagree). */
  interleaved: 0 | 1 | null;
  /** The baked context length (0 for inv_freq). */
  rows: number;
  rotaryDim: number;
  dtype: string;
}

export type Mistake =
  | 'default-rope-type'
  | 'wrong-base'
  | 'wrong-factor'
  | 'wrong-attention-factor'
  | 'layout-half-vs-interleaved'
  | 'cos-sin-swapped'
  | 'rounded-twice'
  | 'short-long-exchanged'
  | 'other-layer-type'
  | 'mrope-section'
  | 'wrong-rotary-dim'
  /** A reader's `interleaved` / `rotary_interleaved` says another layout than the model family's own code (js/onnx/family.js), whatever the cache values. */
  | 'layout-attribute'
  | 'unknown';

export interface SiteReport extends RopeSite {
  verdict: 'exact' | 'float32' | 'mismatch' | 'unchecked';
  layerType: string | null;
  expected: { rotaryDim: number; options: RopeOptions; maxPositions: number | null } | null;
  /** Largest |cache − exact| and where; exact: the float64 value rounded once to the cache's dtype (0 for a bit-exact cache). */
  fromExact: { maxAbs: number; row: number; col: number; which: 'cos' | 'sin' | 'inv_freq' } | null;
  /** Ulps of the dtype from the named recipe (for 'float32', from the recipe with the fitted inv_freq; for a mismatch, the closer of exact and the float32 recipe with inv_freq rounded once). */
  maxUlp: number | null;
  /** Both recipes within tolerance (a short or half-precision cache cannot tell them apart). */
  matchesBoth?: boolean;
  /**
   * The float32 recipe fitted to the cache, column by column (verdict 'float32', or 'exact' with matchesBoth):
   * the float32 inv_freq each column was computed with, and its distance in ulps from the correctly rounded
   * inv_j. variant 'float64-inv' when every column is the correctly rounded one (inv_freq computed in float64,
   * rounded once), else 'float32' (torch's float32 arithmetic).
   */
  fit: { variant: 'float32' | 'float64-inv'; columns: { col: number; invFreq: number; ulps: number; ambiguous: boolean }[] } | null;
  /** Without a config: the rope type and config.json keys that reproduce the cache (recipe null: LongRoPE factors that come close), or null. */
  guess: { ropeType: string; rotaryDim: number; options: RopeOptions; config: object; recipe: Recipe | null; variant: 'float32' | 'float64-inv' | null } | null;
  /** Fewer rows than the config says (max_position_embeddings; L for LongRoPE's small cache). */
  short: boolean;
  diagnosis: { mistake: Mistake; detail: string; recipe: Recipe | null } | null;
  message: string;
}

export interface InspectReport {
  model: string;
  config: boolean;
  status: 'match' | 'mismatch' | 'unchecked';
  /** A finding about the model as a whole: the config has RoPE (a rotary dim) but no site was found (status 'mismatch'). */
  finding?: { mistake: 'no-rope-found'; detail: string };
  sites: SiteReport[];
}

export interface FindOptions {
  /** The model's parsed config.json: a LongRoPE cache of original + max rows is told as group 'concat' with its segments. */
  config?: object;
}

export interface InspectOptions extends ReadOptions {
  /** The model's parsed config.json. */
  config?: object;
  /** A loaded sinpe() module (default: one is loaded). */
  encoder?: Encoder;
  /** Called as (done, total) after each RoPE site: checked (inspectModel) or its cache computed (extendModel). */
  onProgress?: (done: number, total: number) => void;
}

export interface ExtendOptions extends InspectOptions {
  config: object;
  /** Rows of every cache (LongRoPE's small cache keeps L). Default: max_position_embeddings. */
  rows?: number;
  /**
   * Without it, a cache that matches its config keeps its rows byte for byte and continues by the recipe it
   * matched; one that does not is rebuilt exact. Given, a cache that does not match this recipe is rebuilt by it.
   */
  recipe?: Recipe;
}

export interface ExtendResult {
  /** The new model: every cache replaced inline (raw_data), everything else unchanged. */
  bytes: Uint8Array;
  /** kept: the old rows kept byte for byte; variant: the fitted float32 recipe's, when it was continued. */
  replaced: { cos: string; sin: string; group: string; rowsBefore: number; rows: number; kept: number; rotaryDim: number; dtype: string; recipe: Recipe; variant: 'float32' | 'float64-inv' | null }[];
}

/** An error reading or checking a model; the message names the file and the tensor. */
export interface OnnxError extends Error {
  readonly code: 'bad_protobuf' | 'missing_external' | 'external_out_of_range' | 'bad_tensor' | 'no_rope';
}
export declare const OnnxError: { new (code: string, message: string, options?: { cause?: unknown }): OnnxError };

/** Within this many ulps of the dtype a cache matches a recipe. */
export declare const TOLERANCE_ULPS: number;

export declare function readModel(model: ByteSource, options?: ReadOptions): Promise<OnnxModel>;
export declare function findRope(model: OnnxModel, options?: FindOptions): RopeSite[];
export declare function inspectModel(model: OnnxModel | ByteSource, options?: InspectOptions): Promise<InspectReport>;
export declare function extendModel(model: OnnxModel | ByteSource, options: ExtendOptions): Promise<ExtendResult>;
/** The exact cache (float64 values rounded once to dtype) and the float32 recipe's, as values (rows × rotaryDim/2, row-major). */
export declare function referenceCaches(pe: Encoder, rotaryDim: number, options: RopeOptions, rows: number, dtype: 'float32' | 'float16' | 'bfloat16'): { exact: { cos: Float64Array; sin: Float64Array }; recipe: { cos: Float64Array; sin: Float64Array } };
/** Node: writes the bytes to a path. */
export declare function writeModel(bytes: Uint8Array, path: string): Promise<void>;
