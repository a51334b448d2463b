// One keyboard step on a lesson's slider, timed the way the site benchmarks
// time it (fps-bench.mjs, profile-step.mjs): from the keydown to the end of
// the paint of the frame that shows the new state — input to next paint, as
// the Event Timing API's INP measures it, but to the millisecond. The watch
// starts in the keydown's own capture listener (not after the press returns
// over CDP, by when the frame may have painted already): once per frame, a
// message posted from the frame's requestAnimationFrame callback is delivered
// after that frame's style, layout and paint, and checks whether the site has
// rendered since the keydown (window.sinpeSite.renders; the site renders in a
// microtask after a quick input or in the next frame's rAF callback).
// NaN when no render came within 20 s.

/** Presses `key` on the element `selector` (default: the focused one); resolves to the step's milliseconds. */
export async function timedKeyStep(page, key, selector = null) {
  await page.evaluate((sel) => {
    const el = sel ? document.querySelector(sel) : document.activeElement;
    const step = (window.benchStep = { t0: 0, renders: window.sinpeSite.renders.length, done: null });
    el.addEventListener(
      'keydown',
      () => {
        step.t0 = performance.now();
        step.done = new Promise((resolve) => {
          const channel = new MessageChannel();
          const frame = () => channel.port2.postMessage(0);
          channel.port1.onmessage = () => {
            const now = performance.now();
            if (window.sinpeSite.renders.length > step.renders) resolve(now - step.t0);
            else if (now - step.t0 > 20000) resolve(NaN);
            else requestAnimationFrame(frame);
          };
          requestAnimationFrame(frame);
        });
      },
      { once: true, capture: true },
    );
  }, selector);
  await page.keyboard.press(key);
  return page.evaluate(() => window.benchStep.done ?? NaN);
}
