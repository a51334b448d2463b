// getRopeIndex on batches (issue 24, item 6): B × S token ids with an
// attention mask, as rows or as transformers.js-style tensors { data, dims },
// grids as tensors too, answered as rows or in transformers.js's int64 shapes
// (output: 'tensors'). Every case is checked against the independent Python
// reference (tests/py/rope_multimodal_reference.py, get_rope_index_batch: a
// transcription of transformers' get_mrope_index for a batch, written without
// reading sinpe's code): exact integers, every slot, every delta.
//
// transformers.js's own Qwen2VLForConditionalGeneration.get_rope_index runs on
// the same cases as a COMPARISON, never an expectation: the suite prints how
// many rows agree with the reference and how the others differ, and asserts
// only that the comparison ran.
//
// Needs SINPE_REPO_ROOT (tests/js/run.sh exports it), a Python 3 with numpy
// (SINPE_PYTHON, else Debian's /usr/bin/python3, else python3 on PATH) and the
// dev dependency @huggingface/transformers (run.sh links it). FULL=1 for more
// cases.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { getRopeIndex, vocabulary } from 'sinpe.wasm';
import { mulberry32 } from './fixtures/random.mjs';
import { runPython as runPythonScript } from './python-reference.mjs';

const FULL = process.env.FULL === '1';
const CASES = FULL ? 1200 : 300;

const runPython = (args, input) => runPythonScript('rope_multimodal_reference.py', args, input);

// ---------------------------------------------------------------------------
// Cases
// ---------------------------------------------------------------------------

// Qwen2-VL's special token ids (config.json) and its pad token (<|endoftext|>).
const IDS = { imageTokenId: 151655, videoTokenId: 151656, visionStartTokenId: 151652 };
const VISION_END = 151653;
const PAD = 151643;
const MODELS = ['qwen2-vl', 'qwen2.5-vl', 'qwen3-vl'];

const random = mulberry32(0xba7c4);
const pick = (list) => list[Math.floor(random() * list.length)];
const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
const textToken = () => int(1, 150000);

// One row's tokens: text, then blocks of images / videos (vision start, the
// block's tokens, vision end) with text between; its grids appended to `grids`.
function sequence(content, model, merge, grids) {
  const ids = [];
  const text = (least) => {
    for (let q = int(least, 6); q > 0; q--) ids.push(textToken());
  };
  text(1);
  const blocks = content === 'text' ? 0 : int(1, 3);
  for (let b = 0; b < blocks; b++) {
    const video = content === 'videos' || (content === 'mixed' && random() < 0.5);
    // Videos long in time (t > max(h, w) / merge) are where the older layouts differ.
    const t = video ? int(1, 5) : 1;
    const h = merge * int(1, 3);
    const w = merge * int(1, 3);
    const frames = model === 'qwen3-vl' && video ? t : 1;
    for (let f = 0; f < frames; f++) {
      if (f > 0) ids.push(textToken()); // Qwen3-VL: a timestamp token between frames
      ids.push(IDS.visionStartTokenId);
      const tokens = ((frames > 1 ? 1 : t) * h * w) / (merge * merge);
      for (let q = 0; q < tokens; q++) ids.push(video ? IDS.videoTokenId : IDS.imageTokenId);
      ids.push(VISION_END);
    }
    if (video) {
      grids.video.push([t, h, w]);
      grids.seconds.push(pick([1, 2, 0.5, 1.5, 4 / 3]));
    } else grids.image.push([t, h, w]);
    text(0);
  }
  return ids;
}

function makeCase(k) {
  const model = pick(MODELS);
  const merge = pick([1, 2, 2, 2]);
  const content = pick(['text', 'text', 'images', 'videos', 'mixed', 'mixed']);
  const padding = pick(['none', 'left', 'right', 'left']);
  const rows = pick([1, 1, 2, 2, 3, 4]);
  const grids = { image: [], video: [], seconds: [] };
  const ids = Array.from({ length: rows }, () => sequence(pick([content, content, 'text']), model, merge, grids));
  const columns = Math.max(...ids.map((r) => r.length)) + (padding !== 'none' && random() < 0.3 ? int(1, 3) : 0);
  let mask;
  if (padding === 'none') {
    // Equal lengths without padding: the shorter rows end with more text.
    for (const r of ids) while (r.length < columns) r.push(textToken());
    if (random() < 0.4) mask = ids.map((r) => r.map(() => 1));
  } else {
    mask = ids.map((r) => {
      const pad = columns - r.length;
      return padding === 'left' ? [...Array(pad).fill(0), ...r.map(() => 1)] : [...r.map(() => 1), ...Array(pad).fill(0)];
    });
    for (const r of ids) {
      const pad = Array(columns - r.length).fill(PAD);
      if (padding === 'left') r.unshift(...pad);
      else r.push(...pad);
    }
  }
  const opts = { ...IDS, model, spatialMergeSize: merge };
  if (grids.image.length || (content !== 'text' && random() < 0.3)) opts.imageGridThw = grids.image;
  if (grids.video.length) opts.videoGridThw = grids.video;
  if (model === 'qwen2.5-vl') {
    opts.tokensPerSecond = pick([1, 2, 4, 25]);
    if (grids.video.length && random() < 0.7) opts.secondPerGridTs = grids.seconds;
  }
  if (mask) opts.attentionMask = mask;
  return { name: `#${k} ${model} ${content} ${padding} B=${rows}`, rows, columns, inputIds: ids, opts, padding };
}

// The same values in one of the forms getRopeIndex takes.
const tensor = (Type, rows, dims) => ({ data: Type.from(rows.flat(), Type === BigInt64Array ? BigInt : Number), dims });
function asForm(form, rows) {
  switch (form) {
    case 'flat':
      return rows[0];
    case 'nested-bigint':
      return rows.map((r) => BigInt64Array.from(r, BigInt));
    case 'tensor-bigint':
      return tensor(BigInt64Array, rows, [rows.length, rows[0].length]);
    case 'tensor-int32':
      return tensor(Int32Array, rows, [rows.length, rows[0].length]);
    default:
      return rows;
  }
}
function gridsAs(form, grids) {
  if (form === 'flat') return grids.flat();
  if (form === 'tensor') return tensor(BigInt64Array, grids, [grids.length, 3]);
  return grids;
}

// The options of one call, in random forms (the values are the case's).
function callOptions(c, output) {
  const form = c.rows === 1 && random() < 0.3 ? 'flat' : pick(['nested', 'nested-bigint', 'tensor-bigint', 'tensor-int32']);
  const opts = { ...c.opts, output };
  if (opts.attentionMask) opts.attentionMask = asForm(form, opts.attentionMask);
  const gridForm = pick(['nested', 'flat', 'tensor']);
  if (opts.imageGridThw) opts.imageGridThw = gridsAs(gridForm, opts.imageGridThw);
  if (opts.videoGridThw) opts.videoGridThw = gridsAs(gridForm, opts.videoGridThw);
  return { ids: asForm(form, c.inputIds), opts, form, gridForm };
}

// ---------------------------------------------------------------------------
// The reference, and transformers.js
// ---------------------------------------------------------------------------

const state = {};
let transformers;

before(async () => {
  state.cases = Array.from({ length: CASES }, (_, k) => makeCase(k));
  const requests = state.cases.map((c) => ({ kind: 'ropeIndexBatch', name: c.name, inputIds: c.inputIds, ...c.opts }));
  const started = Date.now();
  state.answers = JSON.parse(runPython(['--json', '-'], JSON.stringify(requests)));
  state.pythonSeconds = (Date.now() - started) / 1000;
  assert.equal(state.answers.length, requests.length, 'one Python answer per case');
  const refused = state.answers.filter((a) => a.error !== undefined);
  assert.deepEqual(refused, [], 'the Python reference computes every case');
  // The full package imports in Node (onnxruntime-node, sharp are its dependencies).
  transformers = await import('@huggingface/transformers');
});

const summary = {};
after(() => {
  const lines = Object.entries(summary).map(([k, v]) => `${k}: ${v}`);
  console.log(`getRopeIndex batches against the Python reference (${state.pythonSeconds ?? '?'} s of Python):\n  ${lines.join('\n  ')}`);
  if (process.env.SINPE_SUMMARY && summary.transformersjs) {
    appendFileSync(process.env.SINPE_SUMMARY, `getRopeIndex batches: ${summary.sinpe}; transformers.js get_rope_index: ${summary.transformersjs}\n`);
  }
});

// Row b of the reference: positions[a][j] and its delta.
const wantRow = (answer, b) => ({ positions: [0, 1, 2].map((a) => answer.positionIds[a][b]), delta: answer.ropeDeltas[b][0] });

describe('getRopeIndex on batches against the Python reference (get_mrope_index)', () => {
  test("every case, output 'rows' and 'tensors', every input form: exact positions and deltas", () => {
    let rows = 0;
    let tokens = 0;
    const forms = new Set();
    state.cases.forEach((c, k) => {
      const answer = state.answers[k];
      const label = (form) => `${c.name} (${form})\n  inputIds ${JSON.stringify(c.inputIds)}\n  opts ${JSON.stringify(c.opts)}`;

      const byRows = callOptions(c, undefined);
      const got = getRopeIndex(byRows.ids, byRows.opts);
      forms.add(`${byRows.form}/${byRows.gridForm}`);
      const list = byRows.form === 'flat' ? [got] : got;
      assert.ok(Array.isArray(list) && list.length === c.rows, `${label(byRows.form)}: one result per row`);
      list.forEach((r, b) => {
        const want = wantRow(answer, b);
        assert.ok(r.positions instanceof Float64Array && r.positions.length === 3 * c.columns, `${c.name}: row ${b} positions`);
        for (let j = 0; j < c.columns; j++) {
          for (let a = 0; a < 3; a++) {
            if (r.positions[3 * j + a] !== want.positions[a][j]) {
              assert.fail(`${label(byRows.form)}: row ${b} token ${j} axis ${a}: ${r.positions[3 * j + a]}, reference ${want.positions[a][j]}`);
            }
          }
        }
        assert.equal(r.ropeDelta, want.delta, `${label(byRows.form)}: row ${b} ropeDelta`);
      });

      const byTensors = callOptions(c, 'tensors');
      const { positionIds, ropeDeltas } = getRopeIndex(byTensors.ids, byTensors.opts);
      forms.add(`${byTensors.form}/${byTensors.gridForm}`);
      assert.equal(positionIds.type, 'int64');
      assert.ok(positionIds.data instanceof BigInt64Array, 'positionIds.data is a BigInt64Array');
      assert.deepEqual(positionIds.dims, [3, c.rows, c.columns]);
      assert.equal(ropeDeltas.type, 'int64');
      assert.ok(ropeDeltas.data instanceof BigInt64Array, 'ropeDeltas.data is a BigInt64Array');
      assert.deepEqual(ropeDeltas.dims, [c.rows, 1]);
      const want = answer.positionIds.flat(2).map(BigInt);
      assert.equal(positionIds.data.length, want.length);
      want.forEach((v, i) => {
        if (positionIds.data[i] !== v) assert.fail(`${label(byTensors.form)}: positionIds.data[${i}] = ${positionIds.data[i]}, reference ${v}`);
      });
      assert.deepEqual(Array.from(ropeDeltas.data), answer.ropeDeltas.flat().map(BigInt), `${label(byTensors.form)}: ropeDeltas`);
      rows += c.rows;
      tokens += c.rows * c.columns;
    });
    assert.ok(rows > 300 && tokens > 3000, `${rows} rows, ${tokens} tokens compared`);
    const kinds = (key) => {
      const n = new Map();
      for (const c of state.cases) n.set(c[key], (n.get(c[key]) ?? 0) + 1);
      return [...n].map(([k, v]) => `${k} ${v}`);
    };
    summary.sinpe =
      `${state.cases.length} batches (${rows} rows, ${tokens} tokens; padding ${kinds('padding').join(', ')}; ` +
      `${forms.size} input forms) exact in both outputs`;
  });

  test('a batch is its rows: each row alone (its own grids) gives the same positions', () => {
    let compared = 0;
    for (const c of state.cases) {
      if (c.rows < 2) continue;
      const batch = getRopeIndex(c.inputIds, c.opts);
      // Hand each row the grids it takes from the batch's queues, in order.
      let image = 0;
      let video = 0;
      c.inputIds.forEach((ids, b) => {
        const mask = c.opts.attentionMask?.[b];
        const kept = ids.filter((_, j) => mask === undefined || mask[j] === 1);
        const runs = (id) => kept.filter((v, j) => v === id && kept[j - 1] !== id).length;
        const images = runs(IDS.imageTokenId);
        const videoRuns = runs(IDS.videoTokenId);
        // Qwen3-VL: one run per frame; count whole videos by their frames.
        let videos = videoRuns;
        if (c.opts.model === 'qwen3-vl') {
          videos = 0;
          for (let f = 0; f < videoRuns; videos++) f += c.opts.videoGridThw[video + videos][0];
        }
        const opts = { ...c.opts, attentionMask: mask };
        if (c.opts.imageGridThw) opts.imageGridThw = c.opts.imageGridThw.slice(image, image + images);
        if (c.opts.videoGridThw) opts.videoGridThw = c.opts.videoGridThw.slice(video, video + videos);
        if (c.opts.secondPerGridTs) opts.secondPerGridTs = c.opts.secondPerGridTs.slice(video, video + videos);
        image += images;
        video += videos;
        const alone = getRopeIndex(ids, opts);
        assert.deepEqual(alone.positions, batch[b].positions, `${c.name}: row ${b}`);
        assert.equal(alone.ropeDelta, batch[b].ropeDelta, `${c.name}: row ${b} delta`);
        compared++;
      });
    }
    assert.ok(compared > 100, `${compared} rows compared`);
  });
});

// ---------------------------------------------------------------------------
// transformers.js: a comparison
// ---------------------------------------------------------------------------

// Why a transformers.js row differs from the reference (several reasons may hold).
function reasons(c, b, got, want) {
  const mask = c.opts.attentionMask?.[b];
  const padded = (j) => mask !== undefined && mask[j] === 0;
  const textBranch = c.opts.imageGridThw === undefined && c.opts.videoGridThw === undefined;
  let unpadded = false;
  let paddedSlots = false;
  for (let a = 0; a < 3; a++) {
    for (let j = 0; j < c.columns; j++) {
      if (got.positions[a][j] !== want.positions[a][j]) {
        if (padded(j)) paddedSlots = true;
        else unpadded = true;
      }
    }
  }
  const out = [];
  if (unpadded) {
    const floorJB = got.positions.every((axis) => axis.every((p, j) => p === Math.floor(j / c.rows)));
    if (textBranch && !mask && c.rows > 1 && floorJB) out.push('text only, batch > 1, no mask: positions ⌊j/B⌋');
    else if (textBranch) out.push('text only: positions');
    else out.push('vision layout: positions of unpadded tokens');
  }
  if (paddedSlots) out.push('padded slots');
  if (got.delta !== want.delta) {
    const pads = mask ? mask.filter((m) => m === 0).length : 0;
    const largest = Math.max(...got.positions.flat());
    if (textBranch && mask && got.delta === largest + 1 + c.columns) out.push('text only: delta max + 1 + S');
    else if (pads > 0 && got.delta === want.delta - pads) out.push('padding counted in the delta');
    else out.push('delta');
  }
  return out.join(' + ');
}

// What the README's drop-in replacement does (the snippet's function).
// `model` and, for Qwen2.5-VL, `secondPerGridTs` are what transformers.js's
// get_rope_index is not given.
function dropIn(config, Tensor, { model, secondPerGridTs }) {
  return (input_ids, image_grid_thw, video_grid_thw, attention_mask) => {
    const { positionIds, ropeDeltas } = getRopeIndex(input_ids, {
      imageTokenId: config.image_token_id,
      videoTokenId: config.video_token_id,
      spatialMergeSize: config.vision_config.spatial_merge_size,
      model,
      tokensPerSecond: model === 'qwen2.5-vl' ? config.vision_config.tokens_per_second : undefined,
      secondPerGridTs,
      imageGridThw: image_grid_thw ?? undefined,
      videoGridThw: video_grid_thw ?? undefined,
      attentionMask: attention_mask ?? undefined,
      output: 'tensors',
    });
    return [new Tensor(positionIds.type, positionIds.data, positionIds.dims), new Tensor(ropeDeltas.type, ropeDeltas.data, ropeDeltas.dims)];
  };
}

describe("transformers.js's get_rope_index on the same cases (a comparison, not an expectation)", () => {
  test('counts of agreement with the reference, and the drop-in replacement in its place', () => {
    const { Qwen2VLForConditionalGeneration, Tensor } = transformers;
    const { get_rope_index } = Qwen2VLForConditionalGeneration.prototype;
    const int64 = (rows, dims) => new Tensor('int64', BigInt64Array.from(rows.flat(), BigInt), dims);
    const counts = new Map();
    let rows = 0;
    let ran = 0;
    let dropIns = 0;
    state.cases.forEach((c, k) => {
      const answer = state.answers[k];
      // A stand-in `this`: the model's class prototype (its get_rope_index
      // helpers) and the config fields the function reads. No weights, no session.
      const self = Object.create(Qwen2VLForConditionalGeneration.prototype);
      self.config = {
        image_token_id: IDS.imageTokenId,
        video_token_id: IDS.videoTokenId,
        vision_start_token_id: IDS.visionStartTokenId,
        vision_config: { spatial_merge_size: c.opts.spatialMergeSize, tokens_per_second: c.opts.tokensPerSecond },
      };
      const args = [
        int64(c.inputIds, [c.rows, c.columns]),
        c.opts.imageGridThw ? int64(c.opts.imageGridThw, [c.opts.imageGridThw.length, 3]) : null,
        c.opts.videoGridThw ? int64(c.opts.videoGridThw, [c.opts.videoGridThw.length, 3]) : null,
        c.opts.attentionMask ? int64(c.opts.attentionMask, [c.rows, c.columns]) : null,
      ];
      rows += c.rows;
      let theirs;
      try {
        theirs = get_rope_index.apply(self, args);
      } catch (e) {
        const why = `throws (${e.constructor.name}: ${e.message.slice(0, 60)}; ${c.opts.model} ${c.opts.videoGridThw ? 'with' : 'without'} videos)`;
        counts.set(why, (counts.get(why) ?? 0) + c.rows);
      }
      if (theirs) {
        ran++;
        const [positionIds, deltas] = theirs;
        const data = Array.from(positionIds.data, Number);
        for (let b = 0; b < c.rows; b++) {
          const got = {
            positions: [0, 1, 2].map((a) => data.slice((a * c.rows + b) * c.columns, (a * c.rows + b + 1) * c.columns)),
            delta: Number(deltas.data[b]),
          };
          const why = reasons(c, b, got, wantRow(answer, b)) || 'agree';
          counts.set(why, (counts.get(why) ?? 0) + 1);
        }
        // The drop-in answers in the same shapes (type, dims, data class) with the reference's values.
        const [ours, ourDeltas] = dropIn(self.config, Tensor, c.opts)(...args);
        assert.equal(ours.type, positionIds.type, `${c.name}: position ids type`);
        assert.deepEqual(ours.dims, positionIds.dims, `${c.name}: position ids dims`);
        assert.equal(ours.data.constructor, positionIds.data.constructor, `${c.name}: position ids data`);
        assert.equal(ourDeltas.type, deltas.type, `${c.name}: deltas type`);
        assert.deepEqual(ourDeltas.dims, deltas.dims, `${c.name}: deltas dims`);
        assert.deepEqual(ours.tolist(), answer.positionIds.map((a) => a.map((r) => r.map(BigInt))), `${c.name}: drop-in positions`);
        assert.deepEqual(Array.from(ourDeltas.data, Number), answer.ropeDeltas.flat(), `${c.name}: drop-in deltas`);
        dropIns++;
      }
    });
    assert.ok(ran > 0, 'transformers.js get_rope_index ran on no case');
    assert.ok(dropIns > 0, 'the drop-in ran on no case');
    const agree = counts.get('agree') ?? 0;
    const others = [...counts].filter(([k]) => k !== 'agree').sort((x, y) => y[1] - x[1]);
    summary.transformersjs =
      `${agree} of ${rows} rows agree with the reference (${ran} of ${state.cases.length} batches ran); ` +
      others.map(([k, v]) => `${k}: ${v}`).join('; ');
    summary['drop-in (output tensors → transformers.js Tensor)'] = `${dropIns} batches, same type/dims/data class as transformers.js, reference values`;
  });
});

// ---------------------------------------------------------------------------
// Bad batches
// ---------------------------------------------------------------------------

const MAX_TOKENS = vocabulary.limits.maxAbsPosition;
const FORMS = 'an array or a typed array \\(one sequence, or an array of rows\\), or a tensor \\{ data, dims: \\[rows, columns\\] \\}';
// A typed array whose buffer was transferred away.
const detached = () => {
  const a = new Int32Array(2);
  structuredClone(a.buffer, { transfer: [a.buffer] });
  return a;
};

describe('getRopeIndex: bad batches name the argument; nothing is kept between calls', () => {
  test('each element is read once: the first, read to tell a sequence from a batch, is not read again', () => {
    let reads = 0;
    const ids = [0, 5, 6];
    Object.defineProperty(ids, 0, {
      get() {
        reads++;
        return reads === 1 ? 4 : 9; // a second read would see 9
      },
    });
    const got = getRopeIndex(ids, { imageTokenId: 9 });
    assert.equal(reads, 1);
    // 4 is text: positions 0, 1, 2 on every axis (a 9 would be an image run without a grid)
    assert.deepEqual(Array.from(got.positions), [0, 0, 0, 1, 1, 1, 2, 2, 2]);
  });

  test("a batch's first row is read once, and its length once: the row read to tell a sequence from a batch is reused", () => {
    let rowReads = 0;
    let lengthReads = 0;
    // Row 0 counts the reads of its length; a second read would see 3, not the 2 entries it has.
    const row0 = new Proxy([4, 5], {
      get(target, key, receiver) {
        if (key === 'length') return ++lengthReads === 1 ? 2 : 3;
        return Reflect.get(target, key, receiver);
      },
    });
    const ids = [undefined, [6, 7]];
    Object.defineProperty(ids, 0, {
      get() {
        rowReads++;
        return rowReads === 1 ? row0 : [9, 9]; // a second read would see another row
      },
    });
    const got = getRopeIndex(ids, { imageTokenId: 9 });
    assert.equal(rowReads, 1, 'inputIds[0] read once');
    assert.equal(lengthReads, 1, 'inputIds[0].length read once');
    // Two text rows of two tokens: positions 0, 1 on every axis (a 9 would be an image run without a grid).
    assert.equal(got.length, 2);
    for (const r of got) assert.deepEqual(Array.from(r.positions), [0, 0, 0, 1, 1, 1]);
  });

  const I = IDS.imageTokenId;
  const image = [7, I, I, I, I, 8];
  const two = { data: new BigInt64Array(6), dims: [2, 3] };
  const cases = [
    ['rows of different lengths', () => getRopeIndex([[1, 2, 3], [1, 2]]), RangeError, /inputIds\[1\] must have 3 entries like inputIds\[0\], got 2/],
    ['a row not a list', () => getRopeIndex([[1, 2], 3]), TypeError, /inputIds\[1\] must be an array or a typed array/],
    ['an empty row', () => getRopeIndex([[], []]), RangeError, /inputIds\[0\] must hold at least one token/],
    ['a row with a fraction', () => getRopeIndex([[1, 2], [3, 4.5]]), RangeError, /inputIds\[1\]\[1\] must be a safe integer/],
    ['tensor dims of three', () => getRopeIndex({ data: new BigInt64Array(6), dims: [1, 2, 3] }), RangeError, /inputIds\.dims must be \[rows, columns\]/],
    ['tensor data short of its dims', () => getRopeIndex({ data: new BigInt64Array(5), dims: [2, 3] }), RangeError, /inputIds\.data must hold 2 × 3 values \(its dims\), got 5/],
    ['tensor without dims', () => getRopeIndex({ data: new BigInt64Array(5) }), TypeError, /inputIds must be an array or a typed array .*, got Object without dims/],
    ['tensor data not a list', () => getRopeIndex({ data: 'abc', dims: [1, 3] }), TypeError, /inputIds\.data must be an array or a typed array/],
    ['tensor data with a string', () => getRopeIndex({ data: [1, '2'], dims: [1, 2] }), TypeError, /inputIds\.data\[1\] must be an integer/],
    ['mask of another shape', () => getRopeIndex([[1, 2, 3], [1, 2, 3]], { attentionMask: [[1, 1, 1]] }), RangeError, /options\.attentionMask must be \[2, 3\] like inputIds, got \[1, 3\]/],
    ['mask of another width', () => getRopeIndex([[1, 2, 3], [1, 2, 3]], { attentionMask: [[1, 1], [1, 1]] }), RangeError, /options\.attentionMask must be \[2, 3\] like inputIds, got \[2, 2\]/],
    ['one mask for a batch', () => getRopeIndex(two, { attentionMask: [1, 1, 1] }), RangeError, /options\.attentionMask must be \[2, 3\] like inputIds, got one sequence of 3/],
    ['a batch mask for one sequence', () => getRopeIndex([1, 2, 3], { attentionMask: [[1, 1, 1]] }), RangeError, /options\.attentionMask must have one entry per token \(3\), got \[1, 3\]/],
    ['a row masked whole', () => getRopeIndex(two, { attentionMask: { data: [1, 1, 1, 0, 0, 0], dims: [2, 3] } }), RangeError, /options\.attentionMask\[1\] masks every token/],
    ['a mask value of 2', () => getRopeIndex(two, { attentionMask: { data: [1, 1, 1, 0, 2, 1], dims: [2, 3] } }), RangeError, /options\.attentionMask\.data\[4\] must be 0 or 1/],
    ['more image runs than grids across the rows', () => getRopeIndex([image, image], { imageTokenId: I, imageGridThw: [[1, 4, 4]] }), RangeError, /more image runs than options\.imageGridThw has grids \(1\): the run at inputIds\[1\]\[1\] has none/],
    ['more grids than runs across the rows', () => getRopeIndex([image, image], { imageTokenId: I, imageGridThw: [[1, 4, 4], [1, 4, 4], [1, 4, 4]] }), RangeError, /options\.imageGridThw has 3 grids but inputIds has 2 image runs/],
    ['a grid tensor of pairs', () => getRopeIndex([image], { imageTokenId: I, imageGridThw: { data: [4, 4], dims: [1, 2] } }), RangeError, /options\.imageGridThw\.dims must be \[grids, 3\]/],
    ['a grid larger than the input', () => getRopeIndex([image], { imageTokenId: I, imageGridThw: [[1, 4096, 4096]] }), RangeError, /options\.imageGridThw\[0\] = \[1, 4096, 4096\] needs 4194304 tokens; inputIds holds 6/],
    ['Qwen3-VL frames past the input', () => getRopeIndex([image], { videoTokenId: I, model: 'qwen3-vl', videoGridThw: [[2 ** 40, 2, 2]] }), RangeError, /options\.videoGridThw\[0\] = \[1099511627776, 2, 2\] needs 1099511627776 tokens/],
    ['unknown output', () => getRopeIndex([1, 2], { output: 'tensor' }), RangeError, /options\.output must be one of rows, tensors; got "tensor"/],
    ['output not a string', () => getRopeIndex([1, 2], { output: 1 }), TypeError, /options\.output must be a string/],
    // Neither a list nor an object: the forms listed, not read as a tensor.
    ['inputIds a string', () => getRopeIndex('1 2 3'), TypeError, new RegExp(`^sinpe: inputIds must be ${FORMS}, got "1 2 3"$`)],
    ['inputIds null', () => getRopeIndex(null), TypeError, new RegExp(`^sinpe: inputIds must be ${FORMS}, got null$`)],
    ['inputIds a number', () => getRopeIndex(5), TypeError, new RegExp(`^sinpe: inputIds must be ${FORMS}, got 5$`)],
    // A tensor's dims: a list of at most 8 integers, two of them, none negative.
    ['tensor dims of nine', () => getRopeIndex({ data: [], dims: [1, 1, 1, 1, 1, 1, 1, 1, 1] }), RangeError, /^sinpe: inputIds\.dims must hold at most 8 dimensions, got 9$/],
    ['tensor dims with a string', () => getRopeIndex({ data: [1], dims: [1, 'a'] }), TypeError, /^sinpe: inputIds\.dims\[1\] must be an integer, got "a"$/],
    ['tensor dims negative', () => getRopeIndex({ data: [], dims: [-1, 2] }), RangeError, /^sinpe: inputIds\.dims must be \[rows, columns\], got \[-1, 2\]$/],
    ['tensor dims of three, shown', () => getRopeIndex({ data: new BigInt64Array(6), dims: [1, 2, 3] }), RangeError, /^sinpe: inputIds\.dims must be \[rows, columns\], got \[1, 2, 3\]$/],
    ['tensor data detached', () => getRopeIndex({ data: detached(), dims: [1, 2] }), TypeError, /^sinpe: inputIds\.data is detached/],
    // bigint ids and dims: safe integers only (±(2^53 − 1)), the bounds included.
    ['a bigint id past 2^53 − 1', () => getRopeIndex([2n ** 53n]), RangeError, /^sinpe: inputIds\[0\] must be a safe integer, got 9007199254740992n$/],
    ['a bigint id below −(2^53 − 1)', () => getRopeIndex([-(2n ** 53n)]), RangeError, /^sinpe: inputIds\[0\] must be a safe integer, got -9007199254740992n$/],
    ['bigint dims of 2^53 − 1 columns: past the token limit', () => getRopeIndex({ data: [1], dims: [1n, 2n ** 53n - 1n] }), RangeError, new RegExp(`^sinpe: inputIds must hold at most ${vocabulary.limits.maxAbsPosition} tokens, got 9007199254740991$`)],
    // A tensor of no tokens: either size 0, each named with the dims.
    ['tensor dims [0, 3]: no rows', () => getRopeIndex({ data: [], dims: [0, 3] }), RangeError, /^sinpe: inputIds must hold at least one token \(dims \[0, 3\]\)$/],
    ['tensor dims [2, 0]: no columns', () => getRopeIndex({ data: [], dims: [2, 0] }), RangeError, /^sinpe: inputIds must hold at least one token \(dims \[2, 0\]\)$/],
    // The token limit of a row is maxAbsPosition tokens, that many included (positions 0 … maxAbsPosition − 1):
    // such dims pass it and are refused only for data short of them; one more is past it, "a row" in a batch.
    ['tensor dims of maxAbsPosition columns: within the token limit', () => getRopeIndex({ data: [1], dims: [1, MAX_TOKENS] }), RangeError, new RegExp(`^sinpe: inputIds\\.data must hold 1 × ${MAX_TOKENS} values \\(its dims\\), got 1$`)],
    ['tensor dims of two rows of maxAbsPosition + 1 columns', () => getRopeIndex({ data: [1], dims: [2, MAX_TOKENS + 1] }), RangeError, new RegExp(`^sinpe: inputIds must hold at most ${MAX_TOKENS} tokens a row, got ${MAX_TOKENS + 1}$`)],
    // The first row is read as a list under its own name.
    ['a first row detached', () => getRopeIndex([detached(), [1, 2]]), TypeError, /^sinpe: inputIds\[0\] is detached/],
    ['bigint dims of −(2^53 − 1) rows: negative', () => getRopeIndex({ data: [1], dims: [-(2n ** 53n - 1n), 1n] }), RangeError, /^sinpe: inputIds\.dims must be \[rows, columns\], got \[-9007199254740991, 1\]$/],
  ];
  for (const [label, call, ErrorClass, pattern] of cases) {
    test(label, () => {
      assert.throws(call, (e) => {
        assert.ok(e instanceof ErrorClass, `${label}: ${e?.constructor?.name}: ${e?.message}`);
        assert.match(e.message, pattern, label);
        return true;
      });
      const [row] = getRopeIndex([[1, 2]]);
      assert.deepEqual(Array.from(row.positions), [0, 0, 0, 1, 1, 1], `${label}: still right afterwards`);
    });
  }

  test("a tensor's dims are checked against the core's result limit before its data is read", () => {
    const data = new Proxy([], {
      get(target, key) {
        throw new Error(`data.${String(key)} read before the dims were checked`);
      },
    });
    for (const dims of [
      [2 ** 20, 2 ** 20], // 2^40 tokens × 3 values: past maxElements
      [1, 2 ** 25], // one row past maxAbsPosition tokens
    ]) {
      assert.throws(
        () => getRopeIndex({ data, dims }),
        (e) => e instanceof RangeError && /^sinpe: inputIds/.test(e.message),
      );
    }
    // Likewise a batch of rows: the row count times the first row's length, before any row is walked.
    const row = new Proxy(new Array(2 ** 20), {
      get(target, key) {
        if (typeof key === 'string' && /^\d+$/.test(key)) throw new Error(`a row's element ${key} read before the size check`);
        return Reflect.get(target, key);
      },
    });
    const outer = new Array(2 ** 10).fill(row);
    assert.throws(
      () => getRopeIndex(outer),
      (e) => e instanceof RangeError && /^sinpe: inputIds: 1073741824 × 3 values exceed/.test(e.message),
    );
  });
});

test('ids, mask and grids over a SharedArrayBuffer are read (copied) like any typed array', () => {
  const shared = (Type, values) => {
    const a = new Type(new SharedArrayBuffer(values.length * Type.BYTES_PER_ELEMENT));
    a.set(values);
    return a;
  };
  const I = IDS.imageTokenId;
  const ids = [5, I, I, I, I, 6];
  const plain = getRopeIndex(ids, { imageTokenId: I, imageGridThw: [[1, 4, 4]], attentionMask: [1, 1, 1, 1, 1, 1] });
  const fromShared = getRopeIndex(shared(Int32Array, ids), {
    imageTokenId: I,
    imageGridThw: shared(Int32Array, [1, 4, 4]),
    attentionMask: shared(Uint8Array, [1, 1, 1, 1, 1, 1]),
  });
  assert.deepEqual(fromShared, plain);
  assert.equal(plain.ropeDelta, 3 + 1 - 6);
});

test("output 'tensors' holds positions past 2^32 exactly (Qwen2.5-VL frames far apart in time)", () => {
  // get_mrope_index's layout of a video run: t ids current + (arange(t) × interval).long(), interval
  // tokensPerSecond × int(secondPerGridTs), h and w ids current + arange(h / merge), arange(w / merge); the text
  // after it from current + max(h, w) / merge. A video of 2 frames of 1 × 1 at interval 3 · 2^31 (exact in float32):
  // t ids 0 and 3 · 2^31 = 0x1_8000_0000, whose int64 has a high half of 1 and a low half with its top bit set.
  // The text token that follows (position 1) comes after it on the same axis.
  const V = IDS.videoTokenId;
  const far = 3 * 2 ** 31;
  const ids = [[V, V, 7], [7, V, V]];
  const opts = { videoTokenId: V, model: 'qwen2.5-vl', spatialMergeSize: 1, videoGridThw: [[2, 1, 1], [2, 1, 1]], tokensPerSecond: far, secondPerGridTs: [1, 1] };
  // Row 0: t [0, far, 1], h [0, 0, 1], w [0, 0, 1]; row 1: text at 0, the video from 1: t [0, 1, 1 + far], h w [0, 1, 1].
  const want = [
    [[0, far, 1], [0, 1, 1 + far]],
    [[0, 0, 1], [0, 1, 1]],
    [[0, 0, 1], [0, 1, 1]],
  ];
  const { positionIds, ropeDeltas } = getRopeIndex(ids, { ...opts, output: 'tensors' });
  assert.deepEqual(positionIds.dims, [3, 2, 3]);
  assert.deepEqual(Array.from(positionIds.data), want.flat(2).map(BigInt));
  // Each row's delta: its largest position + 1 − its 3 tokens.
  assert.deepEqual(Array.from(ropeDeltas.data), [BigInt(far + 1 - 3), BigInt(far + 1 + 1 - 3)]);
  const rows = getRopeIndex(ids, opts);
  rows.forEach((r, b) => {
    assert.deepEqual(Array.from(r.positions), [0, 1, 2].flatMap((j) => [0, 1, 2].map((a) => want[a][b][j])), `row ${b}`);
  });
});

test('a Qwen2.5-VL temporal interval whose positions pass 2^53 − 1 (or float32, where torch gives garbage) is refused, naming it', () => {
  // get_mrope_index: frame k of a video at position current + int(float32(k × interval)); positions are exact
  // integers only below 2^53, and float32's k × interval is infinite past about 3.4e38 (and 0 × inf is NaN).
  const V = IDS.videoTokenId;
  const ids = [V, V, 7];
  const base = { videoTokenId: V, model: 'qwen2.5-vl', spatialMergeSize: 1, videoGridThw: [[2, 1, 1]] };
  for (const [tokensPerSecond, secondPerGridTs, interval, frame, why] of [
    [2 ** 60, [1], 2 ** 60, 1, 'past the largest exact integer 2^53 − 1'], // finite, exact in float32, but frame 1 lands at 2^60
    [2e38, [2], 4e38, 0, "past float32's range"], // an infinite interval in float32: frame 0 × it is already NaN
  ]) {
    for (const output of ['rows', 'tensors']) {
      assert.throws(
        () => getRopeIndex(ids, { ...base, tokensPerSecond, secondPerGridTs, output }),
        (e) =>
          e instanceof RangeError &&
          e.message.startsWith('sinpe: ') &&
          e.message.includes(`temporal interval ${interval} (options.tokensPerSecond × options.secondPerGridTs[0])`) &&
          e.message.includes(`frame ${frame} of options.videoGridThw[0]`) &&
          e.message.includes(why),
        `${output}, interval ${interval}`,
      );
    }
  }
  // just below the limit: frame 1 at 2^52 (exact in float32 and in float64), then the text token after it at 1
  const near = getRopeIndex(ids, { ...base, tokensPerSecond: 2 ** 52, secondPerGridTs: [1] });
  assert.deepEqual(Array.from(near.positions), [0, 0, 0, 2 ** 52, 0, 0, 1, 1, 1]);
});
