// Before/after table of two `npm run bench` reports (build/bench/latest.json
// of two builds, run back to back on one machine): each method both runs
// measured, its median in each, and after ÷ before. Methods are matched by
// case and key (the method's words may have changed between the two).
// Asserts nothing; prints Markdown.
//
//   node tests/bench/compare.mjs BEFORE.json AFTER.json
import { readFileSync } from 'node:fs';

const [beforePath, afterPath] = process.argv.slice(2);
if (!beforePath || !afterPath) {
  console.error('usage: node tests/bench/compare.mjs BEFORE.json AFTER.json');
  process.exit(2);
}
const before = JSON.parse(readFileSync(beforePath, 'utf8'));
const after = JSON.parse(readFileSync(afterPath, 'utf8'));

const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : Number(ms.toPrecision(3)).toString());
const rowsOf = (report, env) => new Map((report[env]?.rows ?? []).filter((r) => Number.isFinite(r.ms) && r.reps > 0).map((r) => [`${r.case}\u0000${r.key}`, r]));

console.log(`before: ${before.date}, load ${before.loadAverage.before.join(' ')} → ${before.loadAverage.after.join(' ')}`);
console.log(`after:  ${after.date}, load ${after.loadAverage.before.join(' ')} → ${after.loadAverage.after.join(' ')}\n`);
for (const env of ['node', 'chromium', 'native']) {
  const a = rowsOf(before, env);
  const b = rowsOf(after, env);
  const both = [...b.keys()].filter((k) => a.has(k));
  if (both.length === 0) continue;
  console.log(`**${env}** (median ${b.get(both[0]).unit ?? 'ms'})\n`);
  console.log('| case | method | before | after | after ÷ before |');
  console.log('|---|---|---:|---:|---:|');
  for (const k of both) {
    const [x, y] = [a.get(k), b.get(k)];
    console.log(`| ${y.case} | ${y.method} | ${fmt(x.ms)} | ${fmt(y.ms)} | ${(y.ms / x.ms).toFixed(2)} |`);
  }
  const only = [...b.keys()].filter((k) => !a.has(k)).map((k) => b.get(k).method);
  if (only.length) console.log(`\nmeasured after only: ${only.join('; ')}`);
  console.log('');
}
