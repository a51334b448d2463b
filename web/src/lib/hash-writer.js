// The URL hash follows the state lazily: written 200 ms after the last change
// (Chromium throttles, and warns about, frequent history.replaceState calls
// while a slider is dragged), in idle time within a second (replaceState and
// the hash's serialisation took 5–50 ms in the middle of the next step's
// frame: tests/browser/profile-step.mjs).
import { whenIdle } from './idle.js';

/**
 * hashOf() → the hash the state serialises to; written(hash) is told each
 * hash written. Returns { schedule, flush, write, cancel }.
 */
export function createHashWriter(hashOf, written) {
  let timer = 0;
  let cancelIdle = () => {};
  const cancel = () => {
    clearTimeout(timer);
    cancelIdle();
  };
  const write = () => {
    const hash = hashOf();
    if (hash !== location.hash) {
      written(hash);
      history.replaceState(null, '', hash);
    }
  };
  return {
    schedule() {
      cancel();
      timer = setTimeout(() => (cancelIdle = whenIdle(write, 1000)), 200);
    },
    /** Writes a pending hash now. */
    flush() {
      cancel();
      write();
    },
    write,
    cancel,
  };
}
