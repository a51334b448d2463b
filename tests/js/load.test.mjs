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
