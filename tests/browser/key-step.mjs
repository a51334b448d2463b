// One keyboard step on a lesson's slider, timed the way the site benchmarks
// time it (fps-bench.mjs, profile-step.mjs): from the keydown to the start of
// the frame after the one that drew the new state, so the drawing's style,
// layout and paint are inside it. NaN when no render came within 20 s.

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
        const wait = () => {
          if (window.sinpeSite.renders.length > window.benchStep.renders) requestAnimationFrame(() => resolve(performance.now() - window.benchStep.t0));
          else if (performance.now() - window.benchStep.t0 > 20000) resolve(NaN);
          else requestAnimationFrame(wait);
        };
        wait();
      }),
  );
}
