// Loading the WebAssembly module: checks `init`, picks the flavour, gets and
// compiles the .wasm bytes itself and hands Emscripten the instance through its
// `instantiateWasm` hook. Left to itself, Emscripten's glue turns bad bytes
// into "Aborted(CompileError …) Build with -s ASSERTIONS=1" and a module
// lacking its exports into "Cannot read properties of undefined"; here every
// failure rejects with an Error that says what to pass instead, the engine's
// error as its `cause`.

import vocabulary from '../dist/sinpe-vocabulary.js';
import { bytesArg, describe, fail, snapshotOptions } from './args.js';

const INIT_KEYS = ['simd', 'wasmBinary', 'locateFile'];

// The smallest module using a SIMD instruction (v128.const / i8x16 ops), as in
// GoogleChromeLabs/wasm-feature-detect.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);

function simdSupported() {
  try {
    return typeof WebAssembly === 'object' && WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

const isNode = typeof process === 'object' && process !== null && typeof process.versions?.node === 'string';

function loadError(message, cause) {
  return new Error(`sinpe: ${message}`, cause === undefined ? undefined : { cause });
}

function messageOf(e) {
  return e instanceof Error ? e.message : String(e);
}

// What to pass, for a message about the wrong bytes.
function wanted(file, simd) {
  const other = simd ? ', or those of sinpe-baseline.wasm with init.simd: false' : '';
  return `pass the bytes of ${file} from this package ('sinpe.wasm/${file}')${other}`;
}

async function compile(bytes, source, file, simd) {
  try {
    return await WebAssembly.compile(bytes);
  } catch (e) {
    if (e instanceof WebAssembly.CompileError)
      throw loadError(`${source} is not a WebAssembly module this engine compiles (${e.message}); ${wanted(file, simd)}`, e);
    throw e;
  }
}

// Reads a file: URL in Node, where Emscripten 3.1.6's web glue would fetch() it.
async function readFileUrl(url, source) {
  const fsName = 'node:fs/promises';
  const { readFile } = await import(/* @vite-ignore */ /* webpackIgnore: true */ fsName);
  try {
    return new Uint8Array(await readFile(url));
  } catch (e) {
    throw loadError(`could not read ${source} (${messageOf(e)}); pass init.locateFile or init.wasmBinary`, e);
  }
}

async function fetchAndCompile(url, source, file, simd) {
  if (typeof fetch !== 'function')
    throw loadError(`this engine has no fetch() to load ${file} from ${url}; pass init.wasmBinary`);
  let response;
  try {
    response = await fetch(url, { credentials: 'same-origin' });
  } catch (e) {
    throw loadError(`could not fetch ${file} from ${url} (${messageOf(e)}); serve the file there, or pass init.locateFile or init.wasmBinary`, e);
  }
  if (!response.ok)
    throw loadError(`fetching ${file} from ${url} gave HTTP ${response.status}; serve the file there, or pass init.locateFile or init.wasmBinary`);
  // Streaming only for the exact type: Node 20's compileStreaming refuses
  // "application/wasm; charset=binary" or "Application/Wasm" (browsers take them)
  // with a TypeError; those, like any other type, are compiled from the bytes.
  if (typeof WebAssembly.compileStreaming === 'function' && response.headers.get('content-type') === 'application/wasm') {
    try {
      return await WebAssembly.compileStreaming(response);
    } catch (e) {
      if (e instanceof WebAssembly.CompileError)
        throw loadError(`${source} is not a WebAssembly module this engine compiles (${e.message}); ${wanted(file, simd)}`, e);
      throw e;
    }
  }
  return compile(new Uint8Array(await response.arrayBuffer()), source, file, simd);
}

// The compiled flavour: from init.wasmBinary, init.locateFile's URL, or the
// package's own file next to this module.
// Resolves with { compiled, source }, source saying where the bytes came from.
async function compileFlavour(options, bytes, simd, file, wasmUrl) {
  if (bytes !== undefined) return { compiled: await compile(bytes, 'init.wasmBinary', file, simd), source: 'init.wasmBinary' };
  let url = wasmUrl;
  let source = `the file at ${wasmUrl.href}`;
  if (options.locateFile !== undefined) {
    let prefix = '';
    try {
      prefix = new URL('.', wasmUrl).href;
    } catch {
      // A bundler may have turned the file into a data: URL, which has no folder.
    }
    let located;
    try {
      located = options.locateFile(file, prefix);
    } catch (e) {
      throw loadError(`init.locateFile('${file}', …) threw: ${messageOf(e)}`, e);
    }
    if (located instanceof URL) located = located.href;
    if (typeof located !== 'string' || located === '')
      fail(TypeError, `init.locateFile must return the URL of ${file} (a string), got ${describe(located)}`);
    source = `the file at ${located} (from init.locateFile)`;
    try {
      url = isNode ? new URL(located, prefix || undefined) : located;
    } catch (e) {
      throw loadError(`init.locateFile returned ${describe(located)}, which is not a URL of ${file}`, e);
    }
  }
  const compiled =
    isNode && url instanceof URL && url.protocol === 'file:'
      ? await compile(await readFileUrl(url, source), source, file, simd)
      : await fetchAndCompile(url instanceof URL ? url.href : url, source, file, simd);
  return { compiled, source };
}

// Runs Emscripten's factory on an already compiled module. Resolves with the
// Embind module once its start-up has run; any failure before that rejects
// (once) with an Error naming where the bytes came from.
function instantiate(factory, compiled, source, file, simd) {
  const notOurs = (reason, cause) =>
    loadError(`${source} is a WebAssembly module but not ${file} of this package: ${reason}; ${wanted(file, simd)}`, cause);
  const exports = WebAssembly.Module.exports(compiled);
  for (const kind of ['memory', 'table'])
    if (!exports.some((e) => e.kind === kind)) return Promise.reject(notOurs(`it exports no ${kind}`));

  return new Promise((resolve, reject) => {
    let loading = true;
    const refuse = (error) => {
      if (!loading) return;
      loading = false;
      reject(error);
    };
    const args = {
      instantiateWasm(imports, receiveInstance) {
        WebAssembly.instantiate(compiled, imports).then(
          (instance) => {
            try {
              receiveInstance(instance, compiled);
            } catch (e) {
              // The glue's own message ("Aborted(…)", "Cannot read properties of …") says nothing
              // a caller can act on; it stays in `cause`.
              refuse(notOurs('its start-up failed', e));
            }
          },
          (e) =>
            refuse(
              e instanceof WebAssembly.LinkError
                ? notOurs(`its imports differ (${e.message})`, e)
                : notOurs(`instantiating it failed (${messageOf(e)})`, e),
            ),
        );
        return {}; // the exports arrive later, through receiveInstance
      },
      // Emscripten prints "Aborted(…)" here before failing; during loading the
      // rejection above says what went wrong instead.
      printErr(text) {
        if (!loading) console.warn(text);
      },
    };
    let ready;
    try {
      ready = factory(args);
    } catch (e) {
      refuse(notOurs('its start-up failed', e));
      return;
    }
    ready.then(
      (module) => {
        let version;
        try {
          version = typeof module?._version === 'function' ? module._version() : undefined;
        } catch {
          version = undefined;
        }
        if (typeof version !== 'string') refuse(notOurs('it registers no sinpe functions'));
        else if (version !== vocabulary.version)
          refuse(notOurs(`it is sinpe ${version}, this JavaScript is sinpe ${vocabulary.version}`));
        else if (loading) {
          loading = false;
          resolve(module);
        }
      },
      (e) => refuse(notOurs('its start-up failed', e)),
    );
  });
}

/**
 * Loads the module: `init` as documented for `sinpe()` ({ simd?: 'auto' |
 * boolean, wasmBinary?: ArrayBuffer | Uint8Array, locateFile?: (path, prefix)
 * => string }). Resolves with { module, simd }: the Embind module and whether
 * it is the SIMD flavour. Wrong types reject with a TypeError naming the init
 * option, a SIMD request on an engine without SIMD with a RangeError, and
 * anything that stops the bytes from becoming this package's module (unreadable
 * URL, bytes that do not compile, a module with other imports or exports) with
 * an Error saying what to pass, the engine's error as `cause`.
 */
export async function loadModule(init) {
  const options = snapshotOptions('init', init);
  for (const key of Object.keys(options))
    if (!INIT_KEYS.includes(key)) fail(TypeError, `unknown init option ${describe(key)}; known: ${INIT_KEYS.join(', ')}`);
  const want = options.simd === undefined ? 'auto' : options.simd;
  if (want !== 'auto' && typeof want !== 'boolean')
    fail(TypeError, `init.simd must be 'auto', true or false, got ${describe(want)}`);
  if (options.locateFile !== undefined && typeof options.locateFile !== 'function')
    fail(TypeError, `init.locateFile must be a function, got ${describe(options.locateFile)}`);
  const bytes = options.wasmBinary === undefined ? undefined : bytesArg('init.wasmBinary', options.wasmBinary);
  const simd = want === 'auto' ? simdSupported() : want;
  if (simd && !simdSupported()) fail(RangeError, "init.simd is true but this engine has no WebAssembly SIMD; pass simd: false or 'auto'");

  // Literal URLs and import paths so that bundlers (Vite, webpack 5, esbuild with
  // a file loader, Rollup) find and copy the files.
  const file = simd ? 'sinpe-simd.wasm' : 'sinpe-baseline.wasm';
  const wasmUrl = simd
    ? new URL('../dist/sinpe-simd.wasm', import.meta.url)
    : new URL('../dist/sinpe-baseline.wasm', import.meta.url);
  const glue = simd ? import('../dist/sinpe-simd.mjs') : import('../dist/sinpe-baseline.mjs');
  glue.catch(() => {}); // awaited below; a failure is reported there, not as unhandled

  const { compiled, source } = await compileFlavour(options, bytes, simd, file, wasmUrl);
  let factory;
  try {
    factory = (await glue).default;
  } catch (e) {
    throw loadError(`could not load the JavaScript of ${file} (${messageOf(e)})`, e);
  }
  const module = await instantiate(factory, compiled, source, file, simd);
  return { module, simd };
}
