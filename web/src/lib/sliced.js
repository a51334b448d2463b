// Work too long for one frame, done in slices across frames, so that a
// slider step repaints at once and the page keeps its frame rate while a
// figure's numbers are computed. One job at a time per worker: starting a job
// drops the unfinished one, whose remaining slices never run (a stale result
// can never be shown over a newer state's). While a job runs, `busy` (the
// figure's box) carries aria-busy="true": assistive technology waits for the
// new numbers, the page dims the old ones, and tests and the site benchmark
// wait until no part of the page is busy.

// The slices of every job on the page share one budget between two frames:
// several figures computed across frames (the rope lesson's late sections,
// its precision and half-precision charts) together take at most one
// budget's time before the next frame, not one budget each. The time spent
// since the frame whose timestamp is `frameTime`:
let frameTime = -1;
let spent = 0;

// fn() in a task after the current frame's paint: posted from its
// requestAnimationFrame callback, a message is delivered after the frame's
// style, layout and paint (and, unlike a timer's, in the order posted)
const queue = [];
let channel = null;
function afterPaint(fn) {
  if (!channel) {
    channel = new MessageChannel();
    channel.port1.onmessage = () => queue.shift()();
  }
  queue.push(fn);
  channel.port2.postMessage(0);
}

/**
 * createSlicedWork({ busy, budget, eager }) → { start(step, finish), cancel(), running }
 * busy: the elements marked aria-busy while a job runs; budget: the ms of
 * slices between two frames, shared with every other job (and of the first
 * slices, run at once by start unless eager is false: then the first slice
 * waits for the next frame).
 * step() does one slice (a few ms at most) and returns true when nothing is
 * left; finish() then shows the result. An eager job that fits the budget
 * finishes inside start(), in the same frame as the step that caused it.
 * The later slices run in a task after a frame's paint, not in its
 * requestAnimationFrame callback: the frame that shows a step's new state
 * paints first.
 */
export function createSlicedWork({ busy = [], budget = 8, eager = true } = {}) {
  let job = null;
  let frame = 0;
  let ticket = 0; // the scheduled slices' (a stopped schedule's message finds a newer ticket and does nothing)

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
        job = null;
        mark(false);
        current.finish();
        return true;
      }
      if (performance.now() - t0 >= ms) return false;
    }
  }

  // after the paint of the frame stamped `time`, what is left of the budget shared since that frame
  function slices(time) {
    if (!job) return;
    if (time !== frameTime) [frameTime, spent] = [time, 0];
    const left = budget - spent;
    if (left > 0) {
      const t0 = performance.now();
      const done = run(job, left);
      spent += performance.now() - t0;
      if (done) return;
    }
    later();
  }

  function later() {
    const mine = ++ticket;
    frame = requestAnimationFrame((time) => {
      frame = 0;
      afterPaint(() => mine === ticket && slices(time));
    });
  }

  function stop() {
    cancelAnimationFrame(frame);
    frame = 0;
    ticket++;
  }

  return {
    start(step, finish) {
      stop();
      const current = { step, finish };
      job = current;
      if (eager && run(current, budget)) return;
      mark(true);
      later();
    },
    cancel() {
      stop();
      job = null;
      mark(false);
    },
    get running() {
      return job !== null;
    },
  };
}
