// Consumer: a TypeScript project type-checks this file with `tsc --noEmit`
// against the shipped sinpe.d.ts. The @ts-expect-error lines must be errors,
// so the declarations are shown to constrain, not just to exist.
import sinpe, { presets, layouts, type Encoder, type Preset, type Layout, type InitOptions } from 'sinpe.wasm';

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
const flags: [boolean, string, number] = [pe.simd, pe.version, pe.heapBytes()];
void [a, b, c, x, px, f, flags];

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
// @ts-expect-error: results are read-only facts
pe.simd = false;
// @ts-expect-error: init.simd is 'auto' | boolean
void sinpe({ simd: 'yes' });
