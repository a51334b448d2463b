// Entry of the webpack, esbuild and Rollup apps: the package checks on the
// main thread; the result (or the error) lands in window.__result.
import { packageChecks } from './checks.js';

packageChecks().then(
  (result) => {
    window.__result = result;
    document.getElementById('status').textContent = 'done';
  },
  (e) => {
    window.__result = { error: String(e && e.stack ? e.stack : e) };
  },
);
