// lib/sliced.js and lib/after-paint.js on a simulated page: frames are run by
// hand (their requestAnimationFrame callbacks, then the paint), time is a
// clock the jobs' steps advance. What is checked: no slice runs before the
// paint of the frame that shows a step; the slices of every job together
// take one budget between two frames (oldest job first); a new job drops the
// unfinished one; a render that waits for a frame (frameCallback) asks for no
// second frame to schedule its slices; afterPaint's cancel, before the
// frame or between the frame and its task, keeps the work from running.
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as turn } from 'node:timers/promises';

// the page's clock, frames and paint
let now = 0;
performance.now = () => now;
let frames = []; // requestAnimationFrame callbacks waiting for the next frame
let log = []; // what happened, in order
globalThis.requestAnimationFrame = (fn) => frames.push(fn);
globalThis.cancelAnimationFrame = (id) => (frames[id - 1] = () => log.push('cancelled frame callback'));
// a message is a task of its own, delivered in posting order (Node's own MessageChannel would keep the process alive)
globalThis.MessageChannel = class {
  port1 = { onmessage: null };
  port2 = { postMessage: () => setImmediate(() => this.port1.onmessage({ data: 0 })) };
};

const { createSlicedWork } = await import('../../web/src/lib/sliced.js');
const { afterPaint, frameCallback } = await import('../../web/src/lib/after-paint.js');

/** One frame: its callbacks, its paint, then the tasks posted until the page is idle. */
async function frame() {
  const callbacks = frames;
  frames = [];
  const time = now;
  log.push('frame');
  for (const fn of callbacks) fn(time);
  log.push('paint');
  for (let i = 0; i < 5; i++) await turn(); // the messages posted, each in a later turn
}

/** A job of `count` steps of `ms` each, logged as name:index. */
function job(name, count, ms) {
  let i = 0;
  return [
    () => {
      log.push(`${name}:${i}`);
      now += ms;
      return ++i === count;
    },
    () => log.push(`${name} done`),
  ];
}

const BUDGET = 8;

beforeEach(() => {
  frames = [];
  log = [];
});

test('sliced: no slice runs before the paint of the frame after the step; the jobs together take one budget between two frames', async () => {
  const a = createSlicedWork({ eager: false });
  const b = createSlicedWork({ eager: false });
  a.start(...job('a', 4, 3));
  b.start(...job('b', 2, 3));
  assert.deepEqual(log, [], 'nothing runs inside the step');
  await frame();
  // after the paint: a's steps until the budget is spent (3 + 3 + 3 ≥ 8), none of b's
  assert.deepEqual(log, ['frame', 'paint', 'a:0', 'a:1', 'a:2']);
  const spent = (from) => log.slice(from).filter((x) => /^[ab]:/.test(x)).length * 3;
  assert.ok(spent(0) <= BUDGET + 3, 'one budget (and the step that crossed it) between two frames');
  log = [];
  await frame();
  // a finishes first (oldest job first), then b takes what is left of the same budget
  assert.deepEqual(log, ['frame', 'paint', 'a:3', 'a done', 'b:0', 'b:1', 'b done']);
  assert.equal(a.running || b.running, false);
  log = [];
  await frame();
  assert.deepEqual(log, ['frame', 'paint'], 'nothing is left to run');
});

test('sliced: an eager job runs its first budget inside start; one that fits finishes there', async () => {
  const w = createSlicedWork({ busy: [] });
  w.start(...job('e', 2, 3));
  assert.deepEqual(log, ['e:0', 'e:1', 'e done']);
  assert.equal(w.running, false);
  log = [];
  w.start(...job('f', 5, 3));
  assert.deepEqual(log, ['f:0', 'f:1', 'f:2'], 'the eager part stops at the budget');
  assert.equal(w.running, true);
  await frame();
  assert.deepEqual(log.slice(3), ['frame', 'paint', 'f:3', 'f:4', 'f done']);
});

test('sliced: starting a job drops the unfinished one; busy elements are marked while a job runs', async () => {
  const marks = [];
  const el = { setAttribute: (k, v) => marks.push(`${k}=${v}`), removeAttribute: (k) => marks.push(`-${k}`) };
  const w = createSlicedWork({ busy: [el], eager: false });
  w.start(...job('old', 10, 3));
  await frame();
  assert.deepEqual(log, ['frame', 'paint', 'old:0', 'old:1', 'old:2']);
  log = [];
  w.start(...job('new', 2, 3));
  await frame();
  assert.deepEqual(log, ['frame', 'paint', 'new:0', 'new:1', 'new done'], "the old job's steps never run again");
  assert.deepEqual(marks, ['aria-busy=true', 'aria-busy=true', '-aria-busy']);
  log = [];
  w.start(...job('cancelled', 3, 3));
  w.cancel();
  await frame();
  assert.deepEqual(log, ['frame', 'paint']);
  assert.equal(marks.at(-1), '-aria-busy');
});

test('after-paint: a job started in a frame callback runs after that frame, asking for no second frame', async () => {
  const w = createSlicedWork({ eager: false });
  frameCallback(() => {
    log.push('render');
    w.start(...job('late', 1, 1));
  });
  await frame();
  assert.deepEqual(log, ['frame', 'render', 'paint', 'late:0', 'late done']);
  assert.equal(frames.length, 0, 'no animation frame was asked for');
});

test('after-paint: afterPaint runs after the paint; cancelled before the frame or before its task, it does not run', async () => {
  afterPaint(() => log.push('a'));
  afterPaint(() => log.push('b'))(); // cancelled before the frame
  await frame();
  assert.deepEqual(log, ['frame', 'cancelled frame callback', 'paint', 'a']);
  log = [];
  const cancel = afterPaint(() => log.push('c'));
  frameCallback(() => {
    log.push('render');
    cancel(); // its task is posted (its frame callback ran first), not yet run
  });
  afterPaint(() => log.push('d'));
  await frame();
  assert.deepEqual(log, ['frame', 'render', 'paint', 'd']);
});
