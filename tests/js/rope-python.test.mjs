// RoPE checked against the independent Python reference (tests/py/rope_reference.py,
// written from transformers' source without reading sinpe's RoPE code): the
// package as users get it (both flavours) and the JavaScript reference
// (rope-reference.mjs), on a fixed set of transformers-style configs — the
// published config.json files in fixtures/configs/ and synthetic ones for
// every rope type and option — plus values pinned by transformers' own tests
// (fixtures/rope-pinned.json). Each config goes through the package's own
// ropeOptionsFromConfig, so the key mapping is checked with the formulas.
//
// Needs SINPE_REPO_ROOT (tests/js/run.sh exports it) and a Python 3 with numpy
// (SINPE_PYTHON, else Debian's /usr/bin/python3, else python3 on PATH); a
// missing one fails the suite.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sinpe, { ropeOptionsFromConfig } from 'sinpe.wasm';
import { ropeParameters, ropeCache as jsReferenceCache } from './rope-reference.mjs';
import { runPython as runPythonScript } from './python-reference.mjs';

const here = dirname(fileURLToPath(import.meta.url));

// The README's RoPE contract.
const FREQUENCY_TOLERANCE = 1e-12; // relative
const CACHE_TOLERANCE = 2.5e-7; // absolute, × max(1, att)
// Two float64 evaluations of the same formula: the angle p·inv_j may differ
// by an ulp of inv_j times p < 2^24 (~2e-9).
const REFERENCE_CACHE_TOLERANCE = 1e-8; // absolute, × max(1, att)
// At least this many configs must be compared (a suite that compares nothing
// must fail).
const MIN_CASES = 150;

const MAX_POSITION = 2 ** 24;
const POSITIONS = [
  0, 1, 2, 3, 5, 17, 100, 1023, 4096, 8191, 32768, 65535, 131071, 500000, 1000003, 2 ** 23, MAX_POSITION - 1, 0.5,
  2.75, 1234.5678, 99999.875, MAX_POSITION - 2.5, -1, -7.25, -(MAX_POSITION - 1),
];

// |a − b| / |b|, Infinity when either is not finite (NaN and ∞ never pass).
function relativeError(a, b) {
  if (!Number.isFinite(a) || !Number.isFinite(b)) return Infinity;
  if (a === b) return 0;
  return Math.abs(a - b) / Math.abs(b);
}
function absoluteError(a, b) {
  if (!Number.isFinite(a) || !Number.isFinite(b)) return Infinity;
  return Math.abs(a - b);
}

// ---------------------------------------------------------------------------
// The cases: transformers-style configs
// ---------------------------------------------------------------------------

// Increasing longrope factors, as Phi-3's.
function factors(half, top) {
  return Array.from({ length: half }, (_, j) => 1 + ((top - 1) * j) / Math.max(1, half - 1));
}

function syntheticCases() {
  const cases = [];
  const add = (name, config, seqLen) => cases.push({ name, config, ...(seqLen === undefined ? {} : { seqLen }) });
  // Head widths (rotary dim = head_dim, or head_dim · partial_rotary_factor).
  const heads = [
    { head_dim: 4 },
    { head_dim: 6 },
    { head_dim: 8 },
    { head_dim: 34 },
    { head_dim: 64 },
    { head_dim: 96 },
    { head_dim: 128 },
    { head_dim: 256 },
    { head_dim: 80, partial_rotary_factor: 0.4 }, // phi-2: 32 of 80
    { head_dim: 256, partial_rotary_factor: 0.25 }, // GPT-J: 64 of 256
    { hidden_size: 3072, num_attention_heads: 32, partial_rotary_factor: 0.5 }, // 48 of 96
  ];
  const label = (h) => Object.entries(h).map(([k, v]) => `${k} ${v}`).join(', ');

  for (const h of heads) {
    const at = label(h);
    for (const theta of [10000, 500000, 1e6]) {
      add(`default θ ${theta}, ${at}`, { ...h, rope_theta: theta, max_position_embeddings: 4096 });
    }
    for (const factor of [2, 8, 0.5]) {
      add(`linear ${factor}, ${at}`, {
        ...h,
        rope_theta: 10000,
        max_position_embeddings: 4096,
        rope_scaling: { rope_type: 'linear', factor },
      });
    }
    const r = Math.trunc((h.head_dim ?? h.hidden_size / h.num_attention_heads) * (h.partial_rotary_factor ?? 1));
    if (r > 2) {
      for (const [factor, maxPos] of [
        [2, 2048],
        [10, 4096],
      ]) {
        for (const seqLen of [undefined, 100, maxPos, maxPos + 1, 16384, 200000]) {
          add(
            `dynamic ${factor}, M ${maxPos}, seqLen ${seqLen}, ${at}`,
            { ...h, rope_theta: 10000, max_position_embeddings: maxPos, rope_scaling: { rope_type: 'dynamic', factor } },
            seqLen,
          );
        }
      }
    }
    const yarn = [
      ['Qwen2.5', { rope_theta: 1e6, max_position_embeddings: 32768 }, { factor: 4, original_max_position_embeddings: 32768 }],
      [
        'DeepSeek mscale/mscale_all_dim',
        { max_position_embeddings: 163840 },
        { factor: 40, original_max_position_embeddings: 4096, mscale: 1, mscale_all_dim: 0.707, beta_fast: 32, beta_slow: 1 },
      ],
      ['mscale alone (ignored)', { max_position_embeddings: 16384 }, { factor: 8, original_max_position_embeddings: 2048, mscale: 0.707 }],
      ['mscale_all_dim alone', { max_position_embeddings: 16384 }, { factor: 8, original_max_position_embeddings: 2048, mscale_all_dim: 1 }],
      [
        'gpt-oss, truncate false',
        { rope_theta: 150000, max_position_embeddings: 131072 },
        { factor: 32, original_max_position_embeddings: 4096, truncate: false, beta_fast: 32, beta_slow: 1 },
      ],
      ['truncate false', { max_position_embeddings: 8192 }, { factor: 4, original_max_position_embeddings: 2048, truncate: false }],
      ['attention_factor', { max_position_embeddings: 16384 }, { factor: 8, attention_factor: 0.8 }],
      [
        'betas 64/2, attention_factor 3',
        { max_position_embeddings: 16384 },
        { factor: 16, original_max_position_embeddings: 2048, beta_fast: 64, beta_slow: 2, attention_factor: 3 },
      ],
      ['factor null: max / original', { max_position_embeddings: 16384 }, { factor: null, original_max_position_embeddings: 2048 }],
      ['no original: max_position_embeddings', { max_position_embeddings: 8192 }, { factor: 4 }],
      [
        'top-level original wins',
        { max_position_embeddings: 8192, original_max_position_embeddings: 1024 },
        { factor: 4, original_max_position_embeddings: 4096 },
      ],
      ['theta inside the parameters', { rope_theta: 10000, max_position_embeddings: 8192 }, { factor: 4, rope_theta: 500000 }],
      ['low == high (original 4)', { max_position_embeddings: 64 }, { factor: 16, original_max_position_embeddings: 4 }],
      // θ 100, original 2^23: at r = 8 the beta_fast dimension (9.2) lies above the clamped beta_slow one (7).
      ['inverted range (θ 100, original 2^23)', { rope_theta: 100, max_position_embeddings: 4096 }, { factor: 4, original_max_position_embeddings: 2 ** 23 }],
      ['beta_fast 0, beta_slow 0 (the defaults, by `or`)', { max_position_embeddings: 8192 }, { factor: 4, original_max_position_embeddings: 2048, beta_fast: 0, beta_slow: 0 }],
      ['mscale 0 with mscale_all_dim (falsy: plain get_mscale)', { max_position_embeddings: 8192 }, { factor: 4, original_max_position_embeddings: 2048, mscale: 0, mscale_all_dim: 1 }],
      ['factor 0.5: attention 1', { max_position_embeddings: 8192 }, { factor: 0.5, original_max_position_embeddings: 2048, mscale: 1, mscale_all_dim: 0.5 }],
      ['factor 1', { max_position_embeddings: 4096 }, { factor: 1, original_max_position_embeddings: 4096 }],
    ];
    for (const [what, top, params] of yarn) {
      add(`yarn ${what}, ${at}`, { ...h, rope_theta: 10000, ...top, rope_scaling: { type: 'yarn', ...params } });
    }
    if (r >= 2) {
      const short_factor = factors(r / 2, 1.5);
      const long_factor = factors(r / 2, 40);
      const phi3 = { max_position_embeddings: 131072, original_max_position_embeddings: 4096 };
      for (const seqLen of [undefined, 0, 4096, 4097, 131072]) {
        add(
          `longrope Phi-3 style, seqLen ${seqLen}, ${at}`,
          { ...h, rope_theta: 10000, ...phi3, rope_scaling: { type: 'longrope', short_factor, long_factor } },
          seqLen,
        );
      }
      const longrope = [
        ['factor 8, original inside', { max_position_embeddings: 65536 }, { factor: 8, original_max_position_embeddings: 8192 }, 9000],
        ['attention_factor 2.5', phi3, { attention_factor: 2.5 }, 131072],
        ['factor ≤ 1: attention 1', { max_position_embeddings: 4096, original_max_position_embeddings: 4096 }, {}, 100],
        ['explicit factor with top-level original', phi3, { factor: 16 }, 5000],
        ['no original anywhere', { max_position_embeddings: 4096 }, { factor: 4 }, 5000],
        ['theta inside the parameters', phi3, { rope_theta: 250000 }, 4097],
      ];
      for (const [what, top, params, seqLen] of longrope) {
        add(
          `longrope ${what}, seqLen ${seqLen}, ${at}`,
          { ...h, rope_theta: 10000, ...top, rope_scaling: { rope_type: 'longrope', short_factor, long_factor, ...params } },
          seqLen,
        );
      }
    }
    const llama3 = [
      ['Llama 3.1', { rope_theta: 500000, max_position_embeddings: 131072 }, { factor: 8, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 8192 }],
      ['Llama 3.2', { rope_theta: 500000, max_position_embeddings: 131072 }, { factor: 32, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 8192 }],
      ['low 2 high 3, original 2048', { max_position_embeddings: 16384 }, { factor: 4, low_freq_factor: 2, high_freq_factor: 3, original_max_position_embeddings: 2048 }],
      ['no original: max_position_embeddings', { max_position_embeddings: 4096 }, { factor: 8, low_freq_factor: 1, high_freq_factor: 4 }],
      ['top-level original wins', { max_position_embeddings: 65536, original_max_position_embeddings: 1024 }, { factor: 8, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 8192 }],
      ['v5 rope_parameters with rope_theta', { max_position_embeddings: 131072 }, { factor: 8, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 8192, rope_theta: 500000 }],
    ];
    for (const [what, top, params] of llama3) {
      add(`llama3 ${what}, ${at}`, { ...h, rope_theta: 10000, ...top, rope_scaling: { rope_type: 'llama3', ...params } });
    }
  }
  // Where transformers looks for each key.
  const yarnParams = { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 2048 };
  add('mapping: rope_scaling wins over rope_parameters', {
    head_dim: 64,
    max_position_embeddings: 8192,
    rope_scaling: yarnParams,
    rope_parameters: { rope_type: 'default', rope_theta: 10000 },
  });
  add('mapping: empty rope_scaling, rope_parameters used', {
    head_dim: 64,
    max_position_embeddings: 8192,
    rope_scaling: {},
    rope_parameters: { ...yarnParams, rope_theta: 50000 },
  });
  add('mapping: head_dim null is hidden_size / num_attention_heads', {
    head_dim: null,
    hidden_size: 2048,
    num_attention_heads: 16,
    max_position_embeddings: 8192,
    rope_scaling: yarnParams,
  });
  add('mapping: partial_rotary_factor inside rope_parameters', {
    head_dim: 128,
    max_position_embeddings: 8192,
    rope_parameters: { rope_type: 'linear', factor: 2, rope_theta: 10000, partial_rotary_factor: 0.5 },
  });
  add('mapping: top-level partial_rotary_factor wins', {
    head_dim: 128,
    partial_rotary_factor: 0.25,
    max_position_embeddings: 8192,
    rope_parameters: { rope_type: 'linear', factor: 2, rope_theta: 10000, partial_rotary_factor: 0.5 },
  });
  add('mapping: no rope_theta anywhere is 10000', { head_dim: 64, max_position_embeddings: 8192, rope_scaling: { type: 'linear', factor: 3 } });
  return cases;
}

function publishedCases() {
  const folder = join(here, 'fixtures', 'configs');
  const files = readdirSync(folder).filter((f) => f.endsWith('.json'));
  assert.ok(files.length >= 8, `fixtures/configs holds ${files.length} config.json files, expected at least 8`);
  const cases = [];
  for (const file of files) {
    const config = JSON.parse(readFileSync(join(folder, file), 'utf8'));
    const params = config.rope_scaling ?? config.rope_parameters ?? {};
    const type = params.rope_type ?? params.type ?? 'default';
    const original = config.original_max_position_embeddings ?? params.original_max_position_embeddings;
    const seqLens = type === 'longrope' ? [undefined, original, original + 1, config.max_position_embeddings] : [undefined];
    for (const seqLen of seqLens) {
      cases.push({ name: `${file}${seqLen === undefined ? '' : `, seqLen ${seqLen}`}`, config, ...(seqLen === undefined ? {} : { seqLen }) });
    }
  }
  return cases;
}

// ---------------------------------------------------------------------------
// Running the Python reference
// ---------------------------------------------------------------------------

const runPython = (args, input) => runPythonScript('rope_reference.py', args, input);

// The Python reference's caches: base64 of little-endian float64 values.
function float64s(base64) {
  const bytes = Buffer.from(base64, 'base64');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float64Array(bytes.byteLength / 8);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat64(8 * i, true);
  return out;
}

const flavours = {};
let cases;
let answers;
// Largest errors per rope type: package inv_j (relative), package cache
// (× max(1, att)), JS reference inv_j (relative) and cache.
const worst = {};
const record = (type, key, value) => {
  worst[type] ??= { packageFrequency: 0, packageCache: 0, referenceFrequency: 0, referenceCache: 0, cases: 0 };
  if (!(value <= worst[type][key])) worst[type][key] = value;
};

before(async () => {
  flavours.simd = await sinpe({ simd: true });
  flavours.baseline = await sinpe({ simd: false });
  cases = [...publishedCases(), ...syntheticCases()].map((c) => ({ ...c, positions: POSITIONS }));
  answers = JSON.parse(runPython(['--json', '-', '--binary-caches'], JSON.stringify(cases)));
  assert.equal(answers.length, cases.length, 'one Python answer per case');
  for (const a of answers) {
    if (a.error !== undefined) continue;
    a.cos = float64s(a.cosBase64);
    a.sin = float64s(a.sinBase64);
  }
});

after(() => {
  const types = Object.keys(worst).sort();
  const lines = types.map((t) => {
    const w = worst[t];
    return (
      `${t} (${w.cases} configs): package inv_j ${w.packageFrequency.toExponential(1)} rel, cache ` +
      `${w.packageCache.toExponential(2)}·max(1,att); JS reference inv_j ${w.referenceFrequency.toExponential(1)} rel, ` +
      `cache ${w.referenceCache.toExponential(1)}·max(1,att)`
    );
  });
  console.log(`RoPE against the Python reference, ${cases?.length ?? 0} configs × ${POSITIONS.length} positions; largest errors:\n  ${lines.join('\n  ')}`);
  if (process.env.SINPE_SUMMARY && cases) {
    const short = types.map((t) => `${t} ${worst[t].packageFrequency.toExponential(0)}/${worst[t].packageCache.toExponential(1)}`).join(', ');
    appendFileSync(process.env.SINPE_SUMMARY, `rope vs Python reference: ${cases.length} configs; inv_j rel / cache per type: ${short}\n`);
  }
});

// Configs transformers computes from and ropeOptionsFromConfig refuses with a
// TypeError/RangeError naming the key (a refusal, never a wrong value). Each
// must still be refused, and nothing else may be.
const KNOWN_REFUSALS = [
  // transformers v5 _compute_yarn_parameters: `if factor is None: factor =
  // config.max_position_embeddings / original_max_position_embeddings`.
  [/^yarn factor null/, 'factor'],
  // _compute_yarn_parameters: `beta_fast = rope_parameters_dict.get("beta_fast") or 32` (0 means 32).
  [/^yarn beta_fast 0/, 'beta_fast'],
  // _compute_yarn_parameters: `if mscale and mscale_all_dim:` (a zero mscale means get_mscale(factor)).
  [/^yarn mscale 0/, 'mscale'],
];


// sinpe's options for one case: the package's own config mapping, plus the
// run-time sequence length for the types that read it; null where the
// mapping refuses the config.
function optionsOf(c) {
  let mapped;
  try {
    mapped = ropeOptionsFromConfig(c.config);
  } catch (e) {
    if (!(e instanceof TypeError || e instanceof RangeError)) throw e;
    c.refusal = e.message;
    return null;
  }
  const o = { ...mapped.options };
  // transformers reads seq_len 0 as no sequence length (`if seq_len and
  // seq_len > ...`); sinpe refuses seqLen 0 (see packageOptions).
  if (c.seqLen !== undefined && c.seqLen !== 0) o.seqLen = c.seqLen;
  return { headDim: mapped.headDim, rotaryDim: mapped.rotaryDim, options: o };
}

// The options to call the package with. A seqLen of 0, which transformers
// reads as absent, must be refused by name (RangeError), and the call without
// it must give transformers' values.
function packageOptions(pe, c, mapped) {
  if (c.seqLen === 0) {
    assert.throws(() => pe.ropeFrequencies(mapped.rotaryDim, { ...mapped.options, seqLen: 0 }), {
      name: 'RangeError',
      message: /seqLen/,
    });
  }
  return mapped.options;
}

function checkFrequencies(got, want, tolerance, label) {
  assert.equal(got.length, want.length, `${label}: ${got.length} frequencies, Python ${want.length}`);
  let largest = 0;
  for (let j = 0; j < want.length; j++) {
    const e = relativeError(got[j], want[j]);
    if (!(e <= tolerance)) assert.fail(`${label}: inv[${j}] = ${got[j]}, Python ${want[j]} (relative error ${e})`);
    if (e > largest) largest = e;
  }
  return largest;
}

function checkCache(got, want, tolerance, label) {
  const scale = Math.max(1, Math.abs(want.attentionFactor));
  let largest = 0;
  for (const part of ['cos', 'sin']) {
    assert.equal(got[part].length, want[part].length, `${label}: ${part} length`);
    for (let i = 0; i < want[part].length; i++) {
      const e = absoluteError(got[part][i], want[part][i]) / scale;
      if (!(e <= tolerance)) assert.fail(`${label}: ${part}[${i}] = ${got[part][i]}, Python ${want[part][i]} (error ${e} × max(1, att))`);
      if (e > largest) largest = e;
    }
  }
  return largest;
}

describe('RoPE against the independent Python reference', () => {
  test(`at least ${MIN_CASES} configs, every rope type, no Python refusals`, () => {
    assert.ok(cases.length >= MIN_CASES, `${cases.length} configs`);
    const refused = answers.filter((a) => a.error !== undefined);
    assert.deepEqual(refused, [], 'the Python reference computes every case (transformers would raise on these)');
    const types = new Set(answers.map((a) => a.ropeType));
    assert.deepEqual([...types].sort(), ['default', 'dynamic', 'linear', 'llama3', 'longrope', 'yarn']);
  });

  test('ropeOptionsFromConfig: rope type and widths as transformers reads them; only the known refusals', () => {
    const seen = new Set();
    cases.forEach((c, i) => {
      const mapped = optionsOf(c);
      const known = KNOWN_REFUSALS.find(([pattern]) => pattern.test(c.name));
      if (mapped === null) {
        assert.ok(known, `${c.name}: ropeOptionsFromConfig refuses a config transformers computes from: ${c.refusal}`);
        assert.ok(c.refusal.includes(known[1]), `${c.name}: the refusal names ${known[1]}: ${c.refusal}`);
        seen.add(known[0]);
        return;
      }
      assert.equal(known, undefined, `${c.name}: ropeOptionsFromConfig no longer refuses it; move it out of KNOWN_REFUSALS`);
      const { headDim, rotaryDim, options } = mapped;
      assert.equal(options.ropeType ?? 'default', answers[i].ropeType, `${c.name}: rope type`);
      assert.equal(rotaryDim, answers[i].rotaryDim, `${c.name}: rotary dim`);
      assert.equal(headDim, answers[i].headDim, `${c.name}: head dim`);
    });
    assert.equal(seen.size, KNOWN_REFUSALS.length, 'every known refusal is exercised');
  });

  for (const flavour of ['simd', 'baseline']) {
    test(`the package (${flavour}): inv_j to 1e-12, attention factor, cos/sin caches within the contract`, () => {
      const pe = flavours[flavour];
      cases.forEach((c, i) => {
        const want = answers[i];
        const mapped = optionsOf(c);
        if (mapped === null) return;
        const { rotaryDim } = mapped;
        const options = packageOptions(pe, c, mapped);
        const label = `${flavour}, ${c.name}`;
        const inv = pe.ropeFrequencies(rotaryDim, options);
        assert.ok(inv instanceof Float64Array, `${label}: ropeFrequencies returns a Float64Array`);
        record(want.ropeType, 'packageFrequency', checkFrequencies(inv, want.invFreq, FREQUENCY_TOLERANCE, label));
        const got = pe.ropeCache(c.positions, rotaryDim, options);
        const e = relativeError(got.attentionFactor, want.attentionFactor);
        if (!(e <= FREQUENCY_TOLERANCE)) {
          assert.fail(`${label}: attention factor ${got.attentionFactor}, Python ${want.attentionFactor}`);
        }
        assert.ok(got.cos instanceof Float32Array && got.sin instanceof Float32Array, `${label}: Float32Array caches`);
        record(want.ropeType, 'packageCache', checkCache(got, want, CACHE_TOLERANCE, label));
        if (flavour === 'simd') worst[want.ropeType].cases++;
      });
    });
  }

  test('the JavaScript reference (rope-reference.mjs): inv_j to 1e-12, attention factor, float64 caches', () => {
    cases.forEach((c, i) => {
      const want = answers[i];
      const mapped = optionsOf(c);
      if (mapped === null) return;
      const { rotaryDim, options } = mapped;
      const label = `JS reference, ${c.name}`;
      const { invFreq, attentionFactor } = ropeParameters(rotaryDim, options);
      record(want.ropeType, 'referenceFrequency', checkFrequencies(invFreq, want.invFreq, FREQUENCY_TOLERANCE, label));
      const e = relativeError(attentionFactor, want.attentionFactor);
      if (!(e <= FREQUENCY_TOLERANCE)) assert.fail(`${label}: attention factor ${attentionFactor}, Python ${want.attentionFactor}`);
      const cache = jsReferenceCache(c.positions, rotaryDim, options);
      record(want.ropeType, 'referenceCache', checkCache(cache, want, REFERENCE_CACHE_TOLERANCE, label));
    });
  });
});

// ---------------------------------------------------------------------------
// Values pinned by another hand (transformers' own tests)
// ---------------------------------------------------------------------------

describe('RoPE against values pinned by transformers\' tests (fixtures/rope-pinned.json)', () => {
  const fixture = JSON.parse(readFileSync(join(here, 'fixtures', 'rope-pinned.json'), 'utf8'));

  // A float32 value printed to `digits` significant digits: half a unit in the
  // last digit, plus float32's own rounding of inv_freq (< 1e-6 relative).
  function printedTolerance(printed, exact, digits) {
    if (printed === 0) return 1e-12;
    const exponent = Math.floor(Math.log10(Math.abs(printed)));
    return 0.5 * 10 ** (exponent - (digits - 1)) + 1e-6 * Math.abs(exact);
  }

  function checkPinned(label, entry, invFreq, attentionFactor) {
    let count = 0;
    if (entry.invFreq) {
      assert.equal(invFreq.length, entry.invFreq.length, `${label}: frequency count`);
      const divisors = entry.pinnedDividedBy ?? entry.invFreq.map(() => 1);
      entry.invFreq.forEach((pinned, j) => {
        const mine = invFreq[j] * divisors[j];
        const e = absoluteError(mine, pinned);
        const tolerance = printedTolerance(pinned, mine, entry.significantDigits);
        if (!(e <= tolerance)) assert.fail(`${label}: inv[${j}] = ${invFreq[j]}, pinned ${pinned} / ${divisors[j]}`);
        count++;
      });
    }
    if (entry.attentionFactor !== undefined) {
      if (!(relativeError(attentionFactor, entry.attentionFactor) <= 1e-15)) {
        assert.fail(`${label}: attention factor ${attentionFactor}, pinned ${entry.attentionFactor}`);
      }
      count++;
    }
    return count;
  }

  test('the fixture covers default, linear, dynamic, yarn, longrope and llama3', () => {
    assert.ok(fixture.cases.length >= 15, `${fixture.cases.length} pinned cases`);
    const types = new Set(fixture.cases.map((c) => c.ropeType));
    assert.deepEqual([...types].sort(), ['default', 'dynamic', 'linear', 'llama3', 'longrope', 'yarn']);
    for (const c of fixture.cases) assert.ok(c.source?.repo && c.source.path && c.source.commit && c.source.test, `${c.name}: source`);
  });

  test('the Python reference', () => {
    const out = runPython(['--check-pinned', join(here, 'fixtures', 'rope-pinned.json')]);
    console.log(out.trim());
    assert.match(out, /rope_reference: [1-9]\d* pinned values checked/);
  });

  for (const flavour of ['simd', 'baseline']) {
    test(`the package (${flavour})`, () => {
      const pe = flavours[flavour];
      let count = 0;
      for (const entry of fixture.cases) {
        const mapped = optionsOf(entry);
        assert.ok(mapped, `${entry.name}: ropeOptionsFromConfig refuses it: ${entry.refusal}`);
        const { rotaryDim } = mapped;
        const options = packageOptions(pe, entry, mapped);
        const inv = pe.ropeFrequencies(rotaryDim, options);
        const { attentionFactor } = pe.ropeCache([0], rotaryDim, options);
        count += checkPinned(`${flavour}, ${entry.name}`, entry, inv, attentionFactor);
      }
      assert.ok(count >= 1000, `${count} pinned values compared`);
    });
  }

  test('the JavaScript reference', () => {
    let count = 0;
    for (const entry of fixture.cases) {
      const mapped = optionsOf(entry);
        assert.ok(mapped, `${entry.name}: ropeOptionsFromConfig refuses it: ${entry.refusal}`);
        const { rotaryDim, options } = mapped;
      const { invFreq, attentionFactor } = ropeParameters(rotaryDim, options);
      count += checkPinned(`JS reference, ${entry.name}`, entry, invFreq, attentionFactor);
    }
    assert.ok(count >= 1000, `${count} pinned values compared`);
  });
});
