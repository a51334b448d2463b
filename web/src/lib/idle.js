// Work for an idle moment: fn() once the page is idle, by `timeoutMs` at the
// latest; returns cancel(). WebKit (Safari) has no requestIdleCallback: there
// fn runs in a task after the next frame's paint (afterPaint; the frame the
// input that asked for it repaints comes first either way).
import { afterPaint } from './after-paint.js';

export const whenIdle = globalThis.requestIdleCallback
  ? (fn, timeoutMs) => {
      const id = requestIdleCallback(fn, { timeout: timeoutMs });
      return () => cancelIdleCallback(id);
    }
  : (fn) => afterPaint(fn);
