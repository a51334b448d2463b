// Figures out of view are drawn after the frame, not in it: a slider step
// repaints what the reader sees first, and a figure below the fold (or
// above it, scrolled past) is drawn once the browser is idle, or at once
// when it comes near the screen. Until then it is aria-busy (its old
// drawing, which no one sees, is not the state's: assistive technology,
// the tests and the site benchmark wait for it). One observer for the page.
import { whenIdle as idleTask } from './idle.js';

const MARGIN = '200px 0px'; // "near the screen": drawn before it scrolls in
const IDLE_TIMEOUT_MS = 250; // drawn by then even on a page that is never idle

const near = new WeakMap(); // element → on or near the screen (absent: not known yet)
const pending = new Map(); // element → Map(key → its latest draw of that kind, not yet run)
const marked = new WeakSet(); // the elements made aria-busy here (not by a sliced job's own mark)
let observer = null;
let idle = null; // cancels the pending flush (null: none pending)

const idleLater = (fn) => idleTask(fn, IDLE_TIMEOUT_MS);

function unmark(element) {
  if (!marked.delete(element)) return;
  element.removeAttribute('aria-busy');
  element.removeAttribute('data-drawn-later');
}

function run(element) {
  const draws = pending.get(element);
  pending.delete(element);
  unmark(element);
  for (const draw of draws?.values() ?? []) draw();
}

function flush() {
  idle = null;
  for (const element of [...pending.keys()]) run(element);
}

function watch(element) {
  near.set(element, undefined);
  observer ??= new IntersectionObserver(
    (entries) => {
      for (const { target, isIntersecting } of entries) {
        near.set(target, isIntersecting);
        if (isIntersecting && pending.has(target)) run(target);
      }
    },
    { rootMargin: MARGIN },
  );
  observer.observe(element);
}

/**
 * Runs draw() now if `element` is on or near the screen (or not known yet:
 * the page's first render draws everything), else after the frame (the
 * latest draw of each key only) and marks the element aria-busy until then.
 */
export function drawWhenSeen(element, draw, key = 'draw') {
  if (!near.has(element)) watch(element);
  if (!element.isConnected || near.get(element) !== false) {
    const draws = pending.get(element);
    draws?.delete(key);
    if (draws?.size === 0) {
      pending.delete(element);
      unmark(element);
    }
    return draw();
  }
  if (!pending.has(element)) pending.set(element, new Map());
  pending.get(element).set(key, draw);
  if (element.getAttribute('aria-busy') !== 'true') {
    marked.add(element);
    element.setAttribute('aria-busy', 'true');
    // not dimmed (style.css): no one sees it, and a running transition asks for frames of its own
    element.setAttribute('data-drawn-later', '');
  }
  idle ??= idleLater(flush);
}

/**
 * Runs fn() once the page is idle (by IDLE_TIMEOUT_MS at the latest), `element`
 * aria-busy until then; returns cancel(), which unmarks it. For what the
 * page's next layout usually settles first (a resize observer's report).
 */
export function whenIdle(element, fn) {
  element.setAttribute('aria-busy', 'true');
  const cancelIdle = idleLater(() => cancel() ?? fn());
  function cancel() {
    cancelIdle();
    element.removeAttribute('aria-busy');
  }
  return cancel;
}
