// A static server on 127.0.0.1 for a built app, with the strict policy a
// careful app would ship: WebAssembly needs 'wasm-unsafe-eval'; nothing needs
// 'unsafe-eval' or inline scripts. Records every request, so the runner can
// tell which .wasm files a page fetched, and every 404.
import { createServer } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';

export const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'";

const TYPES = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.wasm': 'application/wasm',
  '.css': 'text/css',
};

/** Serves `dir`; returns { url, requests: [{ path, status, file }], close }. */
export async function serve(dir) {
  const requests = [];
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    const file = join(dir, path.endsWith('/') ? `${path}index.html` : path);
    if (path === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    if (!file.startsWith(dir) || !existsSync(file) || !statSync(file).isFile()) {
      requests.push({ path, status: 404 });
      res.writeHead(404).end();
      return;
    }
    requests.push({ path, status: 200, file });
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'content-security-policy': CSP });
    res.end(readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    requests,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
