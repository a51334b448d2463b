// When the site renders a state change. A render that fits in the wait for
// the next frame runs right after the input that made it (in a microtask:
// the caller finishes first, and the changes of one task render once), so
// that frame only lays out and paints: rendering in the frame's
// requestAnimationFrame callback added the whole render to the wait (a
// keyboard step's input-to-paint time, tests/browser/key-step.mjs). A render
// that took longer than LONG_RENDER_MS last time waits for the frame as
// before: run at once it would hold up the input events behind it (the
// key's keyup, the next key) and gain little. Changes that come faster than
// frames (a drag's input events, a held key) render once a frame, at the
// frame's start.

import { frameCallback } from './after-paint.js';

export const LONG_RENDER_MS = 8;

/** createRenderScheduler(render) → { schedule(), run() }: run renders now, schedule as above. */
export function createRenderScheduler(render) {
  let queued = false;
  let renderedThisFrame = false;
  let lastMs = 0;
  function run() {
    queued = false;
    if (!renderedThisFrame) {
      renderedThisFrame = true;
      requestAnimationFrame(() => (renderedThisFrame = false));
    }
    const t0 = performance.now();
    render();
    lastMs = performance.now() - t0;
  }
  return {
    schedule() {
      if (queued) return;
      queued = true;
      if (renderedThisFrame || lastMs > LONG_RENDER_MS) frameCallback(run);
      else queueMicrotask(run);
    },
    run,
  };
}
