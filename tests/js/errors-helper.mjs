// The error helper of every accuracy check in tests/js and tests/bench (no
// Node-only imports: the bench page loads it in Chromium too). A NaN or
// infinite error, from a NaN or infinite value or reference, is a failure no
// later finite error can clear: `worst` is then NaN (any NaN) or Infinity, so
// `worst <= tolerance` is false. Comparing nothing is a failure too (`worst`
// is NaN): a check of an empty list checks nothing.

export class ErrorTracker {
  count = 0;
  nan = 0;
  infinite = 0;
  largest = 0;
  at = -1;
  firstNonFinite = -1;

  /** One error; `at` says where it was found, for the message. */
  add(error, at = this.count) {
    this.count++;
    if (Number.isNaN(error) || typeof error !== 'number') {
      if (this.nan === 0) this.firstNonFinite = at;
      this.nan++;
    } else if (!Number.isFinite(error)) {
      if (this.nan === 0 && this.infinite === 0) this.firstNonFinite = at;
      this.infinite++;
    } else if (this.at === -1 || error > this.largest) {
      this.largest = error;
      this.at = at;
    }
    return this;
  }

  /** |got - want|; a NaN or infinite reference fails too. */
  addDifference(got, want, at = this.count) {
    return this.add(Number.isFinite(want) ? Math.abs(got - want) : NaN, at);
  }

  get nonFinite() {
    return this.nan + this.infinite;
  }

  /** NaN when nothing was compared or any error was NaN, Infinity when one was infinite, else the largest. */
  get worst() {
    if (this.count === 0 || this.nan > 0) return NaN;
    if (this.infinite > 0) return Infinity;
    return this.largest;
  }

  /** Where the first non-finite error was, else the largest finite one. */
  get where() {
    return this.nonFinite ? this.firstNonFinite : this.at;
  }

  /** True when something was compared, every error was finite, and the largest is at most `tolerance`. */
  within(tolerance) {
    return this.count > 0 && this.nonFinite === 0 && this.largest <= tolerance;
  }

  describe() {
    if (this.count === 0) return 'no values compared';
    const extra = this.nonFinite ? ` (${this.nan} NaN, ${this.infinite} infinite errors)` : '';
    return `${this.count} values, worst ${this.worst} at ${this.where}${extra}`;
  }
}

/** max |got[i] - want[i]| as an ErrorTracker; a length mismatch is recorded as a NaN error. */
export function maxAbsError(got, want) {
  const t = new ErrorTracker();
  if (got.length !== want.length) t.add(NaN, -1);
  const n = Math.min(got.length, want.length);
  for (let i = 0; i < n; i++) t.addDifference(got[i], want[i], i);
  return t;
}

/** Throws (an Error naming `what`) unless every error was finite and within `tolerance`, and there was one. */
export function assertWithin(tracker, tolerance, what) {
  if (!tracker.within(tolerance)) throw new Error(`${what}: ${tracker.describe()}, tolerance ${tolerance}`);
}
