// Loading the module from somewhere else than the package's own file: the
// fetch() path (init.locateFile returning an http: URL, as in a browser or a
// bundler that copies the .wasm to its assets), served by a real local HTTP
// server, and the forms locateFile's result may take (Emscripten's documented
// `locateFile(path, prefix)`: `prefix` is the folder of the file, the result
// a URL). Every load that succeeds is checked against the independent float64
// reference; every refusal is an Error whose message starts with "sinpe: ",
// names init.locateFile, the file and what to pass, and leaves loading usable.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import sinpe from 'sinpe.wasm';
import { referenceRow, TOLERANCE } from './reference.mjs';

const require = createRequire(import.meta.url);
const FLAVOURS = { simd: true, baseline: false };
const fileOf = (flavour) => `sinpe-${flavour}.wasm`;
const realPath = (flavour) => require.resolve(`sinpe.wasm/${fileOf(flavour)}`);

/** Encodes a few positions and compares them with the reference (throws on any difference). */
function probe(pe, what) {
  const positions = [0, 1, 2.5, 100, 4095];
  const d = 16;
  const got = pe.encode(positions, d);
  assert.ok(got instanceof Float32Array && got.length === positions.length * d, `${what}: shape`);
  positions.forEach((p, i) => {
    const want = referenceRow(p, d);
    for (let c = 0; c < d; c++)
      assert.ok(Math.abs(got[i * d + c] - want[c]) <= TOLERANCE, `${what}: row ${i} col ${c}: ${got[i * d + c]} vs ${want[c]}`);
  });
}

// A local server: /<type>/<status>/<name> answers `status` with the bytes of
// the package's file `name` (or, for a name starting with "junk-", bytes that
// are not WebAssembly), Content-Type `type` ("none": no Content-Type; "_" in
// it stands for "/").
let server;
let base;
const requests = [];
before(async () => {
  server = createServer((req, res) => {
    requests.push(req.url);
    const [, type, status, name] = req.url.split('/');
    const headers = type === 'none' ? {} : { 'content-type': decodeURIComponent(type).replace('_', '/') };
    let body;
    if (name.startsWith('junk-')) body = Buffer.from('not WebAssembly at all');
    else if (/^sinpe-(simd|baseline)\.wasm$/.test(name)) body = readFileSync(realPath(name.slice(6, -5)));
    else body = Buffer.from('no such file');
    res.writeHead(Number(status), headers);
    res.end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  // Not holding the event loop open: a load that never settles then fails the
  // test at once ("Promise resolution is still pending") instead of hanging.
  server.unref();
  base = `http://127.0.0.1:${server.address().port}`;
});
after(() => new Promise((resolve) => server.close(resolve)));

async function refusedLoad(init, what) {
  let error;
  try {
    await sinpe(init);
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof Error, `${what}: sinpe() resolved`);
  assert.ok(!(error instanceof TypeError), `${what}: a TypeError (${error.message})`);
  assert.ok(error.message.startsWith('sinpe: '), `${what}: ${error.message}`);
  assert.match(error.message, /init\.locateFile/, `${what}: names init.locateFile: ${error.message}`);
  const pe = await sinpe({ simd: init.simd });
  probe(pe, `${what}: loading afterwards`);
  return error;
}

describe('init.locateFile returning an http: URL (fetched)', () => {
  for (const [flavour, simd] of Object.entries(FLAVOURS))
    for (const type of ['application_wasm', 'application_wasm%3B%20charset%3Dbinary', 'APPLICATION_WASM', 'application_octet-stream', 'none'])
      test(`${flavour}: served with Content-Type ${type}: loads that flavour`, async () => {
        const calls = [];
        const pe = await sinpe({
          simd,
          locateFile: (...args) => {
            calls.push(args);
            return `${base}/${type}/200/${args[0]}`;
          },
        });
        assert.equal(calls.length, 1, 'locateFile called once');
        assert.equal(calls[0][0], fileOf(flavour), 'locateFile gets the file name');
        assert.equal(pe.simd, simd);
        assert.ok(requests.includes(`/${type}/200/${fileOf(flavour)}`), `the server was asked for ${fileOf(flavour)}`);
        probe(pe, `${flavour} over http ${type}`);
      });

  for (const [flavour, simd] of Object.entries(FLAVOURS))
    for (const status of [404, 500])
      test(`${flavour}: HTTP ${status}: an Error naming the status, the file and the URL`, async () => {
        const url = `${base}/application_wasm/${status}/${fileOf(flavour)}`;
        const error = await refusedLoad({ simd, locateFile: () => url }, `HTTP ${status}`);
        assert.ok(error.message.includes(`HTTP ${status}`), error.message);
        assert.ok(error.message.includes(url), error.message);
        assert.ok(error.message.includes(fileOf(flavour)), error.message);
        assert.match(error.message, /init\.locateFile or init\.wasmBinary/, error.message);
        assert.equal(Object.hasOwn(error, 'cause'), false, 'no engine error, so no cause');
      });

  for (const [flavour, simd] of Object.entries(FLAVOURS))
    for (const type of ['application_wasm', 'application_octet-stream'])
      test(`${flavour}: bytes that are not WebAssembly served as ${type}: an Error with the CompileError as cause`, async () => {
        const url = `${base}/${type}/200/junk-${fileOf(flavour)}`;
        const error = await refusedLoad({ simd, locateFile: () => url }, `junk as ${type}`);
        assert.ok(error.cause instanceof WebAssembly.CompileError, `cause: ${error.cause?.constructor?.name}`);
        assert.ok(error.message.includes(`the file at ${url} (from init.locateFile) is not a WebAssembly module`), error.message);
        assert.ok(error.message.includes(`pass the bytes of ${fileOf(flavour)} from this package ('sinpe.wasm/${fileOf(flavour)}')`), error.message);
        assert.equal(error.message.includes('init.simd: false'), simd, `only the SIMD flavour's message offers the baseline: ${error.message}`);
      });

  test('nothing listening: an Error saying the file could not be fetched, the engine\'s error as cause', async () => {
    const closed = createServer();
    await new Promise((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${closed.address().port}/sinpe-simd.wasm`;
    await new Promise((resolve) => closed.close(resolve));
    const error = await refusedLoad({ simd: true, locateFile: () => url }, 'connection refused');
    assert.ok(error.message.startsWith(`sinpe: could not fetch sinpe-simd.wasm from ${url} (`), error.message);
    assert.ok(error.cause instanceof Error, 'cause');
    assert.ok(error.message.includes(error.cause.message), error.message);
  });
});

describe('init.locateFile results in Node', () => {
  test('throwing: an Error naming init.locateFile and the file, the thrown value as cause', async () => {
    for (const [flavour, simd] of Object.entries(FLAVOURS)) {
      const thrown = new Error('no such CDN');
      const error = await refusedLoad({ simd, locateFile: () => { throw thrown; } }, 'throws');
      assert.equal(error.message, `sinpe: init.locateFile('${fileOf(flavour)}', …) threw: no such CDN`);
      assert.equal(error.cause, thrown);
    }
  });

  test('an engine without fetch(): an http: URL is refused, naming the file and init.wasmBinary', async () => {
    const saved = Object.getOwnPropertyDescriptor(globalThis, 'fetch');
    delete globalThis.fetch;
    let error;
    try {
      await sinpe({ simd: true, locateFile: (path) => `${base}/application_wasm/200/${path}` });
    } catch (e) {
      error = e;
    } finally {
      Object.defineProperty(globalThis, 'fetch', saved);
    }
    assert.ok(error instanceof Error, 'sinpe() resolved without fetch()');
    assert.equal(error.message, `sinpe: this engine has no fetch() to load sinpe-simd.wasm from ${base}/application_wasm/200/sinpe-simd.wasm; pass init.wasmBinary`);
    probe(await sinpe({ simd: true }), 'loading afterwards');
  });

  for (const [flavour, simd] of Object.entries(FLAVOURS)) {
    test(`${flavour}: prefix is the folder of the package's file`, async () => {
      let got;
      await sinpe({
        simd,
        locateFile: (path, prefix) => {
          got = { path, prefix };
          return prefix + path;
        },
      });
      assert.equal(got.path, fileOf(flavour));
      assert.equal(got.prefix, new URL('.', pathToFileURL(realPath(flavour))).href);
    });

    test(`${flavour}: a URL object, and a path relative to prefix, load`, async () => {
      for (const [what, locateFile] of [
        ['a URL object', (path, prefix) => new URL(path, prefix)],
        ['a relative path', (path) => path],
        ['a file: URL string', (path, prefix) => prefix + path],
      ]) {
        const pe = await sinpe({ simd, locateFile });
        assert.equal(pe.simd, simd, what);
        probe(pe, what);
      }
    });

    test(`${flavour}: an unreadable file: an Error saying it could not be read, naming the URL`, async () => {
      const url = new URL(`missing-${fileOf(flavour)}`, pathToFileURL(realPath(flavour))).href;
      const error = await refusedLoad({ simd, locateFile: () => url }, 'missing file');
      assert.ok(error.message.startsWith(`sinpe: could not read the file at ${url} (from init.locateFile) (`), error.message);
      assert.equal(error.cause?.code, 'ENOENT', `cause: ${error.cause}`);
    });
  }

  test('a string that is not a URL: an Error naming init.locateFile and the file', async () => {
    const error = await refusedLoad({ simd: false, locateFile: () => 'http://[not a host' }, 'not a URL');
    assert.match(error.message, /^sinpe: init\.locateFile returned "http:\/\/\[not a host", which is not a URL of sinpe-baseline\.wasm/);
    assert.ok(error.cause instanceof TypeError, `cause: ${error.cause}`);
  });
});

// Modules that compile but are not the package's, each refused for its own
// reason. The glue imports from module "a" (Emscripten's minified import
// module): by the JS API spec a function import whose value is not callable is
// a LinkError, an import module that is not an object a TypeError.
const HEADER = [0, 97, 115, 109, 1, 0, 0, 0];
const TYPE_VOID = [1, 4, 1, 0x60, 0, 0]; // type section: () -> ()
const TABLE = [4, 4, 1, 0x70, 0, 0]; // (table 0 funcref)
const MEMORY = [5, 3, 1, 0, 1]; // (memory 1)
const EXPORT_MT = [7, 9, 2, 1, 0x6d, 2, 0, 1, 0x74, 1, 0]; // memory as "m", table as "t"
const importOf = (mod, name) => {
  const body = [1, mod.length, ...Buffer.from(mod), name.length, ...Buffer.from(name), 0, 0];
  return [2, body.length, ...body];
};
const NOT_OURS = {
  'an empty module': { bytes: [...HEADER], reason: 'it exports no memory' },
  'a module exporting a memory only': { bytes: [...HEADER, ...MEMORY, 7, 5, 1, 1, 0x6d, 2, 0], reason: 'it exports no table' },
  'a module exporting a table only': { bytes: [...HEADER, ...TABLE, 7, 5, 1, 1, 0x74, 1, 0], reason: 'it exports no memory' },
  'a module importing a function the glue does not have (a.zz)': {
    bytes: [...HEADER, ...TYPE_VOID, ...importOf('a', 'zz'), ...TABLE, ...MEMORY, ...EXPORT_MT],
    reason: /^its imports differ \(.+\)$/,
    cause: WebAssembly.LinkError,
  },
  'a module importing from a module the glue does not have (env.f)': {
    bytes: [...HEADER, ...TYPE_VOID, ...importOf('env', 'f'), ...TABLE, ...MEMORY, ...EXPORT_MT],
    reason: /^instantiating it failed \(.+\)$/,
    cause: TypeError,
  },
  'a module exporting a memory and a table under other names': {
    bytes: [...HEADER, ...TABLE, ...MEMORY, ...EXPORT_MT],
    reason: 'its start-up failed',
  },
};

describe('init.wasmBinary: a WebAssembly module, but not this package\'s', () => {
  for (const [what, { bytes, reason, cause }] of Object.entries(NOT_OURS))
    for (const [flavour, simd] of Object.entries(FLAVOURS))
      test(`${flavour}: ${what}: refused, saying why and what to pass`, async () => {
        assert.ok(WebAssembly.validate(new Uint8Array(bytes)), 'the test module is valid');
        let error;
        try {
          await sinpe({ simd, wasmBinary: new Uint8Array(bytes) });
        } catch (e) {
          error = e;
        }
        assert.ok(error instanceof Error && !(error instanceof TypeError), `${what}: ${error}`);
        const prefix = `sinpe: init.wasmBinary is a WebAssembly module but not ${fileOf(flavour)} of this package: `;
        assert.ok(error.message.startsWith(prefix), error.message);
        const hint = `; pass the bytes of ${fileOf(flavour)} from this package ('sinpe.wasm/${fileOf(flavour)}')${simd ? ', or those of sinpe-baseline.wasm with init.simd: false' : ''}`;
        assert.ok(error.message.endsWith(hint), error.message);
        const said = error.message.slice(prefix.length, -hint.length);
        if (typeof reason === 'string') assert.equal(said, reason);
        else assert.match(said, reason);
        if (cause) {
          assert.ok(error.cause instanceof cause, `cause: ${error.cause?.constructor?.name}`);
          assert.ok(said.includes(error.cause.message), said);
        }
        probe(await sinpe({ simd }), `${what}: loading afterwards`);
      });
});

// The package's own module with one string of its data changed: the version
// (stored once, NUL-terminated) and the name Embind registers `_version` under.
// Such a module starts up, so only the version check can refuse it.
function patched(flavour, from, to) {
  const bytes = new Uint8Array(readFileSync(realPath(flavour)));
  const a = Buffer.from(`\0${from}\0`);
  const at = Buffer.from(bytes.buffer).indexOf(a);
  assert.ok(at > 0 && Buffer.from(bytes.buffer).indexOf(a, at + 1) < 0, `"${from}" occurs once in ${fileOf(flavour)}`);
  assert.equal(to.length, from.length);
  bytes.set(Buffer.from(to), at + 1);
  return bytes;
}

describe('init.wasmBinary: the package\'s module from another version, or without its functions', () => {
  const { version } = require('sinpe.wasm/package.json');
  const other = version.replace(/\d/g, (d) => String((Number(d) + 1) % 10)); // same length, every digit changed
  for (const [flavour, simd] of Object.entries(FLAVOURS)) {
    const prefix = `sinpe: init.wasmBinary is a WebAssembly module but not ${fileOf(flavour)} of this package: `;
    test(`${flavour}: another version: refused, naming both versions`, async () => {
      await assert.rejects(sinpe({ simd, wasmBinary: patched(flavour, version, other) }), (e) => {
        assert.ok(e.message.startsWith(`${prefix}it is sinpe ${other}, this JavaScript is sinpe ${version}; pass the bytes of ${fileOf(flavour)}`), e.message);
        return true;
      });
      probe(await sinpe({ simd }), 'loading afterwards');
    });
    test(`${flavour}: no _version function registered: refused`, async () => {
      await assert.rejects(sinpe({ simd, wasmBinary: patched(flavour, '_version', '_versioX') }), (e) => {
        assert.ok(e.message.startsWith(`${prefix}it registers no sinpe functions; `), e.message);
        return true;
      });
      probe(await sinpe({ simd }), 'loading afterwards');
    });
    test(`${flavour}: the unchanged bytes load (the patching above changes only what it says)`, async () => {
      const pe = await sinpe({ simd, wasmBinary: patched(flavour, version, version) });
      probe(pe, 'unchanged bytes');
    });
  }
});

describe('a copy of the package missing some of its files', () => {
  test('without one flavour\'s glue or .wasm, that flavour rejects with an Error naming the file, the engine\'s error as cause; the other loads', async () => {
    const { cpSync, mkdtempSync, rmSync, unlinkSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { dirname, join } = await import('node:path');
    const root = dirname(require.resolve('sinpe.wasm/package.json'));
    const copy = mkdtempSync(join(tmpdir(), 'sinpe-load-'));
    try {
      for (const part of ['package.json', 'js', 'dist']) cpSync(join(root, part), join(copy, part), { recursive: true });
      unlinkSync(join(copy, 'dist', 'sinpe-baseline.mjs'));
      const { default: copied } = await import(pathToFileURL(join(copy, 'js', 'sinpe.js')).href);
      await assert.rejects(copied({ simd: false }), (e) => {
        assert.ok(e.message.startsWith('sinpe: could not load the JavaScript of sinpe-baseline.wasm ('), e.message);
        assert.ok(e.cause instanceof Error && e.message.includes(e.cause.message), `cause: ${e.cause}`);
        return true;
      });
      probe(await copied({ simd: true }), 'the copy\'s SIMD flavour');
      const wasm = join(copy, 'dist', 'sinpe-simd.wasm');
      unlinkSync(wasm);
      await assert.rejects(copied({ simd: true }), (e) => {
        const url = pathToFileURL(wasm).href;
        assert.ok(e.message.startsWith(`sinpe: could not read the file at ${url} (`), e.message);
        assert.ok(e.message.endsWith('); pass init.locateFile or init.wasmBinary'), e.message);
        assert.equal(e.cause?.code, 'ENOENT', `cause: ${e.cause}`);
        return true;
      });
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});

describe('init options of the wrong kind (README: { simd, wasmBinary, locateFile })', () => {
  test('an init that is no object, an unknown option, a simd that is not \'auto\' or a boolean, a locateFile that is not a function: TypeErrors naming them', async () => {
    const cases = [
      [{ simd: true, wasmBinarry: new Uint8Array(8) }, 'sinpe: unknown init option "wasmBinarry"; known: simd, wasmBinary, locateFile'],
      [{ simd: 'yes' }, 'sinpe: init.simd must be \'auto\', true or false, got "yes"'],
      [{ simd: true, locateFile: '/assets/' }, 'sinpe: init.locateFile must be a function, got "/assets/"'],
      // init itself, when it is no object: named as init
      [42, 'sinpe: init must be an object, got 42'],
      ['simd', 'sinpe: init must be an object, got "simd"'],
    ];
    for (const [init, message] of cases)
      await assert.rejects(sinpe(init), (e) => {
        assert.ok(e instanceof TypeError, `${message}: ${e}`);
        assert.equal(e.message, message);
        return true;
      });
    probe(await sinpe({ simd: true }), 'loading afterwards');
  });
});
