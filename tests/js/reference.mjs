// An independent float64 reference for tests: each preset's formula written
// out as its library writes it, one row at a time. Shares no code with sinpe.
import { ErrorTracker } from './errors-helper.mjs';

const ln = Math.log;

function place(layout, S, C, d) {
  const h = S.length;
  const out = new Float64Array(d); // odd d: the last column stays 0
  for (let k = 0; k < h; k++) {
    if (layout === 'interleaved') {
      out[2 * k] = S[k];
      out[2 * k + 1] = C[k];
    } else if (layout === 'concat') {
      out[k] = S[k];
      out[h + k] = C[k];
    } else if (layout === 'cos-first') {
      out[k] = C[k];
      out[h + k] = S[k];
    } else throw new Error(`layout ${layout}`);
  }
  return out;
}

/**
 * One row of width d at position p, float64. `o` uses the package's option
 * names; unset ones take each library's defaults.
 */
export function referenceRow(p, d, o = {}) {
  const preset = o.preset ?? 'vaswani';
  const h = Math.floor(d / 2);
  const angles = [];
  let layout = 'concat';
  switch (preset) {
    case 'vaswani': {
      const base = o.base ?? 10000; // PyTorch tutorial: exp(arange(0, d, 2) * (-log(base) / d))
      for (let i = 0; i < d; i += 2) angles.push(p * Math.exp(i * (-ln(base) / d)));
      layout = 'interleaved';
      break;
    }
    case 'keras': {
      const base = o.base ?? 10000;
      if (o.layout === undefined || o.layout === 'interleaved') {
        const out = new Float64Array(d);
        for (let j = 0; j < d; j++) {
          const inv = 1 / base ** ((2 * Math.floor(j / 2)) / d);
          out[j] = j % 2 === 0 ? Math.sin(p * inv) : Math.cos(p * inv);
        }
        return out;
      }
      for (let i = 0; i + 1 < d; i += 2) angles.push(p / base ** (i / d));
      if (d % 2) {
        // Odd width: the last column stays the sine of the next frequency, whatever the layout.
        const out = place(o.layout, angles.map(Math.sin), angles.map(Math.cos), d);
        out[d - 1] = Math.sin(p / base ** ((d - 1) / d));
        return out;
      }
      break;
    }
    case 'tensor2tensor': {
      const lo = o.minTimescale ?? 1;
      const hi = o.maxTimescale ?? 10000;
      const inc = ln(hi / lo) / Math.max(h - 1, 1);
      for (let k = 0; k < h; k++) angles.push(p * (lo * Math.exp(k * -inc)));
      break;
    }
    case 'fairseq': {
      if (o.paddingIdx !== undefined && p === o.paddingIdx) return new Float64Array(d);
      const e = ln(o.base ?? 10000) / (h - 1);
      for (let k = 0; k < h; k++) angles.push(p * Math.exp(k * -e));
      break;
    }
    case 'whisper': {
      const inc = ln(o.maxTimescale ?? 10000) / (h - 1);
      for (let k = 0; k < h; k++) angles.push(p * Math.exp(-inc * k));
      break;
    }
    case 'diffusers': {
      const shift = o.freqShift ?? 1;
      const scale = o.scale ?? 1;
      for (let k = 0; k < h; k++) angles.push(scale * (p * Math.exp((-ln(o.maxPeriod ?? 10000) * k) / (h - shift))));
      if (o.flipSinToCos) layout = 'cos-first';
      break;
    }
    case 'guided-diffusion':
      for (let k = 0; k < h; k++) angles.push(p * Math.exp((-ln(o.maxPeriod ?? 10000) * k) / h));
      layout = 'cos-first';
      break;
    case 'mae':
      for (let k = 0; k < h; k++) angles.push(p * (1 / (o.base ?? 10000) ** (k / (d / 2))));
      break;
    default:
      throw new Error(`preset ${preset}`);
  }
  if (o.layout !== undefined) layout = o.layout;
  return place(layout, angles.map(Math.sin), angles.map(Math.cos), d);
}

/** MAE get_2d_sincos_pos_embed: first half encodes the column (x), second the row (y). */
export function referenceGrid(height, width, d, o = {}) {
  const rows = [];
  if (o.clsToken) rows.push(new Float64Array(d));
  const axis = { ...o };
  delete axis.clsToken;
  for (let r = 0; r < height; r++)
    for (let c = 0; c < width; c++) {
      const row = new Float64Array(d);
      row.set(referenceRow(c, d / 2, axis), 0);
      row.set(referenceRow(r, d / 2, axis), d / 2);
      rows.push(row);
    }
  return rows;
}

/**
 * Largest |got - want| over rows for the given positions: NaN if any value is
 * NaN, if got has the wrong length or if there is nothing to compare, Infinity
 * if any is infinite (errors-helper.mjs), so `maxError(...) <= TOLERANCE` fails.
 */
export function maxError(got, positions, d, o = {}) {
  const t = new ErrorTracker();
  if (got.length !== positions.length * d) t.add(NaN, -1);
  positions.forEach((p, i) => {
    const want = referenceRow(p, d, o);
    for (let c = 0; c < d; c++) t.addDifference(got[i * d + c], want[c], i * d + c);
  });
  return t.worst;
}

export const TOLERANCE = 2.5e-7;
