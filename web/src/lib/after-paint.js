// Work that must not hold up the next paint: afterPaint(fn) runs fn in a task
// after the paint of the frame the page is in or about to draw. A message
// posted from a requestAnimationFrame callback is delivered after that
// frame's style, layout and paint (and messages keep the order they were
// posted in, unlike timers). Inside a frame's callback (frameCallback: the
// site's renders that wait for a frame) the message is posted at once:
// asking for another animation frame there would ask for a second frame,
// which Chromium, just after an input, draws before any waiting task.

const queue = [];
let channel = null;
let inFrame = false;

function post(fn) {
  if (!channel) {
    channel = new MessageChannel();
    channel.port1.onmessage = () => queue.shift()();
  }
  queue.push(fn);
  channel.port2.postMessage(0);
}

/** requestAnimationFrame(fn), marked as a frame's callback while fn runs. */
export function frameCallback(fn) {
  return requestAnimationFrame((time) => {
    inFrame = true;
    try {
      fn(time);
    } finally {
      inFrame = false;
    }
  });
}

/** fn() in a task after the current (or next) frame's paint; returns cancel(). */
export function afterPaint(fn) {
  let cancelled = false;
  let frame = 0;
  const run = () => cancelled || fn();
  if (inFrame) post(run);
  else
    frame = requestAnimationFrame(() => {
      frame = 0;
      post(run);
    });
  return () => {
    cancelled = true;
    if (frame) cancelAnimationFrame(frame);
  };
}
