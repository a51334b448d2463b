// A static server on 127.0.0.1 for a built app, with the strict policy a
// careful app would ship: WebAssembly needs 'wasm-unsafe-eval'; nothing needs
// 'unsafe-eval' or inline scripts. Records every request, so the runner can
// tell which .wasm files a page fetched, and every 404. Optionally serves
// another policy (the lesson site's) and a probe script loaded first by every
// page, for drivers that cannot listen to the page's console (WebDriver
// classic: tests/browser/webkit.mjs).
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
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
};

// Where the probe is served: a path no build emits.
export const PROBE_PATH = '/__sinpe-probe.js';

/**
 * Serves `dir` under `csp`; with `probe` (a script's source), every HTML page
 * loads it first, as a classic script from PROBE_PATH. Binds a port the
 * system picks, once. Returns { url, requests: [{ path, status, file }], close }.
 */
export async function serve(dir, { csp = CSP, probe = null } = {}) {
  const requests = [];
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    const file = join(dir, path.endsWith('/') ? `${path}index.html` : path);
    if (probe && path === PROBE_PATH) {
      res.writeHead(200, { 'content-type': 'text/javascript', 'content-security-policy': csp });
      res.end(probe);
      return;
    }
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
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    let body = readFileSync(file);
    if (probe && type === 'text/html') {
      // first in <head>: a classic script runs before the page's module scripts
      const html = body.toString('utf8');
      const at = html.indexOf('<head>') + '<head>'.length;
      body = at < '<head>'.length ? html : `${html.slice(0, at)}<script src="${PROBE_PATH}"></script>${html.slice(at)}`;
    }
    res.writeHead(200, { 'content-type': type, 'content-security-policy': csp });
    res.end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    requests,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
