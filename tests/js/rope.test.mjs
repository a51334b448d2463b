// RoPE in the package as users get it (the installed tarball), against the
// independent float64 reference in rope-reference.mjs: every rope type, both
// rotation layouts, partial rotary, odd head counts, fractional and large
// positions, both flavours; the accuracy contract; the relative-position
// property; config.json mapping of published files; bad input.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync } from 'node:fs';
import sinpe, { ropeOptionsFromConfig } from 'sinpe.wasm';
import { ropeParameters, ropeCache as referenceCache, ropeRotate, pairMagnitudes } from './rope-reference.mjs';
import { ErrorTracker } from './errors-helper.mjs';
import { mulberry32 as rng } from './fixtures/random.mjs';

// The accuracy contract (README, "RoPE").
const CACHE_TOLERANCE = 2.5e-7; // × max(1, att)
const ROTATION_TOLERANCE = 5e-7; // × max(1, att) × (|x_a| + |x_b|)
const FREQUENCY_TOLERANCE = 1e-12; // relative

const MAX_POSITION = 2 ** 24; // exclusive
const POSITIONS = [
  0, 1, 2, 3, 7, 100, 4095, 4096, 8191, 32767, 65535, 131071, 1000003, 2 ** 23, MAX_POSITION - 1, 0.5, 1.25,
  999.999, 7777.75, 123456.125, MAX_POSITION - 1.5, MAX_POSITION - 0.25, -1, -3.5, -(MAX_POSITION - 1),
];

// longrope factors for rotary dimension r: increasing, like Phi-3's.
function longropeFactors(r) {
  const half = r / 2;
  const shortFactor = Array.from({ length: half }, (_, j) => 1 + j / Math.max(1, half - 1));
  const longFactor = Array.from({ length: half }, (_, j) => 1 + (63 * j) / Math.max(1, half - 1));
  return { shortFactor, longFactor };
}

// Option sets per rope type; longrope's factors are filled in for each r.
const CASES = {
  default: [{}, { base: 500000 }, { base: 1e6 }],
  linear: [{ factor: 4 }, { factor: 0.5 }, { base: 500000, factor: 8 }],
  dynamic: [
    { factor: 2, maxPositions: 2048 },
    { factor: 4, maxPositions: 4096, seqLen: 20000 },
    { factor: 4, maxPositions: 4096, seqLen: 100 },
  ],
  yarn: [
    { base: 1e6, factor: 4, originalMaxPositions: 32768 }, // Qwen2.5
    { factor: 40, originalMaxPositions: 4096, maxPositions: 163840, mscale: 1, mscaleAllDim: 0.707 }, // DeepSeek-style
    { base: 150000, factor: 32, originalMaxPositions: 4096, truncate: false, betaFast: 32, betaSlow: 1 }, // gpt-oss
    { factor: 8, maxPositions: 16384, attentionFactor: 0.8 },
    { factor: 16, originalMaxPositions: 2048, betaFast: 64, betaSlow: 2, attentionFactor: 3 },
    { maxPositions: 16384, originalMaxPositions: 2048 }, // no factor: transformers v5 takes 16384 / 2048
  ],
  longrope: [
    { maxPositions: 131072, originalMaxPositions: 4096 }, // Phi-3: short factors
    { maxPositions: 131072, originalMaxPositions: 4096, seqLen: 5000 }, // long factors
    { factor: 8, originalMaxPositions: 8192, seqLen: 100 },
    { maxPositions: 131072, originalMaxPositions: 4096, attentionFactor: 2.5, seqLen: 131072 },
  ],
  llama3: [
    { base: 500000 },
    { base: 500000, factor: 32, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositions: 8192 },
    { factor: 4, lowFreqFactor: 2, highFreqFactor: 3, originalMaxPositions: 2048 },
  ],
};
// Rotary widths, r/2 odd and even. At r = 2 dynamic NTK's exponent r / (r - 2)
// is infinite (transformers divides by zero), yet its one frequency is
// b'^0 = 1 whatever b' is, and both sinpe and the reference give that.
const ROTARY_DIMS = [2, 6, 8, 34, 64, 96, 128];

function optionsFor(type, base, r) {
  const o = { ropeType: type, ...base };
  return type === 'longrope' ? { ...o, ...longropeFactors(r) } : o;
}

function* everyCase() {
  for (const [type, list] of Object.entries(CASES)) {
    for (const base of list) {
      for (const r of ROTARY_DIMS) yield { type, r, options: optionsFor(type, base, r) };
    }
  }
}

const describeCase = ({ type, r, options }) => {
  const { shortFactor, longFactor, ...rest } = options;
  return `${type} r=${r} ${JSON.stringify(rest)}${shortFactor ? ` (factors of ${shortFactor.length})` : ''}`;
};

// Largest errors measured, per rope type, for the report.
const measured = {};
function record(type, key, value) {
  measured[type] ??= { frequency: new ErrorTracker(), cache: new ErrorTracker(), rotation: new ErrorTracker() };
  measured[type][key].add(value);
}

const flavours = {};
before(async () => {
  flavours.simd = await sinpe({ simd: true });
  flavours.baseline = await sinpe({ simd: false });
  assert.equal(flavours.simd.simd, true);
  assert.equal(flavours.baseline.simd, false);
});

after(() => {
  const lines = Object.entries(measured).map(
    ([type, m]) =>
      `${type}: inv_j ${m.frequency.worst.toExponential(1)} rel, cache ${m.cache.worst.toExponential(2)}·max(1,att), ` +
      `rotation ${m.rotation.worst.toExponential(2)}·max(1,att)·(|x_a|+|x_b|)`,
  );
  console.log(`RoPE, largest error measured per rope type (both flavours):\n  ${lines.join('\n  ')}`);
  if (process.env.SINPE_SUMMARY) {
    const short = Object.entries(measured)
      .map(([type, m]) => `${type} ${m.cache.worst.toExponential(1)}/${m.rotation.worst.toExponential(1)}`)
      .join(', ');
    appendFileSync(process.env.SINPE_SUMMARY, `rope: largest cache/rotation error per type (contract 2.5e-7/5e-7): ${short}\n`);
  }
});

// Checks a cache against the reference; returns the largest |Δ| / max(1, att).
function checkCache(got, want, label) {
  const scale = Math.max(1, Math.abs(want.attentionFactor));
  const worst = new ErrorTracker();
  for (const part of ['cos', 'sin']) {
    assert.ok(got[part] instanceof Float32Array, `${label}: ${part} is a Float32Array`);
    assert.equal(got[part].length, want[part].length, `${label}: ${part} length`);
    for (let i = 0; i < want[part].length; i++) {
      const e = Math.abs(got[part][i] - want[part][i]) / scale;
      worst.add(e, i);
      if (!(e <= CACHE_TOLERANCE)) {
        assert.fail(`${label}: ${part}[${i}] = ${got[part][i]}, reference ${want[part][i]} (error ${e} × max(1, att))`);
      }
    }
  }
  assert.ok(worst.within(CACHE_TOLERANCE), `${label}: ${worst.describe()}`);
  return worst.worst;
}

// Random float32 head vectors of mixed magnitudes.
function randomX(length, random) {
  const x = new Float32Array(length);
  for (let i = 0; i < length; i++) {
    const magnitude = [1e-3, 0.1, 1, 1, 1, 30, 1e3][Math.floor(random() * 7)];
    x[i] = (random() * 2 - 1) * magnitude;
  }
  return x;
}

// Checks a rotation against the float64 rotation of the same float32 inputs;
// returns the largest |Δ| / (max(1, att) (|x_a| + |x_b|)).
function checkRotation(got, x, positions, headDim, o, att, label) {
  const r = o.rotaryDim ?? headDim;
  const layout = o.layout ?? 'half';
  const want = ropeRotate(x, positions, headDim, o);
  const magnitude = pairMagnitudes(x, headDim, r, layout);
  const scale = Math.max(1, Math.abs(att));
  const worst = new ErrorTracker();
  for (let i = 0; i < x.length; i++) {
    if (i % headDim >= r) {
      if (!Object.is(got[i], x[i])) assert.fail(`${label}: pass-through x[${i}] changed from ${x[i]} to ${got[i]}`);
      continue;
    }
    const e = Math.abs(got[i] - want[i]);
    const bound = ROTATION_TOLERANCE * scale * magnitude[i];
    if (magnitude[i] > 0) worst.add(e / (scale * magnitude[i]), i);
    if (!(e <= bound)) assert.fail(`${label}: x'[${i}] = ${got[i]}, reference ${want[i]} (error ${e}, bound ${bound})`);
  }
  return worst.count ? worst.worst : 0; // all pairs zero: nothing to scale, each checked exactly above
}

for (const flavour of ['simd', 'baseline']) {
  describe(`RoPE against the float64 reference (${flavour})`, () => {
    test('ropeFrequencies: inv_j of every rope type equal the float64 formula to 1e-12 relative', () => {
      const pe = flavours[flavour];
      for (const c of everyCase()) {
        const got = pe.ropeFrequencies(c.r, c.options);
        const { invFreq } = ropeParameters(c.r, c.options);
        assert.ok(got instanceof Float64Array, `${describeCase(c)}: a Float64Array`);
        assert.equal(got.length, c.r / 2, describeCase(c));
        for (let j = 0; j < invFreq.length; j++) {
          const e = Math.abs(got[j] - invFreq[j]) / invFreq[j];
          record(c.type, 'frequency', e);
          assert.ok(e <= FREQUENCY_TOLERANCE, `${describeCase(c)}: inv[${j}] = ${got[j]}, reference ${invFreq[j]}`);
        }
      }
    });

    test('ropeCache: every cos/sin within 2.5e-7·max(1, att) at integer, fractional, negative and large positions', () => {
      const pe = flavours[flavour];
      for (const c of everyCase()) {
        const want = referenceCache(POSITIONS, c.r, c.options);
        const got = pe.ropeCache(POSITIONS, c.r, c.options);
        assert.ok(
          Math.abs(got.attentionFactor - want.attentionFactor) <= 1e-12 * Math.abs(want.attentionFactor),
          `${describeCase(c)}: attentionFactor ${got.attentionFactor}, reference ${want.attentionFactor}`,
        );
        record(c.type, 'cache', checkCache(got, want, describeCase(c)));
      }
    });

    test('ropeCache takes an Array, Float64Array or Float32Array of positions alike', () => {
      const pe = flavours[flavour];
      const o = optionsFor('yarn', CASES.yarn[0], 64);
      const positions = [0, 3, 17.5, 40000, MAX_POSITION - 1];
      const want = referenceCache(positions, 64, o);
      for (const given of [positions, Float64Array.from(positions), Float32Array.from(positions)]) {
        checkCache(pe.ropeCache(given, 64, o), want, given.constructor.name);
      }
    });

    test('ropeCacheRows(start, count) is the cache of start … start+count−1, up to 2^24 − 1', () => {
      const pe = flavours[flavour];
      for (const type of Object.keys(CASES)) {
        const o = optionsFor(type, CASES[type][CASES[type].length - 1], 64);
        for (const [start, count] of [
          [0, 33],
          [8000, 400],
          [-17, 35],
          [MAX_POSITION - 64, 64],
        ]) {
          const positions = Array.from({ length: count }, (_, i) => start + i);
          const label = `${type} rows ${start}+${count}`;
          record(type, 'cache', checkCache(pe.ropeCacheRows(start, count, 64, o), referenceCache(positions, 64, o), label));
        }
      }
    });

    test('ropeCache with options.out writes the caller arrays and returns them', () => {
      const pe = flavours[flavour];
      const o = optionsFor('llama3', CASES.llama3[0], 32);
      const positions = [1, 2, 1000.5];
      const out = { cos: new Float32Array(48), sin: new Float32Array(48) };
      const got = pe.ropeCache(positions, 32, { ...o, out });
      assert.equal(got.cos, out.cos);
      assert.equal(got.sin, out.sin);
      checkCache(got, referenceCache(positions, 32, o), 'out');
    });

    test('applyRope: both layouts, partial rotary, odd head counts, within 5e-7·max(1, att)·(|x_a| + |x_b|)', () => {
      const pe = flavours[flavour];
      const random = rng(flavour === 'simd' ? 1 : 2);
      const shapes = [
        // [headDim, rotaryDim, heads, tokens]
        [2, 2, 1, 3],
        [8, 8, 3, 5],
        [64, 64, 5, 4],
        [80, 32, 3, 4], // phi-2: 32 of 80
        [96, 96, 1, 6],
        [128, 128, 7, 3],
        [256, 64, 2, 3], // GPT-J: 64 of 256
        [34, 34, 3, 2],
        [40, 6, 1, 5],
      ];
      for (const [type, list] of Object.entries(CASES)) {
        for (const base of list) {
          for (const [headDim, rotaryDim, heads, tokens] of shapes) {
            const positions = Array.from({ length: tokens }, () => POSITIONS[Math.floor(random() * POSITIONS.length)]);
            for (const layout of ['half', 'interleaved']) {
              const o = { ...optionsFor(type, base, rotaryDim), rotaryDim, layout };
              const x = randomX(tokens * heads * headDim, random);
              const original = x.slice();
              const returned = pe.applyRope(x, positions, headDim, o);
              assert.equal(returned, x, 'applyRope returns x');
              const att = ropeParameters(rotaryDim, o).attentionFactor;
              const label = `${type} ${JSON.stringify(base)} headDim ${headDim} r ${rotaryDim} × ${heads} heads, ${layout}`;
              record(type, 'rotation', checkRotation(x, original, positions, headDim, o, att, label));
            }
          }
        }
      }
    });

    test('applyRope with the default rotaryDim and layout rotates the whole head, half layout', () => {
      const pe = flavours[flavour];
      const x = randomX(2 * 3 * 16, rng(5));
      const original = x.slice();
      const o = { ropeType: 'linear', factor: 2 };
      pe.applyRope(x, [5, 70000.5], 16, o);
      checkRotation(x, original, [5, 70000.5], 16, { ...o, rotaryDim: 16, layout: 'half' }, 1, 'defaults');
    });

    test('⟨R(p)q, R(p+k)k⟩ depends only on k, within the contract', () => {
      const pe = flavours[flavour];
      const random = rng(flavour === 'simd' ? 11 : 12);
      for (const [type, base, headDim, rotaryDim] of [
        ['default', {}, 128, 128],
        ['llama3', CASES.llama3[0], 128, 128],
        ['yarn', CASES.yarn[1], 64, 64],
        ['longrope', CASES.longrope[0], 96, 96],
        ['default', {}, 80, 32],
        ['dynamic', CASES.dynamic[1], 64, 64],
      ]) {
        for (const layout of ['half', 'interleaved']) {
          const o = { ...optionsFor(type, base, rotaryDim), rotaryDim, layout };
          const att = ropeParameters(rotaryDim, o).attentionFactor;
          const q = randomX(headDim, random);
          const key = randomX(headDim, random);
          for (const k of [0, 1, 7, 1000, 65536.5]) {
            let first;
            for (const p of [0, 3, 12345.25, 2 ** 20, 2 ** 23, MAX_POSITION - 1 - k]) {
              const qr = q.slice();
              const kr = key.slice();
              pe.applyRope(qr, [p], headDim, o);
              pe.applyRope(kr, [p + k], headDim, o);
              // Bound from the contract: each rotated value is within ε_i of the exact one.
              const exactQ = ropeRotate(q, [p], headDim, o);
              const exactK = ropeRotate(key, [p + k], headDim, o);
              const mq = pairMagnitudes(q, headDim, rotaryDim, layout);
              const mk = pairMagnitudes(key, headDim, rotaryDim, layout);
              let dot = 0;
              let exactDot = 0;
              let bound = 0;
              let scale = 0; // Σ over values of |x_a| + |x_b| times the other vector's value
              for (let i = 0; i < headDim; i++) {
                dot += qr[i] * kr[i];
                exactDot += exactQ[i] * exactK[i];
                const eq = ROTATION_TOLERANCE * Math.max(1, att) * mq[i];
                const ek = ROTATION_TOLERANCE * Math.max(1, att) * mk[i];
                bound += eq * Math.abs(exactK[i]) + Math.abs(exactQ[i]) * ek + eq * ek;
                scale += mq[i] * Math.abs(exactK[i]) + Math.abs(exactQ[i]) * mk[i];
              }
              bound += 1e-12 * Math.abs(exactDot);
              if (first === undefined) first = { dot, exactDot, bound, scale, p };
              const label = `${type} ${layout} k=${k}: p=${p} vs p=${first.p}`;
              // The reference's own float64 angles (|p · inv_j| < 2^24) are within
              // 2^24 · 2^-53 ≈ 2e-9 radians: far below the contract.
              assert.ok(
                Math.abs(exactDot - first.exactDot) <= 1e-8 * Math.max(1, att) ** 2 * (scale + first.scale),
                `${label}: the float64 reference itself`,
              );
              assert.ok(
                Math.abs(dot - first.dot) <= bound + first.bound,
                `${label}: ${dot} vs ${first.dot}, allowed ${bound + first.bound}`,
              );
            }
          }
        }
      }
    });
  });
}

// ---------------------------------------------------------------------------
// config.json mapping. Expected values are read off each file by hand.
const fixture = (name) => JSON.parse(readFileSync(new URL(`./fixtures/configs/${name}`, import.meta.url), 'utf8'));

describe('ropeOptionsFromConfig on published config.json files', () => {
  const phi3 = fixture('phi-3-mini-128k-instruct.json').rope_scaling;
  const phi35 = fixture('phi-3.5-mini-instruct.json').rope_scaling;
  const llama3 = {
    headDim: 128, // 4096 / 32
    rotaryDim: 128,
    options: { ropeType: 'llama3', base: 500000, factor: 8, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositions: 8192 },
  };
  const expected = {
    'llama-3.1-8b.json': { ...llama3, attentionFactor: 1 },
    'llama-3.1-8b-transformers-v5.json': { ...llama3, attentionFactor: 1 },
    'qwen2.5-7b-instruct-yarn.json': {
      headDim: 128, // 3584 / 28
      rotaryDim: 128,
      options: { ropeType: 'yarn', base: 1000000, factor: 4, maxPositions: 32768, originalMaxPositions: 32768 },
      attentionFactor: 0.1 * Math.log(4) + 1,
    },
    'phi-3-mini-128k-instruct.json': {
      headDim: 96, // 3072 / 32
      rotaryDim: 96,
      options: {
        ropeType: 'longrope',
        base: 10000,
        maxPositions: 131072,
        originalMaxPositions: 4096, // top level
        shortFactor: phi3.short_factor,
        longFactor: phi3.long_factor,
      },
      attentionFactor: Math.sqrt(1 + Math.log(131072 / 4096) / Math.log(4096)), // √(1 + 5/12)
      firstLast: { short: [1.05, 3.049999999999997], long: [1.0299999713897705, 64.81001281738281] },
    },
    'phi-3.5-mini-instruct.json': {
      headDim: 96,
      rotaryDim: 96,
      options: {
        ropeType: 'longrope',
        base: 10000,
        maxPositions: 131072,
        originalMaxPositions: 4096,
        shortFactor: phi35.short_factor,
        longFactor: phi35.long_factor,
      },
      attentionFactor: Math.sqrt(1 + 5 / 12),
      firstLast: { short: [1.0, 2.8399994373321533], long: [1.0800000429153442, 64.839996337890625] },
    },
    'phi-2.json': {
      headDim: 80, // 2560 / 32
      rotaryDim: 32, // floor(80 × 0.4)
      options: { ropeType: 'default', base: 10000 },
      attentionFactor: 1,
    },
    'gemma-7b.json': {
      headDim: 256, // head_dim, not 3072 / 16
      rotaryDim: 256,
      options: { ropeType: 'default', base: 10000 },
      attentionFactor: 1,
    },
    'deepseek-v3.json': {
      headDim: 64, // qk_rope_head_dim
      rotaryDim: 64,
      options: {
        ropeType: 'yarn',
        base: 10000,
        factor: 40,
        maxPositions: 163840,
        originalMaxPositions: 4096,
        betaFast: 32,
        betaSlow: 1,
        mscale: 1,
        mscaleAllDim: 1,
      },
      attentionFactor: 1, // m(40, 1) / m(40, 1)
    },
  };

  for (const [file, want] of Object.entries(expected)) {
    test(file, () => {
      const config = fixture(file);
      const before = JSON.stringify(config);
      const got = ropeOptionsFromConfig(config);
      assert.equal(JSON.stringify(config), before, 'the config is not modified');
      assert.equal(got.headDim, want.headDim);
      assert.equal(got.rotaryDim, want.rotaryDim);
      assert.deepEqual(got.options, want.options);
      if (want.firstLast) {
        assert.equal(got.options.shortFactor.length, 48);
        assert.equal(got.options.longFactor.length, 48);
        assert.deepEqual([got.options.shortFactor[0], got.options.shortFactor[47]], want.firstLast.short);
        assert.deepEqual([got.options.longFactor[0], got.options.longFactor[47]], want.firstLast.long);
      }
      // The encoder's method is the same mapping, and its options go straight to ropeCache.
      const pe = flavours.simd;
      assert.deepEqual(pe.ropeOptionsFromConfig(config), got);
      const positions = [0, 1, 4095, 4096, 100000.5, MAX_POSITION - 1];
      const cache = pe.ropeCache(positions, got.rotaryDim, got.options);
      assert.ok(Math.abs(cache.attentionFactor - want.attentionFactor) <= 1e-12, `attentionFactor ${cache.attentionFactor}`);
      checkCache(cache, referenceCache(positions, got.rotaryDim, got.options), file);
      // And to applyRope with the rotary width.
      const x = randomX(2 * positions.length * got.headDim, rng(3));
      const original = x.slice();
      const o = { ...got.options, rotaryDim: got.rotaryDim };
      pe.applyRope(x, positions, got.headDim, o);
      checkRotation(x, original, positions, got.headDim, o, want.attentionFactor, file);
    });
  }

  test("Phi-3's first spelling of longrope, 'su', is longrope (as Phi3Config renames it)", () => {
    const config = fixture('phi-3-mini-128k-instruct.json');
    config.rope_scaling.type = 'su';
    assert.equal(ropeOptionsFromConfig(config).options.ropeType, 'longrope');
  });

  test('original_max_position_embeddings at the top level wins over the scaling object (transformers v5)', () => {
    const config = fixture('qwen2.5-7b-instruct-yarn.json');
    config.original_max_position_embeddings = 8192;
    assert.equal(ropeOptionsFromConfig(config).options.originalMaxPositions, 8192);
  });

  test('llama3 without original_max_position_embeddings takes max_position_embeddings (transformers v5)', () => {
    const config = fixture('llama-3.1-8b.json');
    delete config.rope_scaling.original_max_position_embeddings;
    assert.equal(ropeOptionsFromConfig(config).options.originalMaxPositions, 131072);
  });

  test('rope_parameters may carry partial_rotary_factor (transformers v5)', () => {
    const config = fixture('phi-2.json');
    delete config.partial_rotary_factor;
    delete config.rope_theta;
    config.rope_parameters = { rope_type: 'default', rope_theta: 10000.0, partial_rotary_factor: 0.5 };
    const got = ropeOptionsFromConfig(config);
    assert.equal(got.rotaryDim, 40);
    assert.deepEqual(got.options, { ropeType: 'default', base: 10000 });
  });

  test('a multimodal config is read from its text_config', () => {
    const got = ropeOptionsFromConfig({ model_type: 'vlm', text_config: fixture('gemma-7b.json') });
    assert.equal(got.headDim, 256);
  });
});

// ---------------------------------------------------------------------------
// Bad input: a TypeError/RangeError naming the argument, nothing written, the
// module still usable.
function throwsNaming(fn, Classes, pattern, label) {
  const classes = Array.isArray(Classes) ? Classes : [Classes];
  assert.throws(
    fn,
    (e) => {
      assert.ok(
        classes.some((C) => e instanceof C),
        `${label}: ${e.constructor.name} (${e.message}), expected ${classes.map((C) => C.name).join(' or ')}`,
      );
      assert.match(e.message, pattern, label);
      assert.match(e.message, /^sinpe: /, label);
      return true;
    },
    label,
  );
}

for (const flavour of ['simd', 'baseline']) {
  describe(`RoPE bad input (${flavour})`, () => {
    // A valid call after each refusal: the module must still give exact results.
    function stillWorks(pe) {
      const o = { ropeType: 'yarn', factor: 4, originalMaxPositions: 4096 };
      checkCache(pe.ropeCache([0, 5, 123.5], 16, o), referenceCache([0, 5, 123.5], 16, o), 'after an error');
    }

    const f8 = longropeFactors(8);
    const badOptions = [
      // [label, options for rotaryDim 8, error class(es), pattern]
      ['unknown ropeType', { ropeType: 'ntk' }, RangeError, /options\.ropeType/],
      ['ropeType not a string', { ropeType: 3 }, [TypeError, RangeError], /options\.ropeType/],
      ['shortFactor too short', { ropeType: 'longrope', maxPositions: 8192, shortFactor: [1, 1, 1], longFactor: f8.longFactor }, RangeError, /options\.shortFactor/],
      ['longFactor too long', { ropeType: 'longrope', maxPositions: 8192, shortFactor: f8.shortFactor, longFactor: [...f8.longFactor, 2] }, RangeError, /options\.longFactor/],
      ['shortFactor with a zero', { ropeType: 'longrope', maxPositions: 8192, shortFactor: [1, 0, 1, 1], longFactor: f8.longFactor }, RangeError, /options\.shortFactor/],
      ['longFactor with a negative', { ropeType: 'longrope', maxPositions: 8192, shortFactor: f8.shortFactor, longFactor: [1, 2, -3, 4] }, RangeError, /options\.longFactor/],
      ['longFactor with NaN', { ropeType: 'longrope', maxPositions: 8192, shortFactor: f8.shortFactor, longFactor: [1, NaN, 3, 4] }, RangeError, /options\.longFactor/],
      ['shortFactor with Infinity', { ropeType: 'longrope', maxPositions: 8192, shortFactor: [1, Infinity, 3, 4], longFactor: f8.longFactor }, RangeError, /options\.shortFactor/],
      ['shortFactor not an array', { ropeType: 'longrope', maxPositions: 8192, shortFactor: 2, longFactor: f8.longFactor }, TypeError, /options\.shortFactor/],
      ['longrope without longFactor', { ropeType: 'longrope', maxPositions: 8192, shortFactor: f8.shortFactor }, [TypeError, RangeError], /options\.longFactor/],
      ['factor 0', { ropeType: 'linear', factor: 0 }, RangeError, /options\.factor/],
      ['factor negative', { ropeType: 'yarn', factor: -2, originalMaxPositions: 4096 }, RangeError, /options\.factor/],
      ['factor NaN', { ropeType: 'dynamic', factor: NaN, maxPositions: 2048 }, RangeError, /options\.factor/],
      ['factor Infinity', { ropeType: 'linear', factor: Infinity }, RangeError, /options\.factor/],
      ['factor a string', { ropeType: 'linear', factor: '2' }, TypeError, /options\.factor/],
      ['linear without factor', { ropeType: 'linear' }, [TypeError, RangeError], /options\.factor/],
      ['yarn with neither originalMaxPositions nor maxPositions', { ropeType: 'yarn', factor: 4 }, [TypeError, RangeError], /options\.(originalMaxPositions|maxPositions)/],
      ['longrope with neither originalMaxPositions nor maxPositions', { ropeType: 'longrope', ...f8 }, [TypeError, RangeError], /options\.(originalMaxPositions|maxPositions)/],
      ['dynamic without maxPositions', { ropeType: 'dynamic', factor: 2 }, [TypeError, RangeError], /options\.maxPositions/],
      ['lowFreqFactor = highFreqFactor', { ropeType: 'llama3', lowFreqFactor: 2, highFreqFactor: 2 }, RangeError, /options\.lowFreqFactor/],
      ['lowFreqFactor > highFreqFactor', { ropeType: 'llama3', lowFreqFactor: 4, highFreqFactor: 1 }, RangeError, /options\.lowFreqFactor/],
      ['base 1', { base: 1 }, RangeError, /options\.base/],
      ['base 0.5', { ropeType: 'linear', factor: 2, base: 0.5 }, RangeError, /options\.base/],
      ['base -10000', { base: -10000 }, RangeError, /options\.base/],
      ['base NaN', { base: NaN }, RangeError, /options\.base/],
      ['base Infinity', { ropeType: 'llama3', base: Infinity }, RangeError, /options\.base/],
      ['attentionFactor NaN', { ropeType: 'yarn', factor: 4, originalMaxPositions: 4096, attentionFactor: NaN }, RangeError, /options\.attentionFactor/],
      ['maxPositions fractional', { ropeType: 'dynamic', factor: 2, maxPositions: 2048.5 }, RangeError, /options\.maxPositions/],
      ['seqLen -1', { ropeType: 'dynamic', factor: 2, maxPositions: 2048, seqLen: -1 }, RangeError, /options\.seqLen/],
      ['truncate not a boolean', { ropeType: 'yarn', factor: 4, originalMaxPositions: 4096, truncate: 1 }, TypeError, /options\.truncate/],
      ['factor given to default', { factor: 2 }, TypeError, /options\.factor/],
      ['maxPositions given to llama3', { ropeType: 'llama3', maxPositions: 131072 }, TypeError, /options\.maxPositions/],
      ['lowFreqFactor given to yarn', { ropeType: 'yarn', factor: 4, originalMaxPositions: 4096, lowFreqFactor: 1 }, TypeError, /options\.lowFreqFactor/],
      ['shortFactor given to linear', { ropeType: 'linear', factor: 2, shortFactor: f8.shortFactor }, TypeError, /options\.shortFactor/],
      ['mscale given to longrope', { ropeType: 'longrope', maxPositions: 8192, ...f8, mscale: 1 }, TypeError, /options\.mscale/],
      ['seqLen given to linear', { ropeType: 'linear', factor: 2, seqLen: 10 }, TypeError, /options\.seqLen/],
      ['a sinusoidal preset option', { maxTimescale: 10000 }, TypeError, /options\.maxTimescale/],
    ];

    for (const [label, options, Classes, pattern] of badOptions) {
      test(`${label}: refused by ropeFrequencies, ropeCache, ropeCacheRows and applyRope; x unchanged`, () => {
        const pe = flavours[flavour];
        throwsNaming(() => pe.ropeFrequencies(8, options), Classes, pattern, `ropeFrequencies: ${label}`);
        throwsNaming(() => pe.ropeCache([0, 1, 2], 8, options), Classes, pattern, `ropeCache: ${label}`);
        throwsNaming(() => pe.ropeCacheRows(0, 3, 8, options), Classes, pattern, `ropeCacheRows: ${label}`);
        const out = { cos: new Float32Array(12).fill(7), sin: new Float32Array(12).fill(7) };
        throwsNaming(() => pe.ropeCache([0, 1, 2], 8, { ...options, out }), Classes, pattern, `ropeCache out: ${label}`);
        assert.ok(out.cos.every((v) => v === 7) && out.sin.every((v) => v === 7), `${label}: out untouched`);
        const x = randomX(3 * 2 * 8, rng(9));
        const original = x.slice();
        throwsNaming(() => pe.applyRope(x, [0, 1, 2], 8, options), Classes, pattern, `applyRope: ${label}`);
        assert.deepEqual(x, original, `${label}: x unchanged`);
        stillWorks(pe);
      });
    }

    const shapeErrors = [
      ['ropeCache odd rotaryDim', (pe) => pe.ropeCache([0, 1], 7, {}), RangeError, /rotaryDim/],
      ['ropeCache zero rotaryDim', (pe) => pe.ropeCache([0, 1], 0, {}), RangeError, /rotaryDim/],
      ['ropeCache fractional rotaryDim', (pe) => pe.ropeCache([0, 1], 8.5, {}), RangeError, /rotaryDim/],
      ['ropeCache rotaryDim NaN', (pe) => pe.ropeCache([0, 1], NaN, {}), [TypeError, RangeError], /rotaryDim/],
      ['ropeFrequencies negative rotaryDim', (pe) => pe.ropeFrequencies(-8, {}), RangeError, /rotaryDim/],
      ['ropeCacheRows rotaryDim 3', (pe) => pe.ropeCacheRows(0, 4, 3, {}), RangeError, /rotaryDim/],
      ['ropeCache position NaN', (pe) => pe.ropeCache([0, 1, NaN], 8, {}), RangeError, /positions\[2\]/],
      ['ropeCache position Infinity', (pe) => pe.ropeCache([0, -Infinity], 8, {}), RangeError, /positions\[1\]/],
      ['ropeCache position 2^24', (pe) => pe.ropeCache([2 ** 24], 8, {}), RangeError, /positions\[0\]/],
      // Named as rows() names it: by the row range start … start+count.
      ['ropeCacheRows past 2^24', (pe) => pe.ropeCacheRows(2 ** 24 - 2, 3, 8, {}), RangeError, /count|start|rows \[16777214, 16777217\)/],
      ['ropeCacheRows start NaN', (pe) => pe.ropeCacheRows(NaN, 3, 8, {}), [TypeError, RangeError], /start/],
      ['ropeCache out.cos too short', (pe) => pe.ropeCache([0, 1], 8, { out: { cos: new Float32Array(7), sin: new Float32Array(8) } }), RangeError, /out/],
    ];
    for (const [label, call, Classes, pattern] of shapeErrors) {
      test(label, () => {
        const pe = flavours[flavour];
        throwsNaming(() => call(pe), Classes, pattern, label);
        stillWorks(pe);
      });
    }

    const applyErrors = [
      // [label, x length, positions, headDim, options, classes, pattern]
      ['odd options.rotaryDim', 2 * 8, [0, 1], 8, { rotaryDim: 5 }, RangeError, /options\.rotaryDim/],
      ['zero options.rotaryDim', 2 * 8, [0, 1], 8, { rotaryDim: 0 }, RangeError, /options\.rotaryDim/],
      ['rotaryDim > headDim', 2 * 8, [0, 1], 8, { rotaryDim: 10 }, RangeError, /options\.rotaryDim/],
      ['x.length not a multiple of n·headDim', 2 * 8 + 3, [0, 1], 8, {}, RangeError, /\bx\b/],
      ['x.length 8 for 2 tokens of headDim 8', 8, [0, 1], 8, {}, RangeError, /\bx\b/],
      ['headDim 0', 16, [0, 1], 0, {}, RangeError, /headDim/],
      ['odd headDim without rotaryDim', 2 * 7, [0, 1], 7, {}, RangeError, /rotaryDim|headDim/],
      ['unknown layout', 2 * 8, [0, 1], 8, { layout: 'concat' }, RangeError, /options\.layout/],
      ['position NaN', 2 * 8, [0, NaN], 8, {}, RangeError, /positions\[1\]/],
      ['position out of range', 2 * 8, [-(2 ** 24), 0], 8, {}, RangeError, /positions\[0\]/],
      ['no positions', 8, [], 8, {}, RangeError, /positions|\bx\b/],
    ];
    for (const [label, length, positions, headDim, options, Classes, pattern] of applyErrors) {
      test(`applyRope: ${label}; x unchanged`, () => {
        const pe = flavours[flavour];
        const x = randomX(length, rng(4));
        const original = x.slice();
        throwsNaming(() => pe.applyRope(x, positions, headDim, options), Classes, pattern, label);
        assert.deepEqual(x, original, `${label}: x unchanged`);
        stillWorks(pe);
      });
    }

    test('applyRope: x must be a Float32Array', () => {
      const pe = flavours[flavour];
      for (const x of [new Float64Array(16), Array(16).fill(1), new Uint8Array(64), null]) {
        throwsNaming(() => pe.applyRope(x, [0, 1], 8, {}), TypeError, /\bx\b/, `x = ${x?.constructor?.name}`);
      }
      stillWorks(pe);
    });
  });
}

describe('ropeOptionsFromConfig: a config.json missing what it needs, or holding bad values', () => {
  const base = () => fixture('llama-3.1-8b.json');
  const cases = [
    ['not an object', () => 'config.json', TypeError, /config must be/],
    ['null', () => null, TypeError, /config must be/],
    ['no hidden_size', () => {
      const c = base();
      delete c.hidden_size;
      return c;
    }, TypeError, /config\.hidden_size is missing/],
    ['no num_attention_heads', () => {
      const c = base();
      delete c.num_attention_heads;
      return c;
    }, TypeError, /config\.num_attention_heads is missing/],
    ['hidden_size not a multiple of the heads', () => ({ ...base(), num_attention_heads: 30 }), RangeError, /config\.hidden_size/],
    ['head_dim fractional', () => ({ ...base(), head_dim: 12.5 }), RangeError, /config\.head_dim/],
    ['head_dim a string', () => ({ ...base(), head_dim: '128' }), TypeError, /config\.head_dim/],
    ['partial_rotary_factor 0', () => ({ ...base(), partial_rotary_factor: 0 }), RangeError, /config\.partial_rotary_factor/],
    ['partial_rotary_factor 1.5', () => ({ ...base(), partial_rotary_factor: 1.5 }), RangeError, /config\.partial_rotary_factor/],
    ['partial_rotary_factor giving an odd width', () => ({ ...fixture('phi-2.json'), partial_rotary_factor: 0.3875 }), RangeError, /config\.partial_rotary_factor/],
    ['unknown rope type', () => ({ ...base(), rope_scaling: { rope_type: 'xdrope', factor: 2 } }), RangeError, /config\.rope_scaling\.rope_type.*xdrope/],
    ['unknown legacy type', () => ({ ...base(), rope_scaling: { type: 'ntk-by-parts', factor: 2 } }), RangeError, /config\.rope_scaling\.type.*ntk-by-parts/],
    ['rope_scaling not an object', () => ({ ...base(), rope_scaling: 'llama3' }), TypeError, /config\.rope_scaling/],
    ['llama3 without factor', () => {
      const c = base();
      delete c.rope_scaling.factor;
      return c;
    }, TypeError, /config\.rope_scaling\.factor is missing/],
    ['llama3 without low_freq_factor', () => {
      const c = base();
      delete c.rope_scaling.low_freq_factor;
      return c;
    }, TypeError, /config\.rope_scaling\.low_freq_factor is missing/],
    ['linear factor negative', () => ({ ...base(), rope_scaling: { type: 'linear', factor: -2 } }), RangeError, /config\.rope_scaling\.factor must be a positive finite number, got -2/],
    ['linear factor a string', () => ({ ...base(), rope_scaling: { type: 'linear', factor: '2' } }), TypeError, /config\.rope_scaling\.factor/],
    ['dynamic without max_position_embeddings', () => {
      const c = { ...base(), rope_scaling: { type: 'dynamic', factor: 2 } };
      delete c.max_position_embeddings;
      return c;
    }, TypeError, /config\.max_position_embeddings is missing/],
    ['yarn without factor', () => ({ ...fixture('qwen2.5-7b-instruct-yarn.json'), rope_scaling: { type: 'yarn' } }), TypeError, /config\.rope_scaling\.factor is missing/],
    ['longrope without long_factor', () => {
      const c = fixture('phi-3-mini-128k-instruct.json');
      delete c.rope_scaling.long_factor;
      return c;
    }, TypeError, /config\.rope_scaling\.long_factor is missing/],
    ['longrope short_factor of 47', () => {
      const c = fixture('phi-3-mini-128k-instruct.json');
      c.rope_scaling.short_factor.pop();
      return c;
    }, RangeError, /config\.rope_scaling\.short_factor/],
    ['longrope long_factor with a zero', () => {
      const c = fixture('phi-3-mini-128k-instruct.json');
      c.rope_scaling.long_factor[5] = 0;
      return c;
    }, RangeError, /config\.rope_scaling\.long_factor\[5\]/],
    ['rope_theta 1', () => ({ ...base(), rope_theta: 1 }), RangeError, /config\.rope_theta/],
    ['rope_theta NaN in rope_parameters', () => {
      const c = fixture('llama-3.1-8b-transformers-v5.json');
      c.rope_parameters.rope_theta = NaN;
      return c;
    }, TypeError, /config\.rope_parameters\.rope_theta/],
    ['low_freq_factor ≥ high_freq_factor', () => {
      const c = base();
      c.rope_scaling.low_freq_factor = 4;
      c.rope_scaling.high_freq_factor = 4;
      return c;
    }, RangeError, /config\.rope_scaling\.low_freq_factor/],
    ['truncate a string', () => ({ ...fixture('qwen2.5-7b-instruct-yarn.json'), rope_scaling: { type: 'yarn', factor: 4, truncate: 'yes' } }), TypeError, /config\.rope_scaling\.truncate/],
    ['original_max_position_embeddings fractional at the top level', () => ({ ...fixture('phi-3-mini-128k-instruct.json'), original_max_position_embeddings: 4096.5 }), RangeError, /config\.original_max_position_embeddings/],
  ];
  for (const [label, make, Classes, pattern] of cases) {
    test(label, () => {
      throwsNaming(() => ropeOptionsFromConfig(make()), Classes, pattern, label);
      throwsNaming(() => flavours.simd.ropeOptionsFromConfig(make()), Classes, pattern, `pe.ropeOptionsFromConfig: ${label}`);
    });
  }
});

describe('regressions', () => {
  test('regression: dynamic seqLen 2^24 (the length that covers position 2^24 − 1) was refused; 2^24 + 1 still is', () => {
    for (const flavour of ['simd', 'baseline']) {
      const pe = flavours[flavour];
      const o = { ropeType: 'dynamic', factor: 2, maxPositions: 4096, seqLen: 2 ** 24 };
      const p = [0, 5, 2 ** 24 - 1];
      const got = pe.ropeCache(p, 8, o);
      const want = referenceCache(p, 8, o);
      for (let i = 0; i < want.cos.length; i++) {
        assert.ok(Math.abs(got.cos[i] - want.cos[i]) <= CACHE_TOLERANCE, `${flavour} cos[${i}]`);
        assert.ok(Math.abs(got.sin[i] - want.sin[i]) <= CACHE_TOLERANCE, `${flavour} sin[${i}]`);
      }
      assert.throws(() => pe.ropeCache(p, 8, { ...o, seqLen: 2 ** 24 + 1 }), (e) => e instanceof RangeError && /^sinpe: options\.seqLen .*got 16777217$/.test(e.message));
    }
  });

  test('regression: ropeCacheRows(0, 2^24, 128) blamed "the result" instead of count', () => {
    assert.throws(() => flavours.simd.ropeCacheRows(0, 2 ** 24, 128), (e) => e instanceof RangeError && /^sinpe: count = 16777216: /.test(e.message));
  });
});
