// Module worker: computes rows and transfers their buffer to the page.
import sinpe from 'sinpe.wasm';

const ready = sinpe();
self.onmessage = async (e) => {
  const pe = await ready;
  const { start, count, d } = e.data;
  const rows = pe.rows(start, count, d);
  const buffer = rows.buffer;
  self.postMessage({ simd: pe.simd, buffer }, [buffer]);
  // Transferred, not copied: this side's buffer is now detached.
  self.postMessage({ detachedAfterTransfer: buffer.byteLength === 0 && rows.length === 0 });
};
