// Shared helpers of the browser tests: one headless Debian Chromium per test
// file, console/CSP error collection, waits on the page's state (never fixed
// delays), colour expectations computed from the d3 colormaps independently
// of the site's code, the drawn geometry of the dials, colour contrast.
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { coloursFor } from '../web/colormaps.mjs';
import { toHash } from '../../web/src/state.js';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const screenshotDir = join(root, 'build', 'screenshots');
// The site under test: run.sh serves it and passes its URL (there is no default port).
export function siteUrl() {
  const SITE = process.env.SITE_URL;
  if (!SITE) throw new Error('SITE_URL is not set: run the browser tests with bash tests/browser/run.sh [files]');
  return SITE;
}

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Launches Chromium with a fresh profile directory (env: its environment, if not this process's); returns { context, close }. */
export async function launch({ viewport = { width: 1280, height: 900 }, colorScheme = 'light', locale = 'en-US', env = undefined } = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'sinpe-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    headless: true,
    viewport,
    colorScheme,
    locale,
    acceptDownloads: true,
    ...(env ? { env } : {}),
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
  await page.goto(siteUrl() + hash);
  await page.waitForSelector('html[data-ready="true"]');
  await settle(page);
  return page;
}

/**
 * Waits until pending renders are done: the site draws in requestAnimationFrame,
 * so two frames later it has drawn; a figure computed across frames
 * (web/src/lib/sliced.js) is aria-busy until it shows the current state.
 */
export async function settle(page) {
  // a web font arriving late moves text (and what a click aims at): wait for the faces the page asked for
  await page.evaluate(() => document.fonts.ready.then(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))));
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'), null, { timeout: 60000, polling: 'raf' });
}

/**
 * Waits until the debounced URL hash write has happened: the hash the page
 * holds is the one its current state serialises to (state.js's toHash), and
 * returns it. No fixed delay: the wait ends when the write is seen.
 */
export async function hashSettled(page) {
  const expected = toHash(await page.evaluate(() => window.sinpeSite.state));
  await page.waitForFunction((h) => decodeURIComponent(location.hash) === decodeURIComponent(h), expected, { timeout: 10000 });
  return page.evaluate(() => location.hash);
}

/** Whether a text is written in Chinese (Han characters) or in English (Latin letters, no Han). */
export const HAN = /[\u4e00-\u9fff]/;
export function assertLanguage(text, lang, what) {
  if (lang === 'zh') assert.match(text, HAN, `${what}: Chinese text expected, got "${text}"`);
  else {
    assert.doesNotMatch(text, HAN, `${what}: English text expected, got "${text}"`);
    assert.match(text, /[A-Za-z]{2}/, `${what}: English text expected, got "${text}"`);
  }
}

/** [r, g, b, alpha] of a CSS rgb()/rgba() colour. */
export function cssColor(css) {
  const m = css.match(/[\d.]+/g).map(Number);
  return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1];
}

/** WCAG 2 relative luminance of an sRGB colour [r, g, b] (0–255). */
export function luminance([r, g, b]) {
  const f = (v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
}

/** WCAG 2 contrast ratio of two sRGB colours. */
export function contrast(a, b) {
  const [la, lb] = [luminance(a), luminance(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/**
 * The colours a page is drawn with: the canvas background (the body's, or
 * the root's when the body's is transparent), the body text colour, and the
 * text colour of every visible element of `selector` that holds text, with
 * the first opaque background behind it.
 */
export function pageColors(page, selector) {
  return page.evaluate((selector) => {
    const parse = (c) => {
      const m = c.match(/[\d.]+/g).map(Number);
      return { rgb: m.slice(0, 3), a: m.length > 3 ? m[3] : 1 };
    };
    const backgroundOf = (el) => {
      for (let e = el; e; e = e.parentElement) {
        const bg = parse(getComputedStyle(e).backgroundColor);
        if (bg.a > 0.5) return bg.rgb;
      }
      return null; // the browser's default canvas
    };
    const texts = [...document.querySelectorAll(selector)]
      .filter((el) => el.checkVisibility() && [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()))
      .map((el) => ({ what: `${el.tagName.toLowerCase()}.${el.className}: ${el.textContent.trim().slice(0, 40)}`, fg: parse(getComputedStyle(el).color).rgb, bg: backgroundOf(el) }));
    return { background: backgroundOf(document.body), text: parse(getComputedStyle(document.body).color).rgb, texts };
  }, selector);
}

/**
 * The hands of the dials under `selector` as drawn: for each dial, the end
 * points of its hand and of its ghost (the unrotated vector) and the centres
 * of its trail dots, in screen geometry (each element's getScreenCTM), as
 * [x, y] relative to the centre of the dial's face in units of the face's
 * drawn radius, y up. Nothing is read from data attributes.
 */
export function drawnDials(page, selector) {
  return page.$$eval(`${selector} .dial`, (dials) =>
    dials.map((dial) => {
      const screen = (el, x, y) => {
        const p = new DOMPoint(x, y).matrixTransform(el.getScreenCTM());
        return [p.x, p.y];
      };
      const face = dial.querySelector('.dial-face');
      const [cx, cy] = [face.cx.baseVal.value, face.cy.baseVal.value];
      const centre = screen(face, cx, cy);
      const rim = screen(face, cx + face.r.baseVal.value, cy);
      const radius = Math.hypot(rim[0] - centre[0], rim[1] - centre[1]);
      const rel = ([x, y]) => [(x - centre[0]) / radius, -(y - centre[1]) / radius];
      const line = (el) =>
        el && {
          from: rel(screen(el, el.x1.baseVal.value, el.y1.baseVal.value)),
          to: rel(screen(el, el.x2.baseVal.value, el.y2.baseVal.value)),
          visible: el.checkVisibility({ visibilityProperty: true }),
        };
      return {
        key: Number(dial.dataset.key),
        radius,
        hand: line(dial.querySelector('.dial-hand')),
        ghost: line(dial.querySelector('.dial-ghost')),
        trail: [...dial.querySelectorAll('.dial-trail circle')].map((c) => rel(screen(c, c.cx.baseVal.value, c.cy.baseVal.value))),
      };
    }),
  );
}

/** The angle of [x, y] minus `angle`, wrapped into (−π, π]. */
export function angleOff([x, y], angle) {
  const d = (((Math.atan2(y, x) - angle) % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
  return d > Math.PI ? d - 2 * Math.PI : d;
}

/**
 * The colour [r, g, b] a value should get: colormap entry
 * round((v − vmin)/(vmax − vmin)·255), from d3's interpolators as
 * tests/web/colormaps.mjs builds them (not from the site's tables).
 */
export function expectedColor(cmap, value, vmin = -1, vmax = 1) {
  return coloursFor(cmap, value, vmin, vmax)[0];
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
 * work may rebuild build/site meanwhile) with the site's CSP on a loopback
 * port bound once (serve.mjs). Returns { url, close() }.
 */
export async function serveBuiltSite() {
  const { execFileSync } = await import('node:child_process');
  const { cpSync } = await import('node:fs');
  const { serveFolder } = await import('./serve.mjs');
  execFileSync('bash', ['scripts/build-site.sh'], { cwd: root, stdio: 'inherit' });
  const served = mkdtempSync(join(tmpdir(), 'sinpe-site-'));
  cpSync(join(root, 'build', 'site'), served, { recursive: true });
  const server = await serveFolder(served);
  return {
    url: server.url,
    async close() {
      await server.close();
      rmSync(served, { recursive: true, force: true });
    },
  };
}
