// The check of a refused call, shared by the suites that try bad arguments:
// fn throws an error of ErrorClass whose message starts `sinpe: `, has no
// placeholder left unfilled, and matches every pattern. Returns the error.
import assert from 'node:assert/strict';

export function refused(fn, ErrorClass, ...patterns) {
  let error;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  assert.ok(error, 'the call was accepted');
  assert.equal(error.constructor.name, ErrorClass.name, error.message);
  assert.match(error.message, /^sinpe: /, error.message);
  assert.doesNotMatch(error.message, /\{\w+\}/, `a placeholder is left: ${error.message}`);
  for (const p of patterns) assert.match(error.message, p, error.message);
  return error;
}
