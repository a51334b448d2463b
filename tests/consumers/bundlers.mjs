// Production builds of the consumer app (app/) with four bundlers, each driven
// through its Node API with the configuration an app author would write. The
// app imports the package by name from the temp project's node_modules (the
// packed tarball); the bundlers themselves are the repository's devDependencies.
// Each build must copy the two .wasm files through the package's literal
// `new URL('../dist/….wasm', import.meta.url)`; the runner checks that the
// served files are byte-identical to the package's.
import { readdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { build as viteBuild, createLogger } from 'vite';
import webpack from 'webpack';
import * as esbuild from 'esbuild';
import { newUrlAssets } from './esbuild-new-url.mjs';
import { rollup } from 'rollup';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import { importMetaAssets } from '@web/rollup-plugin-import-meta-assets';

/** The page of the webpack, esbuild and Rollup apps (Vite builds app/index.html itself). */
const page = (script) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>sinpe.wasm consumer</title>
  </head>
  <body>
    <p id="status">loading</p>
    ${script}
  </body>
</html>
`;

async function listFiles(dir) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name))).sort();
}

/** Vite: app/index.html with a module worker; Vite handles `new URL(…, import.meta.url)` itself. */
export async function buildVite(project, out) {
  const warnings = new Set();
  const customLogger = createLogger('warn');
  customLogger.warn = customLogger.warnOnce = (msg) => warnings.add(msg.replaceAll(project, '<project>'));
  await viteBuild({
    configFile: false,
    root: join(project, 'app'),
    logLevel: 'warn',
    customLogger,
    // bundlerTimings off: its warning reports slow plugins on a busy machine, nothing about the package.
    build: { outDir: out, emptyOutDir: true, rolldownOptions: { checks: { bundlerTimings: false } } },
    worker: { format: 'es' },
  });
  return { files: await listFiles(out), warnings: [...warnings] };
}

/** webpack 5: asset modules turn `new URL('….wasm', import.meta.url)` into an emitted file, no configuration needed. */
export async function buildWebpack(project, out) {
  const compiler = webpack({
    mode: 'production',
    context: project,
    entry: './app/bundle.js',
    output: { path: out, filename: 'main.js', clean: true },
    devtool: false,
    performance: { hints: false },
  });
  const stats = await new Promise((resolve, reject) =>
    compiler.run((err, s) => {
      compiler.close(() => {});
      if (err) reject(err);
      else if (s.hasErrors()) reject(new Error(s.toString('errors-only')));
      else resolve(s);
    }),
  );
  // A classic script: webpack's default output; its public path comes from document.currentScript.
  await writeFile(join(out, 'index.html'), page('<script src="./main.js"></script>'));
  return { files: await listFiles(out), warnings: stats.compilation.warnings.map((w) => w.message) };
}

/** esbuild: ESM output with code splitting (the package loads each flavour's glue with import()). */
export async function buildEsbuild(project, out) {
  const result = await esbuild.build({
    absWorkingDir: project,
    entryPoints: ['app/bundle.js'],
    bundle: true,
    format: 'esm',
    splitting: true,
    platform: 'browser',
    target: 'es2022',
    minify: true,
    outdir: out,
    loader: { '.wasm': 'file' },
    assetNames: '[name]-[hash]',
    plugins: [newUrlAssets],
    logLevel: 'silent',
  });
  if (result.errors.length) throw new Error(result.errors.map((e) => e.text).join('\n'));
  await writeFile(join(out, 'index.html'), page('<script type="module" src="./bundle.js"></script>'));
  return { files: await listFiles(out), warnings: result.warnings.map((w) => w.text) };
}

/** Rollup: node-resolve finds the package; @web/rollup-plugin-import-meta-assets emits the `new URL` assets. */
export async function buildRollup(project, out) {
  const warnings = [];
  const bundle = await rollup({
    input: join(project, 'app/bundle.js'),
    plugins: [nodeResolve({ browser: true, rootDir: project }), importMetaAssets()],
    onwarn: (w) => warnings.push(w.message),
  });
  try {
    await bundle.write({ dir: out, format: 'es', entryFileNames: 'bundle.js', assetFileNames: 'assets/[name]-[hash][extname]' });
  } finally {
    await bundle.close();
  }
  await writeFile(join(out, 'index.html'), page('<script type="module" src="./bundle.js"></script>'));
  return { files: await listFiles(out), warnings };
}
