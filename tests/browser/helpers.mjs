// Shared helpers of the browser tests: one headless Debian Chromium per test
// file, console/CSP error collection, and colour expectations computed from
// the d3 colormaps independently of the site's code.
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { rgb } from 'd3-color';
import { interpolateRdBu, interpolatePuOr, interpolateViridis, interpolateCividis, interpolateBlues } from 'd3-scale-chromatic';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const screenshotDir = join(root, 'build', 'screenshots');
export const SITE = process.env.SITE_URL ?? 'http://127.0.0.1:4173/';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Launches Chromium with a fresh profile directory; returns { context, close }. */
export async function launch({ viewport = { width: 1280, height: 900 }, colorScheme = 'light', locale = 'en-US' } = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'sinpe-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    headless: true,
    viewport,
    colorScheme,
    locale,
    acceptDownloads: true,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export const FIREFOX = process.env.FIREFOX ?? '/usr/bin/firefox-esr';

/**
 * Launches Debian's Firefox ESR headless, driven by puppeteer-core over
 * WebDriver BiDi (puppeteer's protocol for Firefox; it makes and removes its
 * own profile). Returns { browser, version, close }; pages use puppeteer's API.
 */
export async function launchFirefox() {
  const browser = await puppeteer.launch({ browser: 'firefox', protocol: 'webDriverBiDi', executablePath: FIREFOX, headless: true });
  return { browser, version: await browser.version(), close: () => browser.close() };
}

/**
 * Opens a page and records console errors, page errors, failed requests and
 * CSP violations in page.problems.
 */
export async function openPage(context, hash = '') {
  const page = await context.newPage();
  page.problems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') page.problems.push(`console ${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => page.problems.push(`page error: ${err.message}`));
  page.on('requestfailed', (req) => page.problems.push(`request failed: ${req.url()}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  await page.goto(SITE + hash);
  await page.waitForSelector('html[data-ready="true"]');
  await settle(page);
  return page;
}

/** Waits until pending renders (requestAnimationFrame) are done. */
export async function settle(page) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 30)))));
}

/** Waits for the debounced URL hash write. */
export async function hashSettled(page) {
  await page.waitForTimeout(300);
  return page.evaluate(() => location.hash);
}

const INTERPOLATORS = {
  rdbu: (t) => interpolateRdBu(1 - t),
  puor: (t) => interpolatePuOr(1 - t),
  viridis: interpolateViridis,
  cividis: interpolateCividis,
  blues: interpolateBlues,
};

/** The colour [r, g, b] a value should get: LUT entry round((v - vmin)/(vmax - vmin)·255). */
export function expectedColor(cmap, value, vmin = -1, vmax = 1) {
  const index = Math.min(255, Math.max(0, Math.round(((value - vmin) / (vmax - vmin)) * 255)));
  const c = rgb(INTERPOLATORS[cmap](index / 255));
  return [Math.round(c.r), Math.round(c.g), Math.round(c.b)];
}

/** The [r, g, b] of canvas pixel (x, y) (canvas pixels are cells). */
export function canvasPixel(page, selector, x, y) {
  return page.evaluate(
    ({ selector, x, y }) => {
      // read through a scratch canvas so the page's own canvas is never read back
      const canvas = document.querySelector(selector);
      const scratch = document.createElement('canvas');
      scratch.width = 1;
      scratch.height = 1;
      const ctx = scratch.getContext('2d', { willReadFrequently: true });
      ctx.drawImage(canvas, x, y, 1, 1, 0, 0, 1, 1);
      const data = ctx.getImageData(0, 0, 1, 1).data;
      return [data[0], data[1], data[2]];
    },
    { selector, x, y },
  );
}

/** Asserts a pixel colour within ±tolerance per channel. */
export function closeColor(actual, expected, tolerance = 2) {
  return actual.every((c, i) => Math.abs(c - expected[i]) <= tolerance);
}

/** Moves the mouse to the centre of cell (col, row) of a heatmap canvas. */
export async function hoverCell(page, selector, col, row) {
  const box = await page.evaluate((selector) => {
    const c = document.querySelector(selector);
    c.scrollIntoView({ block: 'center' });
    const r = c.getBoundingClientRect();
    return { x: r.left, y: r.top, w: r.width, h: r.height, cols: c.width, rows: c.height };
  }, selector);
  await page.mouse.move(box.x + ((col + 0.5) * box.w) / box.cols, box.y + ((row + 0.5) * box.h) / box.rows);
  await settle(page);
}

export async function screenshot(page, name) {
  mkdirSync(screenshotDir, { recursive: true });
  await page.evaluate(() => document.fonts.ready);
  // sections out of view are rendered only when scrolled to (content-visibility: auto): render them all
  await page.evaluate(() => {
    for (const section of document.querySelectorAll('.lesson-section')) section.style.contentVisibility = 'visible';
    return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  });
  await page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: true });
}

/** Numbers in a text (with − as minus). */
export function numbersIn(text) {
  // the site groups integers from 10,000 on with commas (1,048,576 is one number)
  const ungrouped = text.replace(/−/g, '-').replace(/(?<![\d.,])\d{1,3}(?:,\d{3})+(?!\d|,\d)/g, (m) => m.replace(/,/g, ''));
  return (ungrouped.match(/-?\d+(\.\d+)?(e-?\d+)?/gi) ?? []).map(Number);
}

/**
 * Builds the site if needed and serves a private copy of build/site (other
 * work may rebuild build/site meanwhile) with Vite's preview server and the
 * site's CSP, on a free loopback port. Returns { url, close() }.
 */
export async function serveBuiltSite() {
  const { execFileSync, spawn } = await import('node:child_process');
  const { cpSync } = await import('node:fs');
  const { createServer } = await import('node:net');
  execFileSync('bash', ['scripts/build-site.sh'], { cwd: root, stdio: 'inherit' });
  const served = mkdtempSync(join(tmpdir(), 'sinpe-site-'));
  cpSync(join(root, 'build', 'site'), served, { recursive: true });
  const port = await new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
  const args = ['node_modules/vite/bin/vite.js', 'preview', '--config', 'web/vite.config.js', '--outDir', served, '--host', '127.0.0.1', '--strictPort', '--port', String(port)];
  const server = spawn(process.execPath, args, { cwd: root, stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 100; i++) {
    try {
      await fetch(url);
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    url,
    close() {
      server.kill();
      rmSync(served, { recursive: true, force: true });
    },
  };
}
