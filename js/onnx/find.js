// Where exporters put RoPE in an ONNX graph: the cos/sin cache inputs of
// com.microsoft RotaryEmbedding (inputs 2, 3), of the ONNX standard
// RotaryEmbedding (opset 23; inputs 1, 2) and of GroupQueryAttention with
// do_rotary = 1 (inputs 7, 8) — initializers, Constant nodes, the outputs of
// an If whose branches hold them (onnxruntime-genai's LongRoPE
// cos_cache_small / cos_cache_large), or a baked cache reached back through
// Gather / Where / Reshape / Cast / Squeeze / Unsqueeze / Slice / Identity
// (caches gathered by position ids before the op: onnxruntime's mobius, the
// builder's Qwen3.5 M-RoPE) — and graphs that compute the angles on the fly
// from an inv_freq tensor (→ MatMul/Mul … → Cos and Sin).
import { AttributeProto_AttributeType } from 'onnx-buf';
import { DTYPE_NAMES } from './read.js';
import { ropeOptionsFromConfig } from '../rope-config.js';

const attr = (node, name) => node.attribute.find((a) => a.name === name);
const intAttr = (node, name, fallback) => {
  const a = attr(node, name);
  return a === undefined ? fallback : Number(a.i);
};

/** Which cache group a tensor name (or an If branch) says: small/large (LongRoPE), global/local (Gemma 3). */
function groupOf(name, branch) {
  const m = /_(small|large|global|local)(?:_|$)/.exec(name) ?? /\b(small|large|global|local)\b/.exec(name);
  if (m) return m[1];
  if (branch === 'then_branch') return 'large';
  if (branch === 'else_branch') return 'small';
  return 'default';
}

const standard = (node) => node.domain === '' || node.domain === 'ai.onnx';

// The ops a baked cache passes through between its initializer and the op
// that reads it, and which of their inputs carry it: Gather's data (rows
// picked by position ids), both values of a Where (the builder's Qwen3.5
// M-RoPE picks each column's axis with Where(h_mask, h, Where(w_mask, w, t))),
// and the one data input of the shape and type ops.
const TRACE = { Gather: [0], Where: [1, 2], Reshape: [0], Cast: [0], Squeeze: [0], Unsqueeze: [0], Slice: [0], Identity: [0] };

// What defines a name in a graph (with its enclosing scopes): an
// initializer, a Constant node's value, an If node's output, or (to trace
// back) the output of a TRACE op.
function scopeOf(graph, path, parent) {
  const defs = new Map();
  for (const node of graph.node) {
    if (standard(node) && node.opType in TRACE) node.output.forEach((out) => out && defs.set(out, { kind: 'node', node, path }));
  }
  for (const t of graph.initializer) defs.set(t.name, { kind: 'initializer', tensor: t, path });
  for (const node of graph.node) {
    if (node.opType === 'Constant' && standard(node)) {
      const v = attr(node, 'value');
      if (v?.t) defs.set(node.output[0], { kind: 'Constant', tensor: v.t, node, path });
    } else if (node.opType === 'If') {
      node.output.forEach((out, k) => defs.set(out, { kind: 'If', node, index: k, path }));
    }
  }
  return { graph, path, defs, parent };
}

// A cache reached through TRACE ops is a 2-D tensor of a float type; anything
// else met on the way (a mask, an index table) is not one.
const cacheLike = (t) => t.dims.length === 2 && t.dataType in DTYPE_NAMES;

function lookup(scope, name) {
  for (let s = scope; s; s = s.parent) if (s.defs.has(name)) return { def: s.defs.get(name), scope: s };
  return null;
}

// The tensors a name resolves to: one, or one per If branch.
function resolve(scope, name, seen = new Set()) {
  const hit = lookup(scope, name);
  if (!hit || seen.has(hit.def)) return [];
  seen.add(hit.def);
  const { def } = hit;
  if (def.kind === 'initializer' || def.kind === 'Constant')
    return [{ tensor: def.tensor, holder: def.kind, path: def.path, outName: def.kind === 'Constant' ? name : null, branch: null, through: [] }];
  if (def.kind === 'node') {
    const out = [];
    for (const k of TRACE[def.node.opType]) {
      const input = def.node.input[k];
      if (!input) continue;
      for (const r of resolve(hit.scope, input, seen)) if (cacheLike(r.tensor)) out.push({ ...r, through: [...r.through, def.node.opType] });
    }
    return out;
  }
  const out = [];
  for (const branch of ['then_branch', 'else_branch']) {
    const g = attr(def.node, branch)?.g;
    if (!g) continue;
    const inner = scopeOf(g, `${def.path}/If:${def.node.name}/${branch}`, hit.scope);
    const outName = g.output[def.index]?.name;
    if (outName === undefined) continue;
    for (const r of resolve(inner, outName, seen)) out.push({ ...r, branch: r.branch ?? branch });
  }
  return out;
}

function subgraphs(node) {
  const out = [];
  for (const a of node.attribute) {
    if (a.type === AttributeProto_AttributeType.GRAPH && a.g) out.push([a.name, a.g]);
    if (a.type === AttributeProto_AttributeType.GRAPHS) a.graphs.forEach((g, i) => out.push([`${a.name}[${i}]`, g]));
  }
  return out;
}

/**
 * LongRoPE's short and long caches concatenated into one (the builder's
 * torch.cat((cos_cache_small, cos_cache_large), dim=0) for EPs without If;
 * mobius' LongRope np.concatenate([short, long])): the segments of a cache
 * site when the config is LongRoPE and the site has original + max rows, else
 * null. rope: ropeOptionsFromConfig's result for the config.
 */
export function concatSegments(site, rope) {
  if (site.kind !== 'cache' || !rope || rope.options?.ropeType !== 'longrope') return null;
  const L = rope.options.originalMaxPositions;
  const M = rope.options.maxPositions;
  if (!Number.isInteger(L) || !Number.isInteger(M) || L === M || site.rows !== L + M) return null;
  return [
    { group: 'small', start: 0, rows: L },
    { group: 'large', start: L, rows: M },
  ];
}

/**
 * Every RoPE site of a model read by readModel. options.config (the parsed
 * config.json) lets a concatenated LongRoPE cache be told as one (group 'concat', segments).
 * @returns {object[]} sites (see docs/onnx.md, RopeSite)
 */
export function findRope(model, options = {}) {
  if (options === null || typeof options !== 'object') throw new TypeError(`options must be an object, got ${options === null ? 'null' : typeof options}`);
  // Only the numbers are read here (the module's rule checks are inspectModel's): no check.
  const unchecked = { plan: () => undefined, follows: () => true };
  const rope = options.config === undefined || options.config === null ? null : ropeOptionsFromConfig(options.config, unchecked);
  const sites = new Map();
  const freqSites = [];
  const tensorRef = (r, storage) => ({
    name: r.outName ?? (r.tensor.name || '(unnamed)'),
    holder: r.holder,
    path: r.path,
    shape: r.tensor.dims.map(Number),
    dtype: DTYPE_NAMES[r.tensor.dataType] ?? `onnx type ${r.tensor.dataType}`,
    dataType: r.tensor.dataType,
    storage: storage(r.tensor),
    tensor: r.tensor,
  });
  function visit(graph, path, parent) {
    const scope = scopeOf(graph, path, parent);
    for (const node of graph.node) {
      const ms = node.domain === 'com.microsoft';
      // the cos and sin cache inputs, and the attribute onnxruntime reads the op's layout from
      let pair = null;
      if (ms && node.opType === 'RotaryEmbedding') pair = [2, 3, 'interleaved'];
      // ONNX's own RotaryEmbedding (opset 23): X, cos_cache, sin_cache, position_ids.
      else if (standard(node) && node.opType === 'RotaryEmbedding') pair = [1, 2, 'interleaved'];
      else if (ms && node.opType === 'GroupQueryAttention' && intAttr(node, 'do_rotary', 0) === 1) pair = [7, 8, 'rotary_interleaved'];
      if (pair && node.input[pair[0]] && node.input[pair[1]]) {
        const cos = resolve(scope, node.input[pair[0]]);
        const sin = resolve(scope, node.input[pair[1]]);
        const consumer = { node: node.name, opType: node.opType, domain: node.domain, interleaved: intAttr(node, pair[2], 0) };
        cos.forEach((c, i) => {
          const s = sin.find((x) => x.branch === c.branch) ?? sin[i];
          if (!s) return;
          const key = c.tensor;
          if (!sites.has(key)) {
            const cosRef = tensorRef(c, model.storage);
            const sinRef = tensorRef(s, model.storage);
            sites.set(key, {
              kind: 'cache',
              cos: cosRef,
              sin: sinRef,
              group: groupOf(cosRef.name, c.branch),
              consumers: [],
              interleaved: null,
              rows: cosRef.shape[0] ?? 0,
              rotaryDim: 2 * (cosRef.shape[1] ?? 0),
              dtype: cosRef.dtype,
              through: c.through,
            });
          }
          sites.get(key).consumers.push(consumer);
        });
      }
      for (const [name, g] of subgraphs(node)) visit(g, `${path}/${node.opType}:${node.name}/${name}`, scope);
    }
    freqSites.push(...inverseFrequencies(graph, path, model.storage, tensorRef));
  }
  visit(model.proto.graph, 'graph', null);
  const out = [...sites.values()];
  for (const s of out) {
    const modes = new Set(s.consumers.map((c) => c.interleaved));
    s.interleaved = modes.size === 1 ? [...modes][0] : null;
    const segments = concatSegments(s, rope);
    if (segments !== null) {
      s.group = 'concat';
      s.segments = segments;
    }
  }
  return [...out, ...freqSites];
}

// Ops an inv_freq tensor passes through on its way to the angles.
const PASS = new Set(['MatMul', 'Mul', 'Reshape', 'Unsqueeze', 'Squeeze', 'Transpose', 'Concat', 'Cast', 'Expand', 'Tile', 'Identity', 'Gather', 'Slice', 'Div']);

// 1-D float initializers from which both a Cos and a Sin are reached through PASS ops.
function inverseFrequencies(graph, path, storage, tensorRef) {
  const consumers = new Map();
  for (const node of graph.node)
    for (const input of node.input) {
      if (!consumers.has(input)) consumers.set(input, []);
      consumers.get(input).push(node);
    }
  const found = [];
  for (const t of graph.initializer) {
    if (t.dims.length !== 1 || !(t.dataType in DTYPE_NAMES) || Number(t.dims[0]) < 2) continue;
    const reached = new Set();
    const via = [];
    const queue = [[t.name, 0]];
    const seen = new Set([t.name]);
    while (queue.length) {
      const [name, depth] = queue.shift();
      for (const node of consumers.get(name) ?? []) {
        if (node.opType === 'Cos' || node.opType === 'Sin') {
          reached.add(node.opType);
          via.push({ node: node.name, opType: node.opType, domain: node.domain, interleaved: null });
          continue;
        }
        if (!PASS.has(node.opType) || depth >= 8) continue;
        for (const out of node.output)
          if (!seen.has(out)) {
            seen.add(out);
            queue.push([out, depth + 1]);
          }
      }
    }
    if (reached.size === 2) {
      const ref = tensorRef({ tensor: t, holder: 'initializer', path }, storage);
      found.push({ kind: 'inv_freq', invFreq: ref, group: groupOf(ref.name, null), consumers: via, interleaved: null, rows: 0, rotaryDim: 2 * ref.shape[0], dtype: ref.dtype });
    }
  }
  return found;
}

/**
 * A config with RoPE (a rotary dim) and a model where no site was found: the
 * report's top-level finding, or null. rope: ropeOptionsFromConfig's result.
 */
export function noRopeFinding(reports, rope) {
  if (!rope || !(rope.rotaryDim > 0) || reports.length > 0) return null;
  return { mistake: 'no-rope-found', detail: `no RoPE found; the config says ${rope.options.ropeType} rotary dim ${rope.rotaryDim}, base ${rope.options.base}` };
}
