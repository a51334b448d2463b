// float32 output rounded once, through the package: every value of table,
// rows, encode, ropeCache, ropeCacheRows and ropeCacheGrid (float32) is the
// independent float64 reference (tests/js/reference.mjs, rope-reference.mjs)
// rounded once with Math.fround (round to nearest, ties to even), on both
// flavours, including values placed at and beside float32 rounding
// boundaries. The reference and the core agree to a few units in the last
// place of the angle and of the value; a value within that slack of a
// boundary may round to either side (at large angles the slack spans several
// float32 values: any between its ends), every other value must be equal bit
// for bit. Where the package's frequency is the reference's bit for bit
// (ropeFrequencies), only the value's slack applies.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import sinpe from 'sinpe.wasm';
import { referenceRow } from './reference.mjs';
import { ropeCache, ropeInvFreq, ropeAttention } from './rope-reference.mjs';

const flavours = {};
before(async () => {
  flavours.simd = await sinpe({ simd: true });
  flavours.baseline = await sinpe({ simd: false });
});

const slackOf = (angle, v, amp = 1) => 4e-16 * (Math.abs(angle) + Math.abs(v)) * Math.max(1, amp) + 1e-300;
const valueSlack = (angle, v, amp = 1) => 4e-16 * (Math.abs(v) + Math.min(1, Math.abs(angle))) * Math.max(1, amp) + 1e-300;

class Compare {
  values = 0;
  exact = 0;
  near = 0;
  wrong = 0;
  first = '';
  add(got, want, slack, what) {
    this.values++;
    const lo = Math.fround(want - slack);
    const hi = Math.fround(want + slack);
    // A zero is compared with its sign (sin 0 is +0); lo and hi of a zero are -0 and +0, equal as numbers.
    const ok = want === 0 ? Object.is(got, want) : lo === hi ? got === lo : got >= lo && got <= hi;
    if (lo === hi) this.exact++;
    else this.near++;
    if (!ok && this.wrong++ === 0) this.first = `${what}: got ${got}, want ${lo === hi ? lo : `${lo} … ${hi}`} (float64 ${want})`;
  }
}

const POSITIONS = [0, 1, 2, 63, 64, 65, 1023, 1024, 1025, 4095, 65535, 131071, -5, -131072, 16777215, -16777215, 0.5, 1e-3, 12345.678];

for (const name of ['simd', 'baseline']) {
  test(`table, rows and encode (${name}) are the reference rounded once`, () => {
    const pe = flavours[name];
    const cmp = new Compare();
    for (const o of [{}, { preset: 'diffusers', scale: 3 }, { preset: 'tensor2tensor' }, { preset: 'guided-diffusion' }])
      for (const d of [64, 130, 8]) {
        const wmax = Math.max(...pe.frequencies(d, o));
        const check = (got, p, what) => {
          const want = referenceRow(p, d, o);
          for (let c = 0; c < d; c++) cmp.add(got[c], want[c], slackOf(p * wmax, want[c]), `${o.preset ?? 'vaswani'} d ${d} ${what} p ${p} column ${c}`);
        };
        const t = pe.table(1100, d, o);
        for (let p = 0; p < 1100; p++) check(t.subarray(p * d, (p + 1) * d), p, 'table');
        const r = pe.rows(16777215 - 200, 200, d, o);
        for (let i = 0; i < 200; i++) check(r.subarray(i * d, (i + 1) * d), 16777215 - 200 + i, 'rows');
        const e = pe.encode(POSITIONS, d, o);
        POSITIONS.forEach((p, i) => check(e.subarray(i * d, (i + 1) * d), p, 'encode'));
      }
    assert.equal(cmp.wrong, 0, `${cmp.wrong} of ${cmp.values} values not the reference rounded once; first: ${cmp.first}`);
    assert.ok(cmp.values > 500000 && cmp.near * 4 < cmp.values, `${cmp.values} values, ${cmp.near} near a boundary`);
  });

  test(`ropeCache, ropeCacheRows and ropeCacheGrid (${name}) are the reference rounded once`, () => {
    const pe = flavours[name];
    const cmp = new Compare();
    for (const o of [{}, { ropeType: 'yarn', factor: 4, originalMaxPositions: 32768 }])
      for (const r of [128, 6]) {
        const inv = ropeInvFreq(r, o);
        const att = ropeAttention(r, o);
        const same = Array.from(pe.ropeFrequencies(r, o), (f, j) => f === inv[j]);
        const half = r / 2;
        const check = (got, positions, what) => {
          const want = ropeCache(positions, r, o);
          positions.forEach((p, t) => {
            for (let j = 0; j < half; j++) {
              const angle = p * inv[j];
              const slack = same[j] ? valueSlack : slackOf;
              const i = t * half + j;
              cmp.add(got.cos[i], want.cos[i], slack(angle, want.cos[i], att), `${what} r ${r} p ${p} cos ${j}`);
              cmp.add(got.sin[i], want.sin[i], slack(angle, want.sin[i], att), `${what} r ${r} p ${p} sin ${j}`);
            }
          });
        };
        check(pe.ropeCache(POSITIONS, r, o), POSITIONS, 'ropeCache');
        for (const start of [0, 16777215 - 1100]) {
          const ps = Array.from({ length: 1100 }, (_, i) => start + i);
          check(pe.ropeCacheRows(start, 1100, r, o), ps, 'ropeCacheRows');
        }
      }
    // A two-axis grid (Pixtral): patch (row, column); pair q < r/4 is the row times frequency 2q, the
    // others the column times frequency 2(q - r/4) + 1 (transformers' freqs_h, freqs_w concatenated).
    const r = 16;
    const g = pe.ropeCacheGrid(9, 40, r, { ropeAxes: 'pixtral' });
    const inv = ropeInvFreq(r, {});
    for (let m = 0; m < 9 * 40; m++) {
      const pos = [Math.floor(m / 40), m % 40];
      for (let j = 0; j < r / 2; j++) {
        const angle = j < r / 4 ? pos[0] * inv[2 * j] : pos[1] * inv[2 * (j - r / 4) + 1];
        cmp.add(g.cos[m * (r / 2) + j], Math.cos(angle), valueSlack(angle, Math.cos(angle)), `grid patch ${m} cos ${j}`);
        cmp.add(g.sin[m * (r / 2) + j], Math.sin(angle), valueSlack(angle, Math.sin(angle)), `grid patch ${m} sin ${j}`);
      }
    }
    assert.equal(cmp.wrong, 0, `${cmp.wrong} of ${cmp.values} values not the reference rounded once; first: ${cmp.first}`);
    assert.ok(cmp.values > 200000 && cmp.near * 100 < cmp.values, `${cmp.values} values, ${cmp.near} near a boundary`);
  });

  // Frequencies whose sine or cosine at one position is a float32 midpoint
  // times (1 + rel): the float32 kernel's 2.4e-7 cannot decide them, a float64
  // evaluation must send those within its own error bound to the exact path.
  test(`values at and beside float32 rounding boundaries (${name}) are the reference rounded once`, () => {
    const pe = flavours[name];
    const cmp = new Compare();
    let near = 0;
    const r = 16;
    let j = 0;
    for (const x of [1, 0.5, 0.7, 0.1, 3e-3, 1e-4]) {
      const f = Math.fround(x);
      const bits = new Float32Array([f]);
      new Uint32Array(bits.buffer)[0] -= 1; // the float32 value below f
      const below = bits[0];
      const target = (below + f) / 2;
      for (const rel of [0, 2 ** -45, -(2 ** -45), 2 ** -41, -(2 ** -41), 2 ** -38, -(2 ** -38)])
        for (const sine of [true, false])
          for (const [start, row] of [[0, 1], [0, 64], [0, 1025], [16775000, 63], [16775000, 1024]]) {
            const p = start + row;
            const y = target * (1 + rel);
            const angle = sine ? Math.asin(y) : Math.acos(y);
            j = (j + 3) % (r / 2);
            const o = { ropeType: 'linear', factor: 10000 ** ((-2 * j) / r) / (angle / p) };
            const inv = ropeInvFreq(r, o);
            const same = Array.from(pe.ropeFrequencies(r, o), (w, k) => w === inv[k]);
            const ps = Array.from({ length: 3 }, (_, i) => p - 1 + i);
            const want = ropeCache(ps, r, o);
            const got = [pe.ropeCacheRows(start, row + 2, r, o), pe.ropeCache([p], r, o)];
            const wv = sine ? want.sin[(r / 2) + j] : want.cos[(r / 2) + j];
            const sl = (same[j] ? valueSlack : slackOf)(p * inv[j], wv);
            const e = Math.abs(wv) * 2 ** -40;
            if (Math.fround(wv - sl) === Math.fround(wv + sl) && Math.fround(wv - e) !== Math.fround(wv + e)) near++;
            for (let t = 0; t < 3; t++)
              for (let k = 0; k < r / 2; k++) {
                const slack = same[k] ? valueSlack : slackOf;
                const angle2 = ps[t] * inv[k];
                const i = t * (r / 2) + k;
                const at = (row - 1 + t) * (r / 2) + k;
                cmp.add(got[0].cos[at], want.cos[i], slack(angle2, want.cos[i]), `rows p ${ps[t]} cos ${k}`);
                cmp.add(got[0].sin[at], want.sin[i], slack(angle2, want.sin[i]), `rows p ${ps[t]} sin ${k}`);
                if (t === 1) {
                  cmp.add(got[1].cos[k], want.cos[i], slack(angle2, want.cos[i]), `list p ${p} cos ${k}`);
                  cmp.add(got[1].sin[k], want.sin[i], slack(angle2, want.sin[i]), `list p ${p} sin ${k}`);
                }
              }
          }
    }
    assert.equal(cmp.wrong, 0, `${cmp.wrong} of ${cmp.values} values not the reference rounded once; first: ${cmp.first}`);
    assert.ok(near > 150, `only ${near} values within 2^-40 of a float32 midpoint (outside the slack)`);
  });
}
