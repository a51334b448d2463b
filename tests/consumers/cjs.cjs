// Consumer: a CommonJS project ("type": "commonjs") loads the ESM-only package
// with dynamic import(), as CommonJS code must on Node 18/20.
const assert = require('node:assert/strict');

(async () => {
  const { default: sinpe, presets } = await import('sinpe.wasm');
  const pe = await sinpe({ simd: false });
  assert.equal(pe.simd, false);
  assert.equal(presets.length, 8);
  const t = pe.table(3, 4);
  const want = [0, 1, 0, 1, Math.sin(1), Math.cos(1), Math.sin(0.01), Math.cos(0.01), Math.sin(2), Math.cos(2), Math.sin(0.02), Math.cos(0.02)];
  want.forEach((w, i) => assert.ok(Math.abs(t[i] - w) <= 2.5e-7, `t[${i}] = ${t[i]}, want ${w}`));
  console.log(`node CommonJS: await import('sinpe.wasm') from ${require.resolve('sinpe.wasm/package.json').replace(process.cwd() + '/', '')}; table(3, 4) correct`);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
