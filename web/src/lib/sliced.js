// Work too long for one frame, done in slices across frames, so that a
// slider step repaints at once and the page keeps its frame rate while a
// figure's numbers are computed. One job at a time per worker: starting a job
// drops the unfinished one, whose remaining slices never run (a stale result
// can never be shown over a newer state's). While a job runs, `busy` (the
// figure's box) carries aria-busy="true": assistive technology waits for the
// new numbers, the page dims the old ones, and tests and the site benchmark
// wait until no part of the page is busy.
//
// Continuous input (a slider dragged, a key held) computes only its latest
// value: a job may say when it has gone stale (stale(): the state it computes
// for is no longer the page's), and is then abandoned at its next slice,
// before the render of the newer value starts that one's job; a job started
// while an unfinished one was under way (the input goes on) runs no slice in
// the render that starts it, so a render that a newer input will supersede
// spends nothing on it. Such a job can show what it has so far (progress(),
// at once when it starts without a slice and after each frame's slices that
// did not finish it): a figure that fills in as it is computed answers each
// step of a drag in the frame that shows it, not after its whole computation.
//
// The slices of every worker on the page run in one task after a frame's
// paint (lib/after-paint.js), at most one budget's time in all, oldest job
// first: several figures computed across frames (the rope lesson's late
// sections, its precision and half-precision charts) take one budget between
// two frames, not one each, and the frame that shows a step paints before any.
import { afterPaint } from './after-paint.js';

const BUDGET_MS = 8; // of slices between two frames, every worker's together
const waiting = new Set(); // the workers with a job, in the order their jobs started
let posted = false; // a task of slices is scheduled

function slices() {
  posted = false;
  const t0 = performance.now();
  for (const worker of waiting) {
    const left = BUDGET_MS - (performance.now() - t0);
    if (left <= 0) break;
    worker.slice(left);
  }
  schedule();
}

function schedule() {
  if (posted || waiting.size === 0) return;
  posted = true;
  afterPaint(slices);
}

/**
 * createSlicedWork({ busy, budget, eager }) → { start(step, finish, { progress, stale }), cancel(), running }
 * busy: the elements marked aria-busy while a job runs; budget: the ms of
 * the first slices, run at once by start unless eager is false (then the
 * first slice waits for the next frame's paint).
 * step() does one slice (a few ms at most) and returns true when nothing is
 * left; finish() then shows the result. An eager job that fits the budget
 * finishes inside start(), in the same frame as the step that caused it.
 * progress() (optional) shows the result so far; stale() (optional) → true
 * drops the job before its next slice (its busy marks stay: a newer job comes).
 */
export function createSlicedWork({ busy = [], budget = BUDGET_MS, eager = true } = {}) {
  let job = null;
  let superseded = false; // the last job was dropped as stale: a newer value's job is coming (the input goes on)

  function mark(on) {
    for (const el of busy) {
      if (on) el.setAttribute('aria-busy', 'true');
      else el.removeAttribute('aria-busy');
    }
  }

  // slices until the job is done or `ms` are spent; true when done (or dropped as stale)
  function run(current, ms) {
    const t0 = performance.now();
    for (;;) {
      if (current.stale?.()) {
        if (job === current) {
          job = null;
          superseded = true;
          waiting.delete(worker);
        }
        return true;
      }
      if (current.step()) {
        if (job === current) {
          job = null;
          superseded = false;
          waiting.delete(worker);
          mark(false);
        }
        current.finish();
        return true;
      }
      if (performance.now() - t0 >= ms) {
        if (job === current) current.progress?.();
        return false;
      }
    }
  }

  const worker = { slice: (ms) => job && run(job, ms) };

  return {
    start(step, finish, { progress = null, stale = null } = {}) {
      // an unfinished job (the input goes on): this one waits for the frame's paint, showing what there is
      const going = job !== null || superseded;
      superseded = false;
      waiting.delete(worker);
      const current = { step, finish, progress, stale };
      job = current;
      if (going && progress) progress();
      else if (eager && run(current, budget)) return;
      mark(true);
      waiting.add(worker);
      schedule();
    },
    cancel() {
      waiting.delete(worker);
      job = null;
      superseded = false;
      mark(false);
    },
    get running() {
      return job !== null;
    },
  };
}
