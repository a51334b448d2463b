// One keyboard step on a lesson's slider, timed the way the site benchmarks
// time it (fps-bench.mjs, profile-step.mjs): from the keydown to the end of
// the paint of the frame that shows the new state — input to next paint, as
// the Event Timing API's INP measures it, but to the millisecond. The site
// renders in a requestAnimationFrame callback (main.js scheduleRender); a
// message posted from a frame's rAF callback is delivered after that frame's
// style, layout and paint, so the check runs once per frame, after its paint.
// (Timing to the start of the following frame instead adds the rest of that
// frame — about 8 ms on average at 60 Hz, up to 16.7 — to every step.)
// NaN when no render came within 20 s.

/** Presses `key` on the element `selector` (default: the focused one); resolves to the step's milliseconds. */
export async function timedKeyStep(page, key, selector = null) {
  await page.evaluate((sel) => {
    const el = sel ? document.querySelector(sel) : document.activeElement;
    window.benchStep = { t0: 0, renders: window.sinpeSite.renders.length };
    el.addEventListener('keydown', () => (window.benchStep.t0 = performance.now()), { once: true, capture: true });
  }, selector);
  await page.keyboard.press(key);
  return page.evaluate(
    () =>
      new Promise((resolve) => {
        const channel = new MessageChannel();
        const frame = () => channel.port2.postMessage(0);
        channel.port1.onmessage = () => {
          const now = performance.now();
          if (window.sinpeSite.renders.length > window.benchStep.renders) resolve(now - window.benchStep.t0);
          else if (now - window.benchStep.t0 > 20000) resolve(NaN);
          else requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      }),
  );
}
