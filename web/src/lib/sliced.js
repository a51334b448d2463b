// Work too long for one frame, done in slices across frames, so that a
// slider step repaints at once and the page keeps its frame rate while a
// figure's numbers are computed. One job at a time per worker: starting a job
// drops the unfinished one, whose remaining slices never run (a stale result
// can never be shown over a newer state's). While a job runs, `busy` (the
// figure's box) carries aria-busy="true": assistive technology waits for the
// new numbers, the page dims the old ones, and tests and the site benchmark
// wait until no part of the page is busy.
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
 * createSlicedWork({ busy, budget, eager }) → { start(step, finish), cancel(), running }
 * busy: the elements marked aria-busy while a job runs; budget: the ms of
 * the first slices, run at once by start unless eager is false (then the
 * first slice waits for the next frame's paint).
 * step() does one slice (a few ms at most) and returns true when nothing is
 * left; finish() then shows the result. An eager job that fits the budget
 * finishes inside start(), in the same frame as the step that caused it.
 */
export function createSlicedWork({ busy = [], budget = BUDGET_MS, eager = true } = {}) {
  let job = null;

  function mark(on) {
    for (const el of busy) {
      if (on) el.setAttribute('aria-busy', 'true');
      else el.removeAttribute('aria-busy');
    }
  }

  // slices until the job is done or `ms` are spent; true when done
  function run(current, ms) {
    const t0 = performance.now();
    for (;;) {
      if (current.step()) {
        if (job === current) {
          job = null;
          waiting.delete(worker);
          mark(false);
        }
        current.finish();
        return true;
      }
      if (performance.now() - t0 >= ms) return false;
    }
  }

  const worker = { slice: (ms) => job && run(job, ms) };

  return {
    start(step, finish) {
      waiting.delete(worker);
      const current = { step, finish };
      job = current;
      if (eager && run(current, budget)) return;
      mark(true);
      waiting.add(worker);
      schedule();
    },
    cancel() {
      waiting.delete(worker);
      job = null;
      mark(false);
    },
    get running() {
      return job !== null;
    },
  };
}
