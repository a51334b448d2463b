// Work too long for one frame, done in slices across frames, so that a
// slider step repaints at once and the page keeps its frame rate while a
// figure's numbers are computed. One job at a time per worker: starting a job
// drops the unfinished one, whose remaining slices never run (a stale result
// can never be shown over a newer state's). While a job runs, `busy` (the
// figure's box) carries aria-busy="true": assistive technology waits for the
// new numbers, the page dims the old ones, and tests and the site benchmark
// wait until no part of the page is busy.

/**
 * createSlicedWork({ busy, budget, eager }) → { start(step, finish), cancel(), running }
 * busy: the elements marked aria-busy while a job runs; budget: the ms of
 * slices per frame (and of the first slices, run at once by start unless
 * eager is false: then the first slice waits for the next frame).
 * step() does one slice (a few ms at most) and returns true when nothing is
 * left; finish() then shows the result. An eager job that fits the budget
 * finishes inside start(), in the same frame as the step that caused it.
 */
export function createSlicedWork({ busy = [], budget = 8, eager = true } = {}) {
  let job = null;
  let frame = 0;

  function mark(on) {
    for (const el of busy) {
      if (on) el.setAttribute('aria-busy', 'true');
      else el.removeAttribute('aria-busy');
    }
  }

  // slices until the job is done or the budget is spent; true when done
  function run(current) {
    const t0 = performance.now();
    for (;;) {
      if (current.step()) {
        job = null;
        mark(false);
        current.finish();
        return true;
      }
      if (performance.now() - t0 >= budget) return false;
    }
  }

  function next() {
    frame = 0;
    if (job && !run(job)) frame = requestAnimationFrame(next);
  }

  return {
    start(step, finish) {
      cancelAnimationFrame(frame);
      const current = { step, finish };
      job = current;
      if (eager && run(current)) return;
      mark(true);
      frame = requestAnimationFrame(next);
    },
    cancel() {
      cancelAnimationFrame(frame);
      job = null;
      mark(false);
    },
    get running() {
      return job !== null;
    },
  };
}
