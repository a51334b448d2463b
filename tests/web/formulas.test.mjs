// Every formula the site displays (web/src/lib/maths) evaluated at random
// values against the package (js/sinpe.js with the built dist/) or a float64
// reference written here from the definitions: a formula whose TeX and
// evaluator disagree with what the page computes fails here.
//
// Run after `bash scripts/build.sh` (the package loads dist/*.wasm).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import katex from 'katex';
import sinpe from '../../js/sinpe.js';
import * as sinusoidal from '../../web/src/lib/maths/sinusoidal.js';
import * as rope from '../../web/src/lib/maths/rope.js';
import * as ropeMultimodal from '../../web/src/lib/maths/rope-multimodal.js';
import { getRopeIndex, pairAxes, pixtralAngle, roundHalf, ulp, halfValue, usualValue, FORMATS } from './multimodal-reference.mjs';
import { scalingOptions, SCALING_TYPES } from '../../web/src/model/rope-lesson.js';

const here = dirname(fileURLToPath(import.meta.url));
const TRIALS = 200;

let pe;
before(async () => {
  pe = await sinpe();
});

// mulberry32: a small seeded generator, so a failure is reproducible
function random(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    even: (lo, hi) => 2 * (Math.floor(lo / 2) + Math.floor(next() * (Math.floor(hi / 2) - Math.floor(lo / 2) + 1))),
    uniform: (lo, hi) => lo + next() * (hi - lo),
    log: (lo, hi) => Math.exp(Math.log(lo) + next() * (Math.log(hi) - Math.log(lo))),
  };
}

/** Runs `check(rng, trial)` TRIALS times; the first failure names its trial and seed. */
function trials(name, seed, check) {
  const rng = random(seed);
  let ran = 0;
  for (let trial = 0; trial < TRIALS; trial++) {
    try {
      check(rng, trial);
    } catch (error) {
      error.message = `${name}, trial ${trial} (seed ${seed}): ${error.message}`;
      throw error;
    }
    ran++;
  }
  assert.equal(ran, TRIALS);
}

function close(actual, expected, tolerance, what) {
  assert.ok(Number.isFinite(actual) && Number.isFinite(expected), `${what}: ${actual} vs ${expected} (not finite)`);
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: formula ${actual}, expected ${expected}, difference ${Math.abs(actual - expected)} > ${tolerance}`);
}

// ---- the list of formulas is complete: every one has a check below ----

const CHECKED = {
  sinusoidal: ['PE', 'WAVELENGTH', 'SHIFT', 'DOT'],
  rope: ['ROTATION', 'OFFSET_SCORE', ...SCALING_TYPES.map((t) => `SCALING_${t}`)],
  ropeMultimodal: ['MROPE_POSITIONS', 'MROPE_AXIS', 'PIXTRAL_ANGLE', 'HALF_ULPS', 'HALF_PATHS'],
};

test('every displayed formula has a TeX string, an evaluator and a check in this file', () => {
  assert.deepEqual(Object.keys(sinusoidal.FORMULAS).sort(), [...CHECKED.sinusoidal].sort());
  assert.deepEqual(Object.keys(rope.FORMULAS).sort(), [...CHECKED.rope].sort());
  assert.deepEqual(Object.keys(ropeMultimodal.FORMULAS).sort(), [...CHECKED.ropeMultimodal].sort());
  for (const f of [...Object.values(sinusoidal.FORMULAS), ...Object.values(rope.FORMULAS), ...Object.values(ropeMultimodal.FORMULAS)]) {
    assert.equal(typeof f.tex, 'string');
    assert.ok(f.tex.length > 5);
    assert.equal(typeof f.evaluate, 'function');
    // as the page renders it (lib/dom.js tex): a TeX error would show red source instead
    assert.doesNotThrow(() => katex.renderToString(f.tex, { displayMode: true, throwOnError: true }), f.tex);
  }
});

// A narrow form is the same formula on more lines: with the layout taken out
// (alignment points &, line breaks \\, the aligned/gathered environments, spaces
// and spacing commands), its TeX is the formula's TeX token for token.
function withoutLayout(source) {
  return source
    .replace(/\\(begin|end)\{(aligned|gathered)\}/g, '')
    .replace(/\\\\(\[[^\]]*\])?/g, '')
    .replace(/\\(qquad|quad)(?![a-zA-Z])|\\[,;! ]/g, '')
    .replace(/[&\s]/g, '');
}

test('withoutLayout keeps every symbol and drops only the layout', () => {
  assert.equal(withoutLayout('\\begin{aligned} a &= b,\\quad c \\\\ &\\qquad d\\,e \\end{aligned}'), 'a=b,cde');
  assert.notEqual(withoutLayout('a = b \\\\ c'), withoutLayout('a = b - c'));
  assert.notEqual(withoutLayout('\\quadrant'), '');
});

test('every narrow form of a formula renders and is the formula, only laid out on more lines', () => {
  const all = { ...sinusoidal.FORMULAS, ...rope.FORMULAS, ...ropeMultimodal.FORMULAS };
  const narrow = Object.entries(all).filter(([, f]) => f.narrow !== undefined);
  // the long ones (wider than a 360 px phone as written) have one
  for (const name of ['ROTATION', 'OFFSET_SCORE', 'SCALING_yarn', 'MROPE_POSITIONS', 'MROPE_AXIS', 'PIXTRAL_ANGLE', 'HALF_ULPS']) assert.ok(all[name].narrow, `${name} has a narrow form`);
  for (const [name, f] of narrow) {
    assert.equal(typeof f.narrow, 'string', name);
    assert.notEqual(f.narrow, f.tex, `${name}: the narrow form differs from the wide one`);
    assert.ok((f.narrow.match(/\\\\/g) ?? []).length > (f.tex.match(/\\\\/g) ?? []).length, `${name}: the narrow form has more lines`);
    assert.doesNotThrow(() => katex.renderToString(f.narrow, { displayMode: true, throwOnError: true }), f.narrow);
    assert.equal(withoutLayout(f.narrow), withoutLayout(f.tex), `${name}: the narrow form says what the formula says`);
    // the same words to translate (i18n formulaText covers both forms)
    assert.deepEqual([...f.narrow.matchAll(/\\text\{([^{}]*)\}/g)].map((m) => m[1]), [...f.tex.matchAll(/\\text\{([^{}]*)\}/g)].map((m) => m[1]), name);
  }
});

test('no lesson writes a display formula as a TeX literal (they come from lib/maths)', () => {
  const lessons = resolve(here, '../../web/src/lessons');
  const files = (dir) => readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)]));
  const literal = [];
  for (const file of files(lessons)) {
    for (const m of readFileSync(file, 'utf8').matchAll(/\btex\(\s*(['"])/g)) literal.push(`${file}: ${m[0]}`);
  }
  assert.deepEqual(literal, []);
});

// ---- the sinusoidal table (the formula to relative lessons) ----

test('PE: sin and cos of pos / base^(2i/d) are the package table’s columns 2i and 2i+1', () => {
  trials('PE', 101, (rng) => {
    const d = rng.even(2, 512);
    const base = rng.log(2, 1e5);
    const pos = rng.int(0, 5000);
    const i = rng.int(0, d / 2 - 1);
    const row = pe.rows(pos, 1, d, { base, layout: 'interleaved' });
    const { sin, cos } = sinusoidal.PE.evaluate({ pos, i, d, base });
    close(sin, row[2 * i], 2e-7, `sin, d ${d} base ${base} pos ${pos} i ${i}`);
    close(cos, row[2 * i + 1], 2e-7, `cos, d ${d} base ${base} pos ${pos} i ${i}`);
  });
});

test('WAVELENGTH: λ_i from the package’s frequencies', () => {
  trials('WAVELENGTH', 102, (rng) => {
    const d = rng.even(4, 512);
    const base = rng.log(2, 1e5);
    const i = rng.int(0, d / 2 - 2);
    const omega = pe.frequencies(d, { base });
    const lambda = (2 * Math.PI) / omega[i];
    close(sinusoidal.WAVELENGTH.evaluate({ i, d, base }), lambda, 1e-12 * lambda, `λ, d ${d} base ${base} i ${i}`);
  });
});

test('SHIFT: the rotation by ω_i k maps the package’s pair at p onto its pair at p + k', () => {
  trials('SHIFT', 103, (rng) => {
    const d = rng.even(2, 256);
    const base = rng.log(2, 1e5);
    const p = rng.int(0, 2000);
    const k = rng.int(-p, 2000);
    const i = rng.int(0, d / 2 - 1);
    const omega = pe.frequencies(d, { base })[i];
    const at = pe.rows(p, 1, d, { base, layout: 'interleaved' });
    const to = pe.rows(p + k, 1, d, { base, layout: 'interleaved' });
    const [sin, cos] = sinusoidal.SHIFT.evaluate({ omega, k, sin: at[2 * i], cos: at[2 * i + 1] });
    close(sin, to[2 * i], 4e-7, `sin, d ${d} p ${p} k ${k} i ${i}`);
    close(cos, to[2 * i + 1], 4e-7, `cos, d ${d} p ${p} k ${k} i ${i}`);
  });
});

test('DOT: the sum of cos ω_i (q − p) is the dot product of the package’s rows p and q', () => {
  trials('DOT', 104, (rng) => {
    const d = rng.even(2, 256);
    const base = rng.log(2, 1e5);
    const p = rng.int(0, 3000);
    const q = rng.int(0, 3000);
    const a = pe.rows(p, 1, d, { base });
    const b = pe.rows(q, 1, d, { base });
    let dot = 0;
    for (let c = 0; c < d; c++) dot += a[c] * b[c];
    close(sinusoidal.DOT.evaluate({ p, q, d, base }), dot, 2e-7 * d, `d ${d} p ${p} q ${q}`);
  });
});

// ---- RoPE (the rope lesson) ----

/** Float64 reference: R(θ) x for one pair, R = [[cos, −sin], [sin, cos]]. */
const turn = ([a, b], theta) => [a * Math.cos(theta) - b * Math.sin(theta), a * Math.sin(theta) + b * Math.cos(theta)];

test('ROTATION: the pair turned by p·ω_j is the package’s applyRope (half layout)', () => {
  trials('ROTATION', 105, (rng) => {
    const r = rng.even(2, 128);
    const b = rng.log(10, 1e6);
    const p = rng.int(0, 4000);
    const j = rng.int(0, r / 2 - 1);
    const x = new Float32Array(r);
    x[j] = rng.uniform(-2, 2);
    x[j + r / 2] = rng.uniform(-2, 2);
    const [xa, xb] = [x[j], x[j + r / 2]];
    pe.applyRope(x, [p], r, { base: b, layout: 'half' });
    const [ya, yb] = rope.ROTATION.evaluate({ xa, xb, p, j, r, b });
    close(ya, x[j], 1e-6, `x'_a, r ${r} b ${b} p ${p} j ${j}`);
    close(yb, x[j + r / 2], 1e-6, `x'_b, r ${r} b ${b} p ${p} j ${j}`);
  });
});

test('OFFSET_SCORE: the per-pair sum is ⟨R(p)q, R(p+m)k⟩ with R = [[cos, −sin], [sin, cos]]', () => {
  // the example of the review: q = (0.3, −0.7), k = (0.5, 0.9), angle m·ω = 0.8 → −0.779
  const example = rope.OFFSET_SCORE.evaluate({ q: [[0.3, -0.7]], k: [[0.5, 0.9]], m: 1, omega: [0.8] });
  const [ka, kb] = turn([0.5, 0.9], 0.8);
  close(example, 0.3 * ka - 0.7 * kb, 1e-12, 'the review’s example');
  close(example, -0.779, 5e-4, 'the review’s example, as stated');
  trials('OFFSET_SCORE', 106, (rng) => {
    const half = rng.int(1, 32);
    const b = rng.log(10, 1e6);
    const omega = Array.from({ length: half }, (_, j) => b ** ((-2 * j) / (2 * half)));
    const q = Array.from({ length: half }, () => [rng.uniform(-1, 1), rng.uniform(-1, 1)]);
    const k = Array.from({ length: half }, () => [rng.uniform(-1, 1), rng.uniform(-1, 1)]);
    const p = rng.int(0, 1000);
    const m = rng.int(-200, 200);
    let expected = 0;
    for (let j = 0; j < half; j++) {
      const [qa, qb] = turn(q[j], p * omega[j]);
      const [ka2, kb2] = turn(k[j], (p + m) * omega[j]);
      expected += qa * ka2 + qb * kb2;
    }
    close(rope.OFFSET_SCORE.evaluate({ q, k, m, omega }), expected, 1e-9 * half, `pairs ${half} p ${p} m ${m}`);
  });
});

for (const type of SCALING_TYPES) {
  test(`SCALING_${type}: the displayed rule gives the package’s ropeFrequencies for the lesson’s options`, () => {
    trials(`SCALING_${type}`, 200 + SCALING_TYPES.indexOf(type), (rng) => {
      const r = rng.even(4, 256);
      const b = rng.log(100, 1e7);
      const s = Number(rng.uniform(1.5, 64).toFixed(2));
      const L = rng.int(256, 131072);
      const options = scalingOptions(type, { base: b, factor: s, ctx: L }, r);
      const expected = pe.ropeFrequencies(r, options);
      const got = rope.SCALING_FORMULAS[type].evaluate({ r, b, s, L, N: options.seqLen });
      assert.equal(got.length, expected.length);
      got.forEach((w, j) => close(w, expected[j], 1e-12 * expected[j], `ω'_${j}, r ${r} b ${b} s ${s} L ${L}`));
    });
  });
}

test('SCALING_yarn: the Qwen2.5 example (r 128, b 10⁶, s 4, L 32768) as the page computes it', () => {
  const options = scalingOptions('yarn', { base: 1e6, factor: 4, ctx: 32768 }, 128);
  const expected = pe.ropeFrequencies(128, options);
  const got = rope.SCALING_FORMULAS.yarn.evaluate({ r: 128, b: 1e6, s: 4, L: 32768 });
  // pair 24 sits inside the correction range: floor/ceil moves it
  close((2 * Math.PI) / got[24], (2 * Math.PI) / expected[24], 1e-9, 'λ of pair 24');
});

// ---- RoPE for images and half precision (the rope lesson) ----

const QWEN = { imageTokenId: 151655, videoTokenId: 151656, visionStartTokenId: 151652 };
const VISION_END = 151653;

test('MROPE_POSITIONS: the displayed rule gives get_rope_index’s ids (reference and the package’s getRopeIndex)', () => {
  trials('MROPE_POSITIONS', 301, (rng) => {
    const m = rng.int(1, 3);
    // the processor's grids: h and w multiples of the merge size
    const c = { before: rng.int(0, 6), after: rng.int(0, 6), t: rng.int(1, 4), h: m * rng.int(1, 6), w: m * rng.int(1, 6), m };
    const n = c.t * Math.floor(c.h / m) * Math.floor(c.w / m);
    const ids = [...Array(c.before).fill(100), QWEN.visionStartTokenId, ...Array(n).fill(QWEN.imageTokenId), VISION_END, ...Array(c.after).fill(100)];
    const grid = [[c.t, c.h, c.w]];
    const expected = getRopeIndex(ids, { ...QWEN, imageGridThw: grid, spatialMergeSize: m });
    const shown = ropeMultimodal.MROPE_POSITIONS.evaluate(c);
    assert.deepEqual(shown, expected.positions, JSON.stringify(c));
    const got = pe.getRopeIndex(ids, { ...QWEN, spatialMergeSize: m, imageGridThw: grid, model: 'qwen2-vl' });
    assert.deepEqual(Array.from(got.positions), expected.positions.flat(), `package, ${JSON.stringify(c)}`);
    assert.equal(got.ropeDelta, expected.ropeDelta, `rope delta, ${JSON.stringify(c)}`);
  });
});

test('MROPE_AXIS: the displayed pair → axis rule is the split transformers makes, and the package’s multi-axis cache', () => {
  const sections = [[16, 24, 24], [24, 20, 20], [32, 16, 16], [8, 28, 28], [20, 6, 6]];
  for (const axes of ['sectioned', 'interleaved']) {
    for (const section of sections) {
      const half = section[0] + section[1] + section[2];
      const expected = pairAxes(section, half, axes);
      const shown = expected.map((_, j) => ropeMultimodal.MROPE_AXIS.evaluate({ j, section, axes }));
      assert.deepEqual(shown, expected, `${axes} ${section}`);
      // token a at position 1 on axis a only: a pair turns (sin ≠ 0) for its own axis's token
      const positions = Float64Array.from({ length: 9 }, (_, k) => (k % 4 === 0 ? 1 : 0));
      const { sin } = pe.ropeCache(positions, 2 * half, { base: 1e6, mropeSection: section, ropeAxes: axes });
      for (let j = 0; j < half; j++) {
        const turning = [0, 1, 2].filter((a) => sin[a * half + j] !== 0);
        assert.deepEqual(turning, [expected[j]], `${axes} ${section} pair ${j}`);
        close(sin[expected[j] * half + j], Math.sin(1e6 ** ((-2 * j) / (2 * half))), 2.5e-7, `${axes} ${section} sin of pair ${j}`);
      }
    }
  }
});

test('PIXTRAL_ANGLE: the displayed angle is PixtralRotaryEmbedding’s, and the package’s ropeCacheGrid', () => {
  trials('PIXTRAL_ANGLE', 302, (rng) => {
    const r = 4 * rng.int(1, 16);
    const b = rng.log(100, 1e6);
    const H = rng.int(1, 9);
    const W = rng.int(1, 9);
    const { cos, sin } = pe.ropeCacheGrid(H, W, r, { base: b, ropeAxes: 'pixtral' });
    assert.equal(cos.length, (H * W * r) / 2);
    const y = rng.int(0, H - 1);
    const x = rng.int(0, W - 1);
    const j = rng.int(0, r / 2 - 1);
    const expected = pixtralAngle(y, x, j, r, b);
    const shown = ropeMultimodal.PIXTRAL_ANGLE.evaluate({ y, x, j, r, b });
    close(shown, expected, 1e-12 * (1 + Math.abs(expected)), `r ${r} b ${b} patch (${y}, ${x}) pair ${j}`);
    const row = (y * W + x) * (r / 2) + j;
    close(cos[row], Math.cos(expected), 2.5e-7, `cos, r ${r} b ${b} patch (${y}, ${x}) pair ${j}`);
    close(sin[row], Math.sin(expected), 2.5e-7, `sin, r ${r} b ${b} patch (${y}, ${x}) pair ${j}`);
  });
});

test('HALF_ULPS defines its symbols: each format’s significand bits and smallest normal exponent, as IEEE 754 and bfloat16 give them', () => {
  const tex = ropeMultimodal.HALF_ULPS.tex;
  // the exponent's letters as the formula writes them: 2^{max(⌊log2|z|⌋, E) − M}
  const [, emin, bits] = /\\max\(\\lfloor \\log_2 \|z\| \\rfloor,\\ ([^)]+)\) - ([^}]+)\}/.exec(tex) ?? [];
  assert.ok(emin && bits, tex);
  for (const [dtype, { m, emin: e }] of Object.entries(FORMATS)) {
    const at = tex.indexOf(`{${dtype}}`);
    assert.ok(at >= 0, `${dtype} named`);
    const definition = tex.slice(at, at + 60);
    assert.ok(definition.includes(`${bits.trim()} = ${m}`), `${dtype}: ${bits} = ${m} in ${definition}`);
    assert.ok(definition.includes(`${emin.trim()} = ${e}`), `${dtype}: ${emin} = ${e} in ${definition}`);
  }
});

test('HALF_ULPS: the displayed error in ulps, against ulps from the float64 bits', () => {
  trials('HALF_ULPS', 303, (rng) => {
    for (const dtype of ['float16', 'bfloat16']) {
      const { m, emin } = FORMATS[dtype];
      const x = (rng.next() < 0.5 ? -1 : 1) * 2 ** rng.uniform(-30, 0);
      const v = x + rng.uniform(-4, 4) * ulp(x, dtype);
      close(ropeMultimodal.HALF_ULPS.evaluate({ v, x, m, emin }), Math.abs(v - x) / ulp(x, dtype), 1e-9, `${dtype} x ${x}`);
    }
  });
  // at a power of two the ulp is the one above it: 1 in float16 has ulp 2^-10
  assert.equal(ropeMultimodal.HALF_ULPS.evaluate({ v: 1 + 2 ** -10, x: 1, m: 10, emin: -14 }), 1);
});

test('HALF_PATHS: the usual path as transformers computes it; one rounding is the package’s half-dtype ropeCacheRows', () => {
  trials('HALF_PATHS', 304, (rng) => {
    const r = rng.even(2, 256);
    const b = rng.log(100, 1e6);
    const start = rng.int(0, 60000);
    const dtype = rng.next() < 0.5 ? 'float16' : 'bfloat16';
    const cache = pe.ropeCacheRows(start, 1, r, { base: b, dtype });
    assert.ok(cache.cos instanceof Uint16Array, 'a half dtype gives bit patterns');
    const j = rng.int(0, r / 2 - 1);
    const omega = b ** ((-2 * j) / r);
    const f = Math.fround;
    const omegaF32 = f(1 / f(f(b) ** f(f(2 * j) / r)));
    const { usual, rounded } = ropeMultimodal.HALF_PATHS.evaluate({ p: start, omega, omegaF32, round: (v) => roundHalf(v, dtype) });
    assert.equal(usual, usualValue(start, j, r, b, 0, dtype), `usual, ${dtype} r ${r} b ${b} p ${start} j ${j}`);
    const exact = Math.cos(start * omega);
    assert.equal(rounded, roundHalf(exact, dtype));
    const got = halfValue(cache.cos[j], dtype);
    // equal, unless the float64 value sits within rounding noise of a midpoint between two half numbers
    const nearTie = Math.abs(Math.abs(exact - roundHalf(exact, dtype)) / ulp(exact, dtype) - 0.5) < 1e-9;
    assert.ok(got === rounded || nearTie, `package ${got}, one rounding of ${exact} is ${rounded} (${dtype} r ${r} b ${b} p ${start} j ${j})`);
  });
});

// ---- the rope lesson's formulas in 简体中文 ----

test('the rope lesson’s formulas in 简体中文 carry no English words in \\text{} (code names allowed)', async () => {
  const { default: zh } = await import('../../web/src/i18n/zh.js');
  const { texIn } = await import('../../web/src/lib/maths/words.js');
  // names of code and configuration keys, which stay as written
  const CODE_NAMES = new Set(['fast', 'slow', 'mrope_section']);
  const formulas = { ...rope.FORMULAS, ...ropeMultimodal.FORMULAS };
  let texts = 0;
  for (const [name, formula] of Object.entries(formulas)) {
    const shown = texIn(formula, zh.formulaText);
    for (const [, content] of shown.matchAll(/\\text\{([^{}]*)\}/g)) {
      texts++;
      const words = (content.match(/[A-Za-z_]{2,}/g) ?? []).filter((w) => !CODE_NAMES.has(w));
      assert.deepEqual(words, [], `${name}: \\text{${content}}`);
    }
    // each formula still renders
    katex.renderToString(shown, { displayMode: true, throwOnError: true });
  }
  assert.ok(texts >= 15, `${texts} \\text{} pieces checked`);
});
