// Tables whose rows do not depend on how many rows are shown (row r of a
// positional table is the same for max_len 100 and 101): a step of max_len
// computes only the rows it adds, none when it removes rows.

/**
 * Row-major tables (`names`, float64) whose row r does not depend on how many
 * rows are shown, kept per key (everything else the rows depend on, d
 * included): rows(key, count, d, make) → each table's first count rows (views
 * of the kept tables, whose rows are never written twice); make(from, to) → each
 * table's rows from … to − 1, called only for rows not made before under this key.
 */
export function rowStore(names) {
  let kept = { key: null, rows: 0, data: {} };
  return (key, count, d, make) => {
    if (kept.key !== key) kept = { key, rows: 0, data: Object.fromEntries(names.map((k) => [k, new Float64Array(0)])) };
    if (kept.rows < count) {
      const added = make(kept.rows, count);
      for (const k of names) {
        if (kept.data[k].length < count * d) {
          // room for twice the rows, so that a run of steps allocates rarely
          const grown = new Float64Array(Math.max(count, 2 * kept.rows) * d);
          grown.set(kept.data[k].subarray(0, kept.rows * d));
          kept.data[k] = grown;
        }
        kept.data[k].set(added[k], kept.rows * d);
      }
      kept.rows = count;
    }
    return Object.fromEntries(names.map((k) => [k, kept.data[k].subarray(0, count * d)]));
  };
}
