// A page bundled by Vite: the package checks every bundled app runs
// (checks.js), rows on the main thread (SIMD and baseline), rows computed in a
// module Web Worker and transferred back.
import sinpe from 'sinpe.wasm';
import { packageChecks } from './checks.js';

async function main() {
  const [pe, base] = await Promise.all([sinpe(), sinpe({ simd: false })]);
  const main = pe.rows(1000, 3, 16);
  const baseline = base.rows(1000, 3, 16, { preset: 'whisper' });
  const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  const messages = [];
  const [fromWorker, after] = await new Promise((resolve, reject) => {
    worker.onmessage = (e) => {
      messages.push(e.data);
      if (messages.length === 2) resolve(messages);
    };
    worker.onerror = (e) => reject(new Error(`worker: ${e.message}`));
    worker.postMessage({ start: 1000, count: 3, d: 16 });
  });
  const received = new Float32Array(fromWorker.buffer);
  window.__result = {
    ...(await packageChecks()),
    simd: pe.simd,
    baselineSimd: base.simd,
    version: pe.version,
    main: Array.from(main),
    baseline: Array.from(baseline),
    worker: { simd: fromWorker.simd, values: Array.from(received), detachedThere: after.detachedAfterTransfer, isFloat32: received instanceof Float32Array },
  };
  document.getElementById('status').textContent = 'done';
}
main().catch((e) => {
  window.__result = { error: String(e && e.stack ? e.stack : e) };
});
