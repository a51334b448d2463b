// Chromium runner: serves the repository on 127.0.0.1 (a tiny static server,
// with COOP/COEP headers so the page is cross-origin isolated and
// performance.now() has its fine resolution), opens tests/bench/page.html in
// headless Chromium via playwright-core, runs every case of cases.mjs in that
// one page (both flavours loaded there) and prints the result as JSON on stdout.
//   node tests/bench/browser.mjs [--quick] [--quiet]     (CHROMIUM=/path overrides /usr/bin/chromium)
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = fileURLToPath(new URL('../../', import.meta.url));
const quick = process.argv.includes('--quick');
const quiet = process.argv.includes('--quiet');
const log = quiet ? () => {} : (m) => process.stderr.write(`[chromium] ${m}\n`);

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
};

export function serve(dir) {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://127.0.0.1').pathname);
    const file = normalize(join(dir, path));
    const headers = {
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Embedder-Policy': 'require-corp',
      'Cache-Control': 'no-store',
    };
    try {
      if (!(file + sep).startsWith(dir.endsWith(sep) ? dir : dir + sep) || !(await stat(file)).isFile()) throw 0;
      res.writeHead(200, { ...headers, 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
      createReadStream(file).pipe(res);
    } catch {
      res.writeHead(404, headers).end('not found');
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const server = await serve(root);
const { port } = server.address();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
});
try {
  const page = await browser.newPage();
  page.on('console', (msg) => log(msg.text()));
  page.on('pageerror', (e) => log(`page error: ${e.message}`));
  await page.goto(`http://127.0.0.1:${port}/tests/bench/page.html${quick ? '?quick' : ''}`);
  await page.waitForFunction(() => window.sinpeBenchReady === true, null, { timeout: 30000 });
  const result = await page.evaluate(() => window.runSinpeBench());
  result.runtime = `Chromium ${browser.version()}`;
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  await browser.close();
  server.close();
}
