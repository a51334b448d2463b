// When the site renders a state change: right after the input that made it
// (in a microtask: the caller finishes first, and the changes of one task
// render once), while the page waits for its next frame, which then only
// lays out and paints. (Rendering in the frame's requestAnimationFrame
// callback added the whole render to the wait for the frame: a keyboard
// step's input-to-paint time, tests/browser/key-step.mjs.) Changes that
// come faster than frames (a drag's input events, a held key) render once a
// frame, at the frame's start.

/** createRenderScheduler(render) → { schedule(), run() }: run renders now, schedule as above. */
export function createRenderScheduler(render) {
  let queued = false;
  let renderedThisFrame = false;
  function run() {
    queued = false;
    if (!renderedThisFrame) {
      renderedThisFrame = true;
      requestAnimationFrame(() => (renderedThisFrame = false));
    }
    render();
  }
  return {
    schedule() {
      if (queued) return;
      queued = true;
      if (renderedThisFrame) requestAnimationFrame(run);
      else queueMicrotask(run);
    },
    run,
  };
}
