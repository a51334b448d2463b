// Multi-axis RoPE, half-precision output, get_rope_index and per-layer-type
// configs checked against the independent Python reference
// (tests/py/rope_multimodal_reference.py, written from transformers' source
// without reading sinpe's code): the package as users get it, both flavours.
//
// Forms compared (random configs and positions from a fixed seed; FULL=1 for
// more): multi-axis ropeCache / ropeCacheRows / ropeCacheGrid / applyRope and
// prepareRope (sectioned = Qwen2/2.5-VL, interleaved = Qwen3-VL, axial =
// Qwen2-VL's vision tower, pixtral), float16 and bfloat16 output of the RoPE
// caches and of table / rows / encode (bit-exact against one rounding of the
// float64 value; ties and subnormals included), getRopeIndex (exact integers)
// and ropeOptionsFromConfig's layerTypes / layers / layout / mropeSection.
//
// Needs SINPE_REPO_ROOT (tests/js/run.sh exports it) and a Python 3 with numpy
// (SINPE_PYTHON, else Debian's /usr/bin/python3, else python3 on PATH).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sinpe, { ropeOptionsFromConfig, getRopeIndex } from 'sinpe.wasm';
import { mulberry32, rotaryInput } from './fixtures/random.mjs';
import { runPython as runPythonScript } from './python-reference.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const FULL = process.env.FULL === '1';

// The README's RoPE contract.
const CACHE_TOLERANCE = 2.5e-7; // absolute, × max(1, att)
const ROTATION_TOLERANCE = 5e-7; // × max(1, att) × (|x_a| + |x_b|)
const FREQUENCY_TOLERANCE = 1e-12; // relative
const MAX_POSITION = 2 ** 24;

const runPython = (args, input) => runPythonScript('rope_multimodal_reference.py', args, input);

function decode(base64, Type) {
  const bytes = Buffer.from(base64, 'base64');
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Type(copy.buffer); // little-endian, as the reference writes it (and every engine sinpe runs on is)
}
const toBase64 = (typed) => Buffer.from(typed.buffer, typed.byteOffset, typed.byteLength).toString('base64');

// ---------------------------------------------------------------------------
// Cases
// ---------------------------------------------------------------------------

const random = mulberry32(0x5eed17);
const pick = (list) => list[Math.floor(random() * list.length)];
const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));

// Positions an axis may take: small and large integers, fractions, negatives,
// all |p| < 2^24.
function position() {
  switch (int(0, 5)) {
    case 0:
      return int(0, 64);
    case 1:
      return int(0, MAX_POSITION - 1);
    case 2:
      return int(0, 1 << 17) + pick([0.5, 0.25, 0.875, 0.1]);
    case 3:
      return -int(1, MAX_POSITION - 1);
    case 4:
      return pick([0, 1, 2 ** 23, MAX_POSITION - 1, MAX_POSITION - 2.5, -(MAX_POSITION - 1)]);
    default:
      return random() * 4096;
  }
}

// n positive integers adding up to total (each ≥ 1).
function split(total, n) {
  const cuts = new Set();
  while (cuts.size < n - 1) cuts.add(int(1, total - 1));
  const points = [0, ...[...cuts].sort((a, b) => a - b), total];
  return points.slice(1).map((p, i) => p - points[i]);
}

// A multi-axis plan: { mode, rotaryDim, base, sections, axes, options }.
function plan(mode) {
  const rotaryDim = mode === 'pixtral' ? pick([8, 16, 32, 64, 128]) : pick([6, 8, 16, 20, 32, 64, 128]);
  const half = rotaryDim / 2;
  const base = pick([10000, 1e6, 5e6, 100, 1.5]);
  let sections = null;
  if (mode === 'sectioned') sections = split(half, half >= 3 ? 3 : 2);
  if (mode === 'axial') sections = split(half, half >= 3 && random() < 0.5 ? 3 : 2);
  if (mode === 'interleaved') {
    // Qwen3-VL's shape: H and W sections of at most a third each, T the rest.
    const s1 = int(1, Math.max(1, Math.floor(half / 3)));
    const s2 = int(1, Math.max(1, Math.floor(half / 3)));
    sections = [half - s1 - s2, s1, s2];
  }
  const options = { base };
  if (sections) options.mropeSection = sections;
  // sectioned is the default with mropeSection: name it on half the cases.
  if (mode !== 'sectioned' || random() < 0.5) options.ropeAxes = mode;
  const axes = mode === 'pixtral' ? 2 : sections.length;
  return { mode, rotaryDim, base, sections, axes, options };
}

const MODES = ['sectioned', 'interleaved', 'axial', 'pixtral'];
const PLANS_PER_MODE = FULL ? 24 : 6;
const TOKENS = FULL ? 96 : 24;

// A Qwen2-VL-style text config with a scaled rope type and mrope_section: the
// attention factor and the text frequencies must carry through the sections.
const SCALED_CONFIGS = [
  {
    name: 'yarn + mrope (sectioned)',
    mode: 'sectioned',
    config: {
      head_dim: 64,
      max_position_embeddings: 131072,
      rope_theta: 1e6,
      rope_scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 32768, mrope_section: [8, 12, 12] },
    },
  },
  {
    name: 'linear + mrope (interleaved)',
    mode: 'interleaved',
    config: {
      head_dim: 32,
      rope_theta: 5e6,
      rope_scaling: { rope_type: 'linear', factor: 2, mrope_section: [6, 5, 5], mrope_interleaved: true },
    },
  },
];

function cacheCases() {
  const cases = [];
  for (const mode of MODES) {
    for (let k = 0; k < PLANS_PER_MODE; k++) {
      const p = plan(mode);
      const positions = Array.from({ length: TOKENS * p.axes }, position);
      cases.push({ name: `${mode} #${k} r=${p.rotaryDim} base=${p.base} sections=${p.sections}`, plan: p, positions });
    }
  }
  return [...cases, ...structuredCases()];
}

// Positions the multi-axis cache shares float64 anchors across (one per
// 64-row block, kept for a few blocks), on fixed plans of each mode (no
// random draws: the cases above keep their seed): per axis, a run broken at
// every block boundary, one broken a row after it, descending, repeated,
// step 2 within groups, negative, integers and halves alternating; and a
// Qwen-like text, image grid (12, 12 + row, 12 + column), text sequence.
const STRUCTURED_PLANS = [
  { mode: 'sectioned', rotaryDim: 128, base: 1e6, sections: [16, 24, 24], axes: 3, options: { base: 1e6, mropeSection: [16, 24, 24] } },
  { mode: 'interleaved', rotaryDim: 128, base: 5e6, sections: [24, 20, 20], axes: 3, options: { base: 5e6, mropeSection: [24, 20, 20], ropeAxes: 'interleaved' } },
  { mode: 'axial', rotaryDim: 64, base: 10000, sections: [16, 16], axes: 2, options: { base: 10000, mropeSection: [16, 16], ropeAxes: 'axial' } },
  { mode: 'pixtral', rotaryDim: 64, base: 10000, sections: null, axes: 2, options: { base: 10000, ropeAxes: 'pixtral' } },
];
const AXIS_PATTERNS = [
  (i) => i + 1000 * Math.floor(i / 64),
  (i) => i + 1000 * Math.floor((i + 1) / 64),
  (i) => 300 - i,
  (i) => Math.floor(i / 5),
  (i) => i + (i % 7),
  (i) => i - 100,
  (i) => i / 2,
];
function structuredCases() {
  const cases = [];
  for (const p of STRUCTURED_PLANS) {
    const mixed = [];
    const token = (...v) => mixed.push(...v.slice(0, p.axes));
    for (let i = 0; i < 12; i++) token(i, i, i);
    for (let r = 0; r < 9; r++) for (let c = 0; c < 14; c++) token(12, 12 + r, 12 + c);
    for (let i = 0; i < 80; i++) token(26 + i, 26 + i, 26 + i);
    const patterned = [];
    for (let i = 0; i < 150; i++) for (let a = 0; a < p.axes; a++) patterned.push(AXIS_PATTERNS[(a + Math.floor(i / 50)) % AXIS_PATTERNS.length](i));
    const every = [];
    for (const f of AXIS_PATTERNS) for (let i = 0; i < 70; i++) for (let a = 0; a < p.axes; a++) every.push(f(i));
    cases.push({ name: `${p.mode} structured: text, image grid, text`, plan: p, positions: mixed, structured: true });
    cases.push({ name: `${p.mode} structured: a pattern per axis`, plan: p, positions: patterned, structured: true });
    cases.push({ name: `${p.mode} structured: every axis each pattern`, plan: p, positions: every, structured: true });
  }
  return cases;
}

// Half-precision cases: each value once rounded. The positions reach 2^20 so
// the usual float32 path shows its error; a yarn attention factor of
// 1 + 2^-11 (float16) or 1 + 2^-8 / 1 + 3·2^-8 (bfloat16) makes cos at
// position 0 an exact tie; tiny positions give subnormal sines.
function halfCases() {
  const cases = [];
  const positions = [0, 1, 2, 3, 17, 100, 1023, 4096, 65535, 131071, 500000, 1 << 20, 2 ** 23 + 1, MAX_POSITION - 1, 0.5, 1234.5678, -7.25];
  for (const [rotaryDim, base] of [
    [128, 10000],
    [64, 1e6],
    [16, 500000],
  ]) {
    cases.push({ name: `default r=${rotaryDim} base=${base}`, rotaryDim, options: { base }, config: { head_dim: rotaryDim, rope_theta: base }, positions });
  }
  const subnormal16 = [2 ** -20, 1e-6, 3e-7, 2 ** -24, 1.5 * 2 ** -25, 6e-5];
  const subnormalBf16 = [1e-39, 3e-40, 2 ** -133, 1.5 * 2 ** -134, 1e-45];
  cases.push({ name: 'subnormal sines', rotaryDim: 8, options: { base: 10000 }, config: { head_dim: 8, rope_theta: 10000 }, positions: [...subnormal16, ...subnormalBf16] });
  for (const att of [1 + 2 ** -11, 1 + 3 * 2 ** -11, 1 + 2 ** -8, 1 + 3 * 2 ** -8, 1 + 2 ** -11 + 2 ** -30, 1 + 2 ** -8 + 2 ** -30]) {
    const config = {
      head_dim: 8,
      max_position_embeddings: 8192,
      rope_scaling: { rope_type: 'yarn', factor: 2, original_max_position_embeddings: 4096, attention_factor: att },
    };
    cases.push({ name: `tie: attention factor ${att}`, rotaryDim: 8, fromConfig: true, config, positions: [0, 1, 2] });
  }
  return cases;
}

// get_rope_index sequences: text, images and videos in random order, with
// vision_start before each block, random grids, optional left padding.
const IDS = { imageTokenId: 151655, videoTokenId: 151656, visionStartTokenId: 151652, visionEndTokenId: 151653 };
function indexCases() {
  const cases = [];
  const count = FULL ? 120 : 30;
  for (let k = 0; k < count; k++) {
    const model = pick(['qwen2-vl', 'qwen2.5-vl', 'qwen3-vl']);
    const merge = pick([1, 2, 2, 2, 3]);
    const ids = [];
    const imageGridThw = [];
    const videoGridThw = [];
    const secondPerGridTs = [];
    const text = (least) => {
      for (let q = int(least, 6); q > 0; q--) ids.push(int(1, 150000));
    };
    const blocks = int(0, 3);
    text(1);
    for (let b = 0; b < blocks; b++) {
      const video = random() < 0.5;
      const t = video ? int(1, 4) : 1;
      const h = merge * int(1, 4);
      const w = merge * int(1, 4);
      const frames = model === 'qwen3-vl' && video ? t : 1;
      for (let f = 0; f < frames; f++) {
        if (f > 0) ids.push(int(1, 150000)); // Qwen3-VL: a timestamp token between frames
        ids.push(IDS.visionStartTokenId);
        const tokens = ((frames > 1 ? 1 : t) * h * w) / (merge * merge);
        for (let q = 0; q < tokens; q++) ids.push(video ? IDS.videoTokenId : IDS.imageTokenId);
        ids.push(IDS.visionEndTokenId);
      }
      (video ? videoGridThw : imageGridThw).push([t, h, w]);
      if (video) secondPerGridTs.push(pick([1, 2, 0.5, 1.5, 4 / 3]));
      text(0);
    }
    const opts = { ...IDS, model, spatialMergeSize: merge };
    delete opts.visionEndTokenId;
    if (imageGridThw.length || random() < 0.2) opts.imageGridThw = imageGridThw;
    if (videoGridThw.length) opts.videoGridThw = videoGridThw;
    if (model === 'qwen2.5-vl' && videoGridThw.length && random() < 0.8) opts.secondPerGridTs = secondPerGridTs;
    if (model === 'qwen2.5-vl') opts.tokensPerSecond = pick([2, 2, 4, 25]);
    if (random() < 0.3) {
      const pad = int(1, 3);
      opts.attentionMask = [...Array(pad).fill(0), ...ids.map(() => 1)];
      ids.unshift(...Array(pad).fill(0));
    }
    cases.push({ name: `${model} #${k}`, inputIds: ids, opts });
  }
  return cases;
}

// Configs with per-layer-type parameters, layouts and multimodal keys.
const CONFIGS = [
  {
    // Qwen3VLTextRotaryEmbedding interleaves whether or not the file says so
    name: 'qwen3_vl_text without mrope_interleaved',
    config: { model_type: 'qwen3_vl_text', head_dim: 128, rope_theta: 5000000, rope_scaling: { rope_type: 'default', mrope_section: [24, 20, 20] } },
  },
  {
    name: 'gemma-3 (transformers 4.5x file: rope_scaling + rope_local_base_freq + sliding_window_pattern)',
    config: {
      model_type: 'gemma3_text',
      head_dim: 256,
      num_hidden_layers: 34,
      max_position_embeddings: 131072,
      rope_theta: 1000000,
      rope_local_base_freq: 10000,
      rope_scaling: { factor: 8, rope_type: 'linear' },
      sliding_window_pattern: 6,
    },
  },
  {
    name: 'gemma-3 with layer_types',
    config: {
      model_type: 'gemma3_text',
      head_dim: 128,
      num_hidden_layers: 6,
      rope_theta: 1000000,
      rope_local_base_freq: 20000,
      layer_types: ['sliding_attention', 'full_attention', 'sliding_attention', 'sliding_attention', 'full_attention', 'full_attention'],
    },
  },
  {
    name: 'v5 rope_parameters keyed by layer type (yarn full, default sliding)',
    config: {
      model_type: 'some_v5_model',
      head_dim: 64,
      num_hidden_layers: 4,
      max_position_embeddings: 65536,
      layer_types: ['sliding_attention', 'full_attention', 'sliding_attention', 'full_attention'],
      rope_parameters: {
        full_attention: { rope_type: 'yarn', rope_theta: 1e6, factor: 4, original_max_position_embeddings: 16384 },
        sliding_attention: { rope_type: 'default', rope_theta: 10000 },
      },
    },
  },
  {
    name: 'v5 rope_parameters keyed by layer type (linear full, top-level rope_theta fills sliding)',
    config: {
      model_type: 'some_v5_model',
      hidden_size: 1024,
      num_attention_heads: 8,
      num_hidden_layers: 2,
      rope_theta: 50000,
      layer_types: ['full_attention', 'sliding_attention'],
      rope_parameters: { full_attention: { rope_type: 'linear', factor: 2, rope_theta: 1e6 }, sliding_attention: { rope_type: 'default' } },
    },
  },
  {
    name: 'gemma-4 style: proportional full layers over global_head_dim, default sliding layers',
    config: {
      model_type: 'gemma4_text',
      head_dim: 256,
      global_head_dim: 512,
      num_hidden_layers: 6,
      layer_types: ['sliding_attention', 'sliding_attention', 'sliding_attention', 'sliding_attention', 'sliding_attention', 'full_attention'],
      rope_parameters: {
        sliding_attention: { rope_type: 'default', rope_theta: 10000 },
        full_attention: { rope_type: 'proportional', rope_theta: 1000000, partial_rotary_factor: 0.25 },
      },
    },
  },
  { name: 'deepseek rope_interleave true', config: { model_type: 'deepseek_v3', qk_rope_head_dim: 64, rope_theta: 10000, rope_interleave: true } },
  { name: 'deepseek rope_interleave false', config: { model_type: 'deepseek_v3', qk_rope_head_dim: 64, rope_theta: 10000, rope_interleave: false } },
  { name: 'deepseek_v3 without rope_interleave (the config class defaults to true)', config: { model_type: 'deepseek_v3', qk_rope_head_dim: 64, rope_theta: 10000 } },
  { name: 'llama (half)', config: { model_type: 'llama', head_dim: 128, rope_theta: 500000 } },
  {
    name: 'qwen2-vl ("type": "mrope")',
    config: { model_type: 'qwen2_vl', hidden_size: 1536, num_attention_heads: 12, rope_theta: 1000000, rope_scaling: { type: 'mrope', mrope_section: [16, 24, 24] } },
  },
  {
    name: 'qwen3-vl (mrope_interleaved)',
    config: {
      model_type: 'qwen3_vl_text',
      head_dim: 128,
      rope_theta: 5000000,
      rope_scaling: { rope_type: 'default', mrope_section: [24, 20, 20], mrope_interleaved: true },
    },
  },
];

// Published config.json files: the vision-language ones (Gemma 3's sparse
// text_config, Qwen2-VL, Qwen3-VL) and DeepSeek-V3 (rope_interleave, yarn).
function publishedConfigs() {
  const dir = join(here, 'fixtures', 'configs-vlm');
  const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  assert.ok(files.length >= 3, `${files.length} files in fixtures/configs-vlm`);
  return [...files.map((f) => join(dir, f)), join(here, 'fixtures', 'configs', 'deepseek-v3.json')].map((path) => ({
    name: `published ${path.slice(path.lastIndexOf('/') + 1)}`,
    config: JSON.parse(readFileSync(path, 'utf8')),
  }));
}

// ---------------------------------------------------------------------------
// Running the reference
// ---------------------------------------------------------------------------

const flavours = {};
const state = {};
const worst = {};
const record = (form, value) => {
  if (!(value <= (worst[form] ?? 0))) worst[form] = value;
};
const extra = {};

before(async () => {
  flavours.simd = await sinpe({ simd: true });
  flavours.baseline = await sinpe({ simd: false });
  state.caches = cacheCases();
  state.scaled = SCALED_CONFIGS.map((c) => ({ ...c, positions: Array.from({ length: TOKENS * 3 }, position) }));
  state.half = halfCases();
  state.index = indexCases();
  state.grids = [];
  for (const mode of ['pixtral', 'axial', 'sectioned']) {
    for (let k = 0; k < (FULL ? 8 : 3); k++) {
      const p = plan(mode);
      if (mode !== 'pixtral') {
        p.sections = split(p.rotaryDim / 2, 2);
        p.options.mropeSection = p.sections;
        p.axes = 2;
      }
      state.grids.push({ name: `grid ${mode} #${k} r=${p.rotaryDim}`, plan: p, height: int(1, 9), width: int(1, 9) });
    }
  }
  state.rotations = [];
  for (const mode of MODES) {
    for (let k = 0; k < (FULL ? 12 : 3); k++) {
      const p = plan(mode);
      const headDim = p.rotaryDim + pick([0, 0, 2, 6]);
      const heads = int(1, 3);
      const n = int(1, 12);
      const x = rotaryInput(n * heads * headDim, 1000 + state.rotations.length);
      const layout = k % 2 === 0 ? 'half' : 'interleaved';
      const positions = Array.from({ length: n * p.axes }, position);
      state.rotations.push({ name: `rotate ${mode} ${layout} #${k} r=${p.rotaryDim} head=${headDim}`, plan: p, headDim, x, layout, positions });
    }
  }
  const tablePositions = [0, 1, 2, 5, 100, 4096, 65535, 1 << 20, MAX_POSITION - 1, 0.5, 99999.875];
  state.tables = [
    { name: 'table d=64', dModel: 64, positions: tablePositions },
    { name: 'table d=512', dModel: 512, positions: tablePositions },
  ];

  const requests = [];
  const add = (r) => requests.push(r) - 1;
  for (const c of state.caches) {
    const { mode, rotaryDim, base, sections, axes } = c.plan;
    c.request = add({ kind: 'cache', name: c.name, mode, rotaryDim, theta: base, sections, axes, positions: c.positions });
    // The same plan with one position per token (ropeCacheRows).
    if (mode !== 'pixtral' && !c.structured) {
      c.rowsStart = int(0, MAX_POSITION - 40);
      c.rowsRequest = add({
        kind: 'cache',
        mode,
        rotaryDim,
        theta: base,
        sections,
        axes: 1,
        positions: Array.from({ length: 20 }, (_, i) => c.rowsStart + i),
      });
    }
  }
  for (const c of state.scaled) {
    const mapped = ropeOptionsFromConfig(c.config);
    c.mapped = mapped;
    const sections = c.config.rope_scaling.mrope_section;
    c.request = add({ kind: 'cache', name: c.name, mode: c.mode, rotaryDim: mapped.rotaryDim, config: c.config, sections, axes: 3, positions: c.positions });
  }
  for (const g of state.grids) {
    const { mode, rotaryDim, base, sections } = g.plan;
    g.request = add({ kind: 'cache', name: g.name, mode, rotaryDim, theta: base, sections, grid: [g.height, g.width], dtypes: ['float16', 'bfloat16'] });
  }
  for (const r of state.rotations) {
    const { mode, rotaryDim, base, sections, axes } = r.plan;
    r.request = add({
      kind: 'rotate',
      mode,
      rotaryDim,
      headDim: r.headDim,
      theta: base,
      sections,
      axes,
      positions: r.positions,
      layout: r.layout,
      x: toBase64(r.x),
    });
  }
  for (const h of state.half) {
    const request = { kind: 'cache', name: h.name, mode: 'sectioned', rotaryDim: h.rotaryDim, sections: [h.rotaryDim / 2], axes: 1, positions: h.positions, dtypes: ['float16', 'bfloat16'] };
    request.config = h.config;
    h.request = add(request);
  }
  // A multi-axis half-precision case (interleaved, the Qwen3-VL shape).
  state.halfMulti = { name: 'interleaved float16/bfloat16', plan: { ...plan('interleaved') } };
  state.halfMulti.positions = Array.from({ length: 16 * 3 }, position);
  {
    const { mode, rotaryDim, base, sections } = state.halfMulti.plan;
    state.halfMulti.request = add({ kind: 'cache', mode, rotaryDim, theta: base, sections, axes: 3, positions: state.halfMulti.positions, dtypes: ['float16', 'bfloat16'] });
  }
  for (const t of state.tables) t.request = add({ kind: 'table', name: t.name, dModel: t.dModel, positions: t.positions, dtypes: ['float16', 'bfloat16'] });
  for (const c of state.index) {
    c.request = add({ kind: 'ropeIndex', name: c.name, inputIds: c.inputIds, ...c.opts });
    c.legacyRequest = add({ kind: 'ropeIndex', name: c.name, inputIds: c.inputIds, ...c.opts, legacy: true });
  }
  state.configs = [...CONFIGS, ...publishedConfigs()];
  for (const c of state.configs) c.request = add({ kind: 'config', name: c.name, config: c.config });

  const started = Date.now();
  state.answers = JSON.parse(runPython(['--json', '-'], JSON.stringify(requests)));
  state.pythonSeconds = (Date.now() - started) / 1000;
  assert.equal(state.answers.length, requests.length, 'one Python answer per request');
  // The legacy get_rope_index reading is only reported; every other request must be answered.
  const refused = state.answers.filter((a, i) => a.error !== undefined && requests[i].legacy !== true);
  assert.deepEqual(refused, [], 'the Python reference computes every case');
});

after(() => {
  const forms = Object.keys(worst).sort();
  const lines = forms.map((f) => `${f}: ${worst[f].toExponential(2)}`);
  const extras = Object.entries(extra).map(([k, v]) => `${k}: ${v}`);
  console.log(
    `Multi-axis RoPE, half precision, getRopeIndex and configs against the Python reference ` +
      `(${state.pythonSeconds ?? '?'} s of Python); largest errors:\n  ${lines.join('\n  ')}\n  ${extras.join('\n  ')}`,
  );
  if (process.env.SINPE_SUMMARY && forms.length) {
    const most = (prefix) => Math.max(...forms.filter((f) => f.startsWith(prefix)).map((f) => worst[f])).toExponential(1);
    appendFileSync(
      process.env.SINPE_SUMMARY,
      `rope multimodal vs Python reference: caches ${most('ropeCache')}, applyRope ${most('applyRope')}·(|x_a|+|x_b|), ` +
        `prepared ${most('prepareRope.')}; float16/bfloat16 bit-exact (usual path below 131072: ` +
        `${most('float16 cache: usual path at')} / ${most('bfloat16 cache: usual path at')}); ` +
        `getRopeIndex exact; per-layer-type inv_j ${most('ropeOptionsFromConfig')}\n`,
    );
  }
});

// ---------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------

// Largest |got − want| / (tolerance scale); fails on the first value over.
function checkValues(got, want, tolerance, scale, label) {
  assert.equal(got.length, want.length, `${label}: length ${got.length}, reference ${want.length}`);
  let largest = 0;
  for (let i = 0; i < want.length; i++) {
    const e = Math.abs(got[i] - want[i]) / scale;
    if (!(e <= tolerance)) assert.fail(`${label}: [${i}] = ${got[i]}, reference ${want[i]} (error ${e} × scale)`);
    if (e > largest) largest = e;
  }
  return largest;
}

function checkCache(got, answer, label) {
  assert.ok(got.cos instanceof Float32Array && got.sin instanceof Float32Array, `${label}: Float32Array caches`);
  const scale = Math.max(1, Math.abs(answer.attentionFactor));
  const a = checkValues(got.cos, decode(answer.cos, Float64Array), CACHE_TOLERANCE, scale, `${label} cos`);
  const b = checkValues(got.sin, decode(answer.sin, Float64Array), CACHE_TOLERANCE, scale, `${label} sin`);
  return Math.max(a, b);
}

// Bit patterns: equal to the reference's rounding, or, where the float64
// reference cannot decide between two neighbours (within its own error of a
// midpoint), to the other one. Returns how many took the alternate.
function checkBits(got, want, alternate, label) {
  assert.ok(got instanceof Uint16Array, `${label}: a Uint16Array (got ${got?.constructor?.name})`);
  assert.equal(got.length, want.length, `${label}: length ${got.length}, reference ${want.length}`);
  let alternates = 0;
  for (let i = 0; i < want.length; i++) {
    if (got[i] === want[i]) continue;
    if (got[i] === alternate[i] && alternate[i] !== want[i]) {
      alternates++;
      continue;
    }
    assert.fail(`${label}: [${i}] = 0x${got[i].toString(16)}, reference 0x${want[i].toString(16)} (one rounding of the float64 value)`);
  }
  return alternates;
}

function checkHalfCache(got, answer, dtype, label) {
  const a = answer[dtype];
  assert.ok(a, `${label}: the reference has no ${dtype} answer`);
  const alt =
    checkBits(got.cos, decode(a.cos, Uint16Array), decode(a.cosAlt, Uint16Array), `${label} ${dtype} cos`) +
    checkBits(got.sin, decode(a.sin, Uint16Array), decode(a.sinAlt, Uint16Array), `${label} ${dtype} sin`);
  extra[`${dtype} values where the float64 reference sits on a midpoint (either neighbour accepted)`] =
    (extra[`${dtype} values where the float64 reference sits on a midpoint (either neighbour accepted)`] ?? 0) + alt;
  record(`${dtype} cache: one rounding, largest |rounded − float64|`, a.roundedError);
  record(`${dtype} cache: usual path (float32 angle, cos, cast), largest |value − float64|`, a.usualError);
  return a.cos.length;
}

describe('multi-axis RoPE against the Python reference', () => {
  test('the reference passes its self-test (roundings, section maps, an index fixed by their definitions)', () => {
    assert.match(runPython(['--self-test']), /rope_multimodal_reference: self-test passed/);
  });

  test('the cases cover every ropeAxes and the reference answered them', () => {
    const modes = new Set(state.caches.map((c) => c.plan.mode));
    assert.deepEqual([...modes].sort(), ['axial', 'interleaved', 'pixtral', 'sectioned']);
    assert.ok(state.caches.length >= 4 * PLANS_PER_MODE);
  });

  for (const flavour of ['simd', 'baseline']) {
    test(`ropeCache and ropeCacheRows (${flavour}): cos/sin within 2.5e-7·max(1, att)`, () => {
      const pe = flavours[flavour];
      let compared = 0;
      for (const c of state.caches) {
        const answer = state.answers[c.request];
        const got = pe.ropeCache(c.positions, c.plan.rotaryDim, c.plan.options);
        record(`ropeCache ${c.plan.mode} (× max(1, att))`, checkCache(got, answer, `${flavour}, ${c.name}`));
        compared += got.cos.length;
        if (c.rowsRequest !== undefined) {
          const rows = pe.ropeCacheRows(c.rowsStart, 20, c.plan.rotaryDim, c.plan.options);
          record(`ropeCacheRows ${c.plan.mode}`, checkCache(rows, state.answers[c.rowsRequest], `${flavour}, rows of ${c.name}`));
        }
      }
      for (const c of state.scaled) {
        const answer = state.answers[c.request];
        const options = { ...c.mapped.options };
        if (c.mode === 'interleaved') assert.equal(options.ropeAxes, 'interleaved', `${c.name}: mrope_interleaved maps to ropeAxes 'interleaved'`);
        assert.deepEqual([...options.mropeSection], c.config.rope_scaling.mrope_section, `${c.name}: mropeSection`);
        const got = pe.ropeCache(c.positions, c.mapped.rotaryDim, options);
        assert.ok(Math.abs(got.attentionFactor - answer.attentionFactor) <= 1e-15 * answer.attentionFactor, `${c.name}: attention factor`);
        record(`ropeCache scaled text type + ${c.mode}`, checkCache(got, answer, `${flavour}, ${c.name}`));
      }
      assert.ok(compared > 1000, `${compared} values compared`);
    });

    test(`ropeCacheGrid (${flavour}): patch i·width + j at (row i, column j)`, () => {
      const pe = flavours[flavour];
      assert.ok(state.grids.length >= 9, `${state.grids.length} grids`);
      for (const g of state.grids) {
        const got = pe.ropeCacheGrid(g.height, g.width, g.plan.rotaryDim, g.plan.options);
        record(`ropeCacheGrid ${g.plan.mode}`, checkCache(got, state.answers[g.request], `${flavour}, ${g.name}`));
      }
    });

    test(`applyRope with multi-axis positions (${flavour}): within 5e-7·(|x_a| + |x_b|), pass-through exact`, () => {
      const pe = flavours[flavour];
      assert.ok(state.rotations.length >= 4 * 3, `${state.rotations.length} rotations`);
      for (const r of state.rotations) {
        const answer = state.answers[r.request];
        const want = decode(answer.y, Float64Array);
        const x = Float32Array.from(r.x);
        const got = pe.applyRope(x, r.positions, r.headDim, { ...r.plan.options, rotaryDim: r.plan.rotaryDim, layout: r.layout });
        assert.equal(got, x, `${r.name}: applyRope returns x`);
        record(`applyRope ${r.plan.mode} ${r.layout} (÷ (|x_a| + |x_b|))`, checkRotation(got, r, want, `${flavour}, ${r.name}`));
      }
    });

    test(`prepareRope (${flavour}): frequencies, cache, cacheRows, grid, apply against the reference`, () => {
      const pe = flavours[flavour];
      for (const c of state.caches.slice(0, FULL ? undefined : 12)) {
        const answer = state.answers[c.request];
        const prepared = pe.prepareRope(c.plan.rotaryDim, c.plan.options);
        assert.equal(prepared.axes, c.plan.axes, `${c.name}: axes`);
        assert.equal(prepared.rotaryDim, c.plan.rotaryDim);
        // Frequencies per pair j (the reference's freqs[j], for the axis of pair j).
        const freqs = prepared.frequencies;
        assert.ok(freqs instanceof Float64Array, `${c.name}: Float64Array frequencies`);
        assert.equal(freqs.length, answer.freqs.length, `${c.name}: frequency count`);
        answer.freqs.forEach((f, j) => {
          const e = Math.abs(freqs[j] - f) / f;
          if (!(e <= FREQUENCY_TOLERANCE)) assert.fail(`${flavour}, ${c.name}: frequencies[${j}] = ${freqs[j]}, reference ${f}`);
          record('prepareRope frequencies (relative)', e);
        });
        record(`prepareRope.cache`, checkCache(prepared.cache(c.positions), answer, `${flavour}, prepared ${c.name}`));
        if (c.rowsRequest !== undefined) {
          record('prepareRope.cacheRows', checkCache(prepared.cacheRows(c.rowsStart, 20), state.answers[c.rowsRequest], `${flavour}, prepared rows ${c.name}`));
        }
      }
      for (const g of state.grids) {
        const prepared = pe.prepareRope(g.plan.rotaryDim, g.plan.options);
        record('prepareRope.grid', checkCache(prepared.grid(g.height, g.width), state.answers[g.request], `${flavour}, prepared ${g.name}`));
      }
      for (const r of state.rotations) {
        const prepared = pe.prepareRope(r.plan.rotaryDim, r.plan.options);
        const x = Float32Array.from(r.x);
        prepared.apply(x, r.positions, r.headDim, { layout: r.layout });
        record('prepareRope.apply', checkRotation(x, r, decode(state.answers[r.request].y, Float64Array), `${flavour}, prepared ${r.name}`));
      }
    });
  }
});

// The rotated values against the float64 rotation of the float32 inputs;
// dimensions from rotaryDim on must come back unchanged.
function checkRotation(got, r, want, label) {
  const { rotaryDim } = r.plan;
  const d = r.headDim;
  const half = rotaryDim / 2;
  let largest = 0;
  for (let row = 0; row < got.length / d; row++) {
    const o = row * d;
    for (let k = 0; k < d; k++) {
      const i = o + k;
      if (k >= rotaryDim) {
        if (!Object.is(got[i], r.x[i])) assert.fail(`${label}: pass-through [${i}] = ${got[i]}, input ${r.x[i]}`);
        continue;
      }
      let a;
      let b;
      if (r.layout === 'half') {
        a = k < half ? k : k - half;
        b = a + half;
      } else {
        a = k - (k % 2);
        b = a + 1;
      }
      const scale = Math.abs(r.x[o + a]) + Math.abs(r.x[o + b]);
      const e = Math.abs(got[i] - want[i]);
      if (!(e <= ROTATION_TOLERANCE * scale)) assert.fail(`${label}: [${i}] = ${got[i]}, reference ${want[i]} (error ${e}, |x_a| + |x_b| = ${scale})`);
      if (scale > 0 && e / scale > largest) largest = e / scale;
    }
  }
  return largest;
}

describe('float16 and bfloat16 output: one rounding of the float64 value', () => {
  for (const flavour of ['simd', 'baseline']) {
    test(`RoPE caches (${flavour}): ropeCache, ropeCacheRows, ropeCacheGrid, prepareRope, bit-exact`, () => {
      const pe = flavours[flavour];
      let compared = 0;
      for (const dtype of ['float16', 'bfloat16']) {
        for (const h of state.half) {
          const answer = state.answers[h.request];
          const options = h.fromConfig ? ropeOptionsFromConfig(h.config).options : h.options;
          const got = pe.ropeCache(h.positions, h.rotaryDim, { ...options, dtype });
          compared += checkHalfCache(got, answer, dtype, `${flavour}, ${h.name}`);
          answer[dtype].usualRowError.forEach((e, row) => {
            if (Math.abs(h.positions[row]) < 131072) record(`${dtype} cache: usual path at |p| < 131072`, e);
          });
          assert.equal(got.attentionFactor, answer.attentionFactor, `${h.name}: attention factor`);
          const prepared = pe.prepareRope(h.rotaryDim, { ...options, dtype });
          checkHalfCache(prepared.cache(h.positions), answer, dtype, `${flavour}, prepared ${h.name}`);
        }
        const m = state.halfMulti;
        checkHalfCache(pe.ropeCache(m.positions, m.plan.rotaryDim, { ...m.plan.options, dtype }), state.answers[m.request], dtype, `${flavour}, ${m.name}`);
        for (const g of state.grids) {
          const got = pe.ropeCacheGrid(g.height, g.width, g.plan.rotaryDim, { ...g.plan.options, dtype });
          compared += checkHalfCache(got, state.answers[g.request], dtype, `${flavour}, ${g.name}`);
        }
        // ropeCacheRows: the first rows of the default cases are positions 0, 1, 2, 3.
        const h = state.half[0];
        const rows = pe.ropeCacheRows(0, 4, h.rotaryDim, { ...h.options, dtype });
        const a = state.answers[h.request][dtype];
        const r2 = h.rotaryDim / 2;
        checkBits(rows.cos, decode(a.cos, Uint16Array).subarray(0, 4 * r2), decode(a.cosAlt, Uint16Array).subarray(0, 4 * r2), `${flavour}, rows ${dtype} cos`);
        checkBits(rows.sin, decode(a.sin, Uint16Array).subarray(0, 4 * r2), decode(a.sinAlt, Uint16Array).subarray(0, 4 * r2), `${flavour}, rows ${dtype} sin`);
      }
      assert.ok(compared > 2000, `${compared} half-precision values compared`);
    });

    test(`ties and subnormals (${flavour}): cos(0)·att on a midpoint rounds to even; tiny sines stay subnormal`, () => {
      const pe = flavours[flavour];
      // Fixed by IEEE 754, not by the reference: 1 + 2^-11 -> 0x3C00 (float16),
      // 1 + 3·2^-11 -> 0x3C02; 1 + 2^-8 -> 0x3F80 (bfloat16), 1 + 3·2^-8 -> 0x3F82.
      const expect = [
        [1 + 2 ** -11, 'float16', 0x3c00],
        [1 + 3 * 2 ** -11, 'float16', 0x3c02],
        [1 + 2 ** -8, 'bfloat16', 0x3f80],
        [1 + 3 * 2 ** -8, 'bfloat16', 0x3f82],
        // Just above a midpoint by less than float32 can hold: a rounding
        // through float32 first would land on the tie and round down.
        [1 + 2 ** -11 + 2 ** -30, 'float16', 0x3c01],
        [1 + 2 ** -8 + 2 ** -30, 'bfloat16', 0x3f81],
      ];
      for (const [att, dtype, bits] of expect) {
        const h = state.half.find((c) => c.name === `tie: attention factor ${att}`);
        const got = pe.ropeCache([0], 8, { ...ropeOptionsFromConfig(h.config).options, dtype });
        assert.equal(got.cos[0], bits, `${dtype} cos(0)·${att}: 0x${got.cos[0].toString(16)}, want 0x${bits.toString(16)}`);
      }
      // sin(2^-24 · 1) = 2^-24 (to 2^-72): float16's smallest subnormal 0x0001;
      // sin(2^-133) is bfloat16's 0x0001.
      assert.equal(pe.ropeCache([2 ** -24], 8, { base: 10000, dtype: 'float16' }).sin[0], 0x0001);
      assert.equal(pe.ropeCache([2 ** -133], 8, { base: 10000, dtype: 'bfloat16' }).sin[0], 0x0001);
    });

    test(`table, rows and encode (${flavour}): bit-exact against the rounded vaswani table`, () => {
      const pe = flavours[flavour];
      for (const t of state.tables) {
        const answer = state.answers[t.request];
        for (const dtype of ['float16', 'bfloat16']) {
          const want = decode(answer[dtype].bits, Uint16Array);
          const alt = decode(answer[dtype].alt, Uint16Array);
          checkBits(pe.encode(t.positions, t.dModel, { dtype }), want, alt, `${flavour}, encode ${t.name} ${dtype}`);
          // rows 0 … 2 and table(3) are the first three positions (0, 1, 2).
          const first = want.subarray(0, 3 * t.dModel);
          const firstAlt = alt.subarray(0, 3 * t.dModel);
          checkBits(pe.rows(0, 3, t.dModel, { dtype }), first, firstAlt, `${flavour}, rows ${t.name} ${dtype}`);
          checkBits(pe.table(3, t.dModel, { dtype }), first, firstAlt, `${flavour}, table ${t.name} ${dtype}`);
          const prepared = pe.prepare(t.dModel, { dtype });
          checkBits(prepared.encode(t.positions), want, alt, `${flavour}, prepared encode ${t.name} ${dtype}`);
        }
      }
    });
  }
});

describe('getRopeIndex against the reference (transformers get_mrope_index)', () => {
  test('exact position ids and rope delta, every case', () => {
    let legacyDiffers = 0;
    let paddedOther = 0;
    let tokens = 0;
    for (const c of state.index) {
      const answer = state.answers[c.request];
      const got = getRopeIndex(c.inputIds, c.opts);
      const n = c.inputIds.length;
      assert.ok(got.positions instanceof Float64Array, `${c.name}: Float64Array positions`);
      assert.equal(got.positions.length, 3 * n, `${c.name}: 3 positions per token`);
      // A padded token's position carries no meaning. With a vision span,
      // _mrope_place_positions writes 0 there; a sequence with no vision span
      // falls back to get_mrope_text_positions, which writes 1 (its docstring)
      // — which of the two a model calls without grids is not in the source
      // read, so there either is accepted and counted.
      const textOnly = !c.opts.imageGridThw?.length && !c.opts.videoGridThw?.length;
      for (let i = 0; i < n; i++) {
        for (let a = 0; a < 3; a++) {
          const padded = c.opts.attentionMask?.[i] === 0;
          if (padded && textOnly && (got.positions[3 * i + a] === 0 || got.positions[3 * i + a] === 1)) {
            if (got.positions[3 * i + a] !== answer.positions[a][i]) paddedOther++;
            continue;
          }
          if (got.positions[3 * i + a] !== answer.positions[a][i]) {
            assert.fail(
              `${c.name}: token ${i} axis ${a}: ${got.positions[3 * i + a]}, reference ${answer.positions[a][i]}\n` +
                `  inputIds ${JSON.stringify(c.inputIds)}\n  opts ${JSON.stringify(c.opts)}`,
            );
          }
        }
      }
      // The same two readings differ in the delta of a padded text-only
      // sequence with one real token: get_mrope_text_positions counts the
      // padded 1s in its max (delta 1), the run layout does not (delta 0).
      if (!(textOnly && c.opts.attentionMask && got.ropeDelta === 0 && got.ropeDelta !== answer.ropeDelta)) {
        assert.equal(got.ropeDelta, answer.ropeDelta, `${c.name}: ropeDelta (opts ${JSON.stringify(c.opts)})`);
      } else paddedOther++;
      tokens += n;
      const legacy = state.answers[c.legacyRequest];
      if (legacy.error !== undefined || legacy.ropeDelta !== answer.ropeDelta || JSON.stringify(legacy.positions) !== JSON.stringify(answer.positions)) legacyDiffers++;
    }
    assert.ok(tokens > 200, `${tokens} tokens compared`);
    extra['getRopeIndex sequences'] =
      `${state.index.length} (${tokens} tokens) exact; padded text-only sequences read as the run layout does ` +
      `(padded slot 0, delta without the padded 1s) where get_mrope_text_positions differs: ${paddedOther} values; ` +
      `the older per-model get_rope_index loops differ on ${legacyDiffers} sequences`;
  });

  test('pe.getRopeIndex is the named export', () => {
    const c = state.index.find((k) => k.opts.imageGridThw?.length) ?? state.index[0];
    for (const flavour of ['simd', 'baseline']) {
      const got = flavours[flavour].getRopeIndex(c.inputIds, c.opts);
      assert.deepEqual(got.positions, getRopeIndex(c.inputIds, c.opts).positions);
    }
  });
});

describe('ropeOptionsFromConfig: layer types, layout and multimodal keys against the reference', () => {
  for (const flavour of ['simd', 'baseline']) {
    test(`every layer type's frequencies and attention factor (${flavour})`, () => {
      const pe = flavours[flavour];
      let compared = 0;
      for (const c of state.configs) {
        const answer = state.answers[c.request];
        const mapped = ropeOptionsFromConfig(c.config);
        assert.equal(mapped.layout ?? 'half', answer.layout, `${c.name}: layout`);
        if (answer.layers) assert.deepEqual(mapped.layers, answer.layers, `${c.name}: layers`);
        if (answer.mropeSection) {
          assert.deepEqual([...mapped.options.mropeSection], answer.mropeSection, `${c.name}: mropeSection`);
          assert.equal(mapped.options.ropeAxes ?? 'sectioned', answer.mropeInterleaved ? 'interleaved' : 'sectioned', `${c.name}: ropeAxes`);
        }
        const check = (entry, want, label) => {
          assert.equal(entry.rotaryDim, want.rotaryDim, `${label}: rotaryDim`);
          const inv = pe.ropeFrequencies(entry.rotaryDim, entry.options);
          assert.equal(inv.length, want.invFreq.length, `${label}: frequency count`);
          if (want.headDim !== undefined && entry.headDim !== undefined) assert.equal(entry.headDim, want.headDim, `${label}: headDim`);
          want.invFreq.forEach((f, j) => {
            // A pair that does not turn (proportional) has frequency 0 exactly.
            const e = f === 0 ? (inv[j] === 0 ? 0 : Infinity) : Math.abs(inv[j] - f) / f;
            if (!(e <= FREQUENCY_TOLERANCE)) assert.fail(`${label}: inv[${j}] = ${inv[j]}, reference ${f}`);
            record('ropeOptionsFromConfig per layer type: inv_j (relative)', e);
          });
          // ropeCacheRows: one position per token, on every axis of a multi-axis plan.
          const { attentionFactor } = pe.ropeCacheRows(0, 1, entry.rotaryDim, entry.options);
          assert.ok(Math.abs(attentionFactor - want.attentionFactor) <= 1e-15 * want.attentionFactor, `${label}: attention factor ${attentionFactor}, reference ${want.attentionFactor}`);
          assert.equal(entry.options.ropeType ?? 'default', want.ropeType, `${label}: ropeType`);
          compared++;
        };
        if (answer.layerTypes) {
          assert.ok(mapped.layerTypes, `${c.name}: layerTypes is missing`);
          assert.deepEqual(Object.keys(mapped.layerTypes).sort(), Object.keys(answer.layerTypes).sort(), `${c.name}: layer types`);
          for (const [type, want] of Object.entries(answer.layerTypes)) check(mapped.layerTypes[type], want, `${flavour}, ${c.name}, ${type}`);
          // The top-level options are the full-attention layers'.
          if (answer.layerTypes.full_attention) check(mapped, answer.layerTypes.full_attention, `${flavour}, ${c.name}, top level`);
        } else {
          check(mapped, answer, `${flavour}, ${c.name}`);
        }
      }
      assert.ok(compared >= state.configs.length, `${compared} layer types compared`);
    });
  }
});
