// A static server for the built lesson site, for the browser tests and the
// site benchmarks: serves one folder on 127.0.0.1 with the site's
// Content-Security-Policy header (the policy web/vite.config.js gives
// `vite preview`). It listens on port 0, so the port is chosen by the system
// when it binds and is never released and re-bound; the URL it reports is the
// one it holds.
//
// CLI: `node tests/browser/serve.mjs <folder>` prints the URL as its one line
// of standard output and serves until it is stopped (tests/browser/run.sh
// reads that line).
import { createServer } from 'node:http';
import { createReadStream, statSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contentSecurityPolicy } from '../../web/vite.config.js';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  // application/wasm: WebAssembly.instantiateStreaming refuses any other type
  '.wasm': 'application/wasm',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.txt': 'text/plain; charset=utf-8',
};

/** Serves `folder`; resolves to { url, close() } once the port is bound. */
export function serveFolder(folder) {
  const rootDir = resolve(folder);
  const server = createServer((request, response) => {
    const headers = { 'Content-Security-Policy': contentSecurityPolicy, 'Cache-Control': 'no-store' };
    let path;
    try {
      path = decodeURIComponent(new URL(request.url, 'http://x').pathname);
    } catch {
      response.writeHead(400, headers).end();
      return;
    }
    if (path.endsWith('/')) path += 'index.html';
    const file = resolve(join(rootDir, path));
    let stat = null;
    if (file.startsWith(rootDir + sep)) {
      try {
        stat = statSync(file);
      } catch {
        stat = null;
      }
    }
    if (!stat?.isFile() || !['GET', 'HEAD'].includes(request.method)) {
      response.writeHead(stat ? 405 : 404, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' }).end(stat ? 'method not allowed' : 'not found');
      return;
    }
    response.writeHead(200, { ...headers, 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', 'Content-Length': stat.size });
    if (request.method === 'HEAD') response.end();
    else createReadStream(file).pipe(response);
  });
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolvePromise({
        url: `http://127.0.0.1:${port}/`,
        close: () =>
          new Promise((r) => {
            server.close(r);
            server.closeAllConnections(); // idle keep-alive connections of a browser
          }),
      });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const folder = process.argv[2];
  if (!folder) {
    console.error('usage: node tests/browser/serve.mjs <folder>');
    process.exit(2);
  }
  const { url } = await serveFolder(folder);
  process.stdout.write(`${url}\n`);
  for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => process.exit(0));
}
