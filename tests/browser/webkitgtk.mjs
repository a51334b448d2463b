// WebKitGTK, the engine of Safari and of every iOS browser in its Linux port,
// driven over classic W3C WebDriver: Debian's WebKitWebDriver
// (webkit2gtk-driver) starts its MiniBrowser in automation mode on a virtual X
// display (Xvfb). selenium-webdriver is only the HTTP client here: it connects
// to the driver started below and never looks for or downloads a driver.
// Both servers pick their own free display / port when they start, and this
// file reads back what they chose, so nothing is reserved and then released.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { Capabilities, WebDriver } from 'selenium-webdriver';
import { Executor, HttpClient } from 'selenium-webdriver/http/index.js';

export const XVFB = process.env.XVFB ?? 'Xvfb';
export const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER ?? 'WebKitWebDriver';
const START_TIMEOUT = 20000;

/** Spawns a server; rejects with a message naming the package when the binary is missing. */
function start(command, args, options, debianPackage) {
  const child = spawn(command, args, options);
  const stderr = [];
  child.stderr?.on('data', (b) => stderr.push(b));
  child.output = () => Buffer.concat(stderr).toString('utf8').trim();
  child.failed = new Promise((_, reject) => {
    child.on('error', (e) => reject(new Error(`${command}: ${e.code === 'ENOENT' ? `not installed (Debian package ${debianPackage}; scripts/setup.sh installs it)` : e.message}`)));
    child.on('exit', (code, signal) => reject(new Error(`${command} exited (${signal ?? code}) before it was ready: ${child.output()}`)));
  });
  child.failed.catch(() => {});
  return child;
}

function timeout(what) {
  return new Promise((_, reject) => setTimeout(() => reject(new Error(`${what}: not ready after ${START_TIMEOUT / 1000} s`)), START_TIMEOUT).unref());
}

/** Xvfb on the first free display: -displayfd makes it write the display number it took to fd 3. */
async function startXvfb() {
  const xvfb = start(XVFB, ['-displayfd', '3', '-nolisten', 'tcp', '-noreset', '-screen', '0', '1280x1024x24'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] }, 'xvfb');
  const display = await Promise.race([
    new Promise((resolve) => {
      let text = '';
      xvfb.stdio[3].on('data', (b) => {
        text += b;
        if (text.includes('\n')) resolve(`:${text.trim()}`);
      });
    }),
    xvfb.failed,
    timeout('Xvfb'),
  ]);
  return { xvfb, display };
}

/** The TCP port a process listens on: its socket inodes matched against /proc/net/tcp's LISTEN rows. */
function listeningPort(pid) {
  const inodes = new Set();
  let fds;
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return null; // exited: its own 'exit' reports why
  }
  for (const fd of fds) {
    try {
      const m = readlinkSync(`/proc/${pid}/fd/${fd}`).match(/^socket:\[(\d+)\]$/);
      if (m) inodes.add(m[1]);
    } catch {
      // closed meanwhile
    }
  }
  for (const row of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const cols = row.trim().split(/\s+/);
    // local_address is ADDR:PORT in hex; state 0A is LISTEN; column 9 is the inode
    if (cols.length > 9 && cols[3] === '0A' && inodes.has(cols[9])) return parseInt(cols[1].split(':')[1], 16);
  }
  return null;
}

/** WebKitWebDriver on a port the system picks (--port=0), on loopback only. */
async function startDriver(display) {
  const driver = start(WEBKIT_DRIVER, ['--port=0', '--host=local'], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, DISPLAY: display, GDK_BACKEND: 'x11' } }, 'webkit2gtk-driver');
  const state = { waiting: true };
  const port = await Promise.race([
    (async () => {
      while (state.waiting) {
        const port = driver.pid && driver.exitCode === null && listeningPort(driver.pid);
        if (port) return port;
        await new Promise((r) => setTimeout(r, 25));
      }
    })(),
    driver.failed,
    timeout('WebKitWebDriver'),
  ]).finally(() => (state.waiting = false));
  return { driver, port };
}

function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill();
  });
}

/**
 * Starts Xvfb, WebKitWebDriver and one MiniBrowser session.
 * Returns { driver (a selenium-webdriver WebDriver), version, close() }.
 * Throws (never skips) when Xvfb or the driver is missing or does not start.
 */
export async function launchWebKit() {
  const { xvfb, display } = await startXvfb();
  let server;
  try {
    server = await startDriver(display);
    // MiniBrowser with its default arguments (--automation); webkitgtk:browserOptions could name another browser.
    const driver = await WebDriver.createSession(new Executor(new HttpClient(`http://127.0.0.1:${server.port}`)), new Capabilities());
    const caps = await driver.getCapabilities();
    return {
      driver,
      version: `${caps.getBrowserName()} ${caps.getBrowserVersion()}`,
      async close() {
        await driver.quit().catch(() => {});
        await stop(server.driver);
        await stop(xvfb);
      },
    };
  } catch (e) {
    if (server) await stop(server.driver);
    await stop(xvfb);
    throw e;
  }
}
