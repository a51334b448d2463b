// Multi-axis RoPE computed in the graph (Qwen2.5-VL, Qwen3-VL in
// onnxruntime-genai's builder, builders/qwen.py): cos/sin of every axis from
// inv_freq and position ids [3, B, S], then each rotary pair takes one axis's
// values. Which axis each pair takes is read off the graph and compared with
// what the config's mrope_section (and mrope_interleaved) say, as the core
// computes it.
//   chunked (Qwen2.5-VL, make_mrope_flattened_caches): Cos → Slice (H/2) →
//     Split by a constant of section sizes → Gather(axis 0, [i]) per chunk →
//     Squeeze → Concat;
//   interleaved (Qwen3-VL): Cos → Slice → Gather(axis 0, [d]) → Squeeze →
//     Gather(axis −1, the constant positions of axis d) per axis → Concat →
//     Gather(reorder).

const attr = (node, name) => node.attribute.find((a) => a.name === name);
const intAttr = (node, name, fallback) => {
  const a = attr(node, name);
  return a === undefined ? fallback : Number(a.i);
};

// The integers of an int64/int32 tensor (raw_data or the typed fields).
function integers(t) {
  if (t.rawData && t.rawData.length) {
    const b = t.rawData;
    const bytes = new Uint8Array(b).buffer;
    if (t.dataType === 7) return Array.from(new BigInt64Array(bytes), Number);
    if (t.dataType === 6) return Array.from(new Int32Array(bytes));
    return null;
  }
  if (t.dataType === 7) return t.int64Data.map(Number);
  if (t.dataType === 6) return [...t.int32Data];
  return null;
}

// Every node of a graph and its subgraphs; the node producing each name, the
// nodes reading it, and the tensor a name holds (Constant nodes, initializers).
function index(graph) {
  const nodes = [];
  const constants = new Map();
  const consumers = new Map();
  const producers = new Map();
  const walk = (g) => {
    for (const t of g.initializer) constants.set(t.name, t);
    for (const n of g.node) {
      nodes.push(n);
      for (const o of n.output) producers.set(o, n);
      if (n.opType === 'Constant' && attr(n, 'value')?.t) constants.set(n.output[0], attr(n, 'value').t);
      for (const i of n.input) {
        if (!consumers.has(i)) consumers.set(i, []);
        consumers.get(i).push(n);
      }
      for (const a of n.attribute) {
        if (a.g) walk(a.g);
        for (const sg of a.graphs) walk(sg);
      }
    }
  };
  walk(graph);
  const valueOf = (name) => {
    const t = constants.get(name);
    return t ? integers(t) : null;
  };
  return { nodes, consumers: (name) => consumers.get(name) ?? [], producer: (name) => producers.get(name), tensor: (name) => constants.get(name), valueOf };
}

// The nodes reached from `name` through the shape-only ops between Cos and the split.
function through(ix, name, ops) {
  const out = [];
  const queue = [name];
  const seen = new Set(queue);
  while (queue.length) {
    const n = queue.shift();
    for (const node of ix.consumers(n)) {
      if (ops.has(node.opType)) {
        for (const o of node.output)
          if (!seen.has(o)) {
            seen.add(o);
            queue.push(o);
          }
      } else out.push(node);
    }
  }
  return out;
}

const SHAPE_OPS = new Set(['Slice', 'Identity', 'Cast']);

/**
 * The axis each rotary pair takes, read off the graph after the Cos node
 * `cosName` (half: rotaryDim / 2): { layout: 'chunked' | 'interleaved',
 * pairAxes: number[], sections?: number[] }, or null when neither structure is there.
 */
export function graphAxes(graph, cosName, half) {
  const ix = index(graph);
  const cos = ix.nodes.find((n) => n.name === cosName && n.opType === 'Cos');
  if (!cos) return null;
  const next = through(ix, cos.output[0], SHAPE_OPS);
  // chunked: a Split by a constant of section sizes, each chunk gathered at one axis
  const split = next.find((n) => n.opType === 'Split');
  if (split) {
    const sizes = split.input[1] ? ix.valueOf(split.input[1]) : null;
    const sections = sizes ?? (attr(split, 'split')?.ints ?? []).map(Number);
    if (sections.length === 0 || sections.reduce((a, b) => a + b, 0) !== half) return null;
    const pairAxes = [];
    for (const [i, out] of split.output.entries()) {
      const gather = through(ix, out, SHAPE_OPS).find((n) => n.opType === 'Gather' && intAttr(n, 'axis', 0) === 0);
      const idx = gather ? ix.valueOf(gather.input[1]) : null;
      if (!idx || idx.length !== 1) return null;
      for (let k = 0; k < sections[i]; k++) pairAxes.push(idx[0]);
    }
    return { layout: 'chunked', pairAxes, sections };
  }
  // interleaved: per axis d, Gather(axis 0, [d]) then Gather(axis −1) of that axis's pair positions
  const byAxis = next.filter((n) => n.opType === 'Gather' && intAttr(n, 'axis', 0) === 0);
  if (byAxis.length === 0) return null;
  const pairAxes = new Array(half).fill(-1);
  for (const g of byAxis) {
    const d = ix.valueOf(g.input[1]);
    if (!d || d.length !== 1) return null;
    const pick = through(ix, g.output[0], new Set(['Squeeze', 'Identity'])).find((n) => n.opType === 'Gather' && [-1, 2].includes(intAttr(n, 'axis', 0)));
    const positions = pick ? ix.valueOf(pick.input[1]) : null;
    if (!positions) return null;
    for (const p of positions) if (p >= 0 && p < half) pairAxes[p] = d[0];
  }
  if (pairAxes.includes(-1)) return null;
  return { layout: 'interleaved', pairAxes };
}

// Bool masks (h_mask, w_mask) as 0/1 arrays.
function booleans(t) {
  if (t.dataType !== 9) return null;
  if (t.rawData && t.rawData.length) return Array.from(t.rawData, (b) => (b ? 1 : 0));
  return t.int32Data.map((b) => (b ? 1 : 0));
}

/**
 * A baked one-axis cache gathered once per position axis and combined by
 * Where on bool masks (onnxruntime-genai's Qwen3.5, _make_mrope_cos_sin:
 * Where(h_mask, h, Where(w_mask, w, t)), each axis a Gather of the cache by
 * Squeeze(Gather(position_ids, [d]))): the axis of each pair, or null when
 * the cache is not combined that way.
 */
export function whereAxes(graph, cacheName, half) {
  const ix = index(graph);
  // The position axis a gathered row index comes from: Gather(position_ids, [d]) through Squeeze/Unsqueeze/Identity/Cast.
  const axisIndex = (name) => {
    let n = ix.producer(name);
    while (n && ['Squeeze', 'Unsqueeze', 'Identity', 'Cast'].includes(n.opType)) n = ix.producer(n.input[0]);
    if (!n || n.opType !== 'Gather' || intAttr(n, 'axis', 0) !== 0) return null;
    const d = ix.valueOf(n.input[1]);
    return d && d.length === 1 ? d[0] : null;
  };
  // The axis of each pair in a value: a Gather of the cache (one axis for all), or a Where of two such.
  const axesOf = (name, depth = 0) => {
    const n = ix.producer(name);
    if (!n || depth > 8) return null;
    if (n.opType === 'Gather' && n.input[0] === cacheName && intAttr(n, 'axis', 0) === 0) {
      const d = axisIndex(n.input[1]);
      return d === null ? null : new Array(half).fill(d);
    }
    if (n.opType === 'Where') {
      const t = ix.tensor(n.input[0]);
      const mask = t ? booleans(t) : null;
      const a = axesOf(n.input[1], depth + 1);
      const b = axesOf(n.input[2], depth + 1);
      if (!mask || mask.length !== half || !a || !b) return null;
      return mask.map((m, j) => (m ? a[j] : b[j]));
    }
    return null;
  };
  // The outermost Where: one whose output no other Where of the cache reads.
  const wheres = ix.nodes.filter((n) => n.opType === 'Where' && axesOf(n.output[0]) !== null);
  const outer = wheres.find((w) => !ix.consumers(w.output[0]).some((c) => c.opType === 'Where'));
  return outer ? { layout: 'where', pairAxes: axesOf(outer.output[0]) } : null;
}

/** The axis of each pair as the core lays out these options: one token at positions (1, 2, 3) for (t, h, w). */
export function expectedAxes(pe, rotaryDim, options) {
  const inv = pe.ropeFrequencies(rotaryDim, options);
  const axes = options.mropeSection.length;
  const { cos, sin } = pe.ropeCache(Float64Array.from({ length: axes }, (_, a) => a + 1), rotaryDim, options);
  return Array.from(inv, (w, j) => Math.round(Math.atan2(sin[j], cos[j]) / w) - 1);
}

/** The pair → axis map in words: runs of one axis, e.g. "t ×16, h ×24, w ×24" or "t h w t h w … t". */
export function describeAxes(pairAxes) {
  const names = ['t', 'h', 'w', 'a3'];
  const runs = [];
  for (const a of pairAxes) {
    const last = runs[runs.length - 1];
    if (last && last.a === a) last.n++;
    else runs.push({ a, n: 1 });
  }
  if (runs.length <= 4) return runs.map((r) => `${names[r.a]} ×${r.n}`).join(', ');
  return `${pairAxes.slice(0, 9).map((a) => names[a]).join(' ')} … (${runs.length} runs)`;
}
