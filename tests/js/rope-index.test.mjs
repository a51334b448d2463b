// getRopeIndex: the M-RoPE position ids of one text + image + video sequence,
// against small cases worked by hand from transformers'
// modeling_rope_utils.get_mrope_index ('interleaved_runs' layout, which
// Qwen2-VL, Qwen2.5-VL and Qwen3-VL's get_rope_index call), and bad input
// refused with the argument named.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import sinpe, { getRopeIndex } from 'sinpe.wasm';

// Qwen2-VL's special token ids (config.json: vision_start_token_id,
// vision_end_token_id, image_token_id, video_token_id); T is any text token.
const VS = 151652;
const VE = 151653;
const I = 151655;
const V = 151656;
const T = 100;
const IDS = { imageTokenId: I, videoTokenId: V };
const rep = (id, n) => Array(n).fill(id);

let pe;
before(async () => {
  pe = await sinpe();
});

// Token-major triples (t, h, w) → the flat layout getRopeIndex returns.
const flat = (triples) => Float64Array.from(triples.flat());
const same = (p) => [p, p, p];
// A merged grid of gh × gw patches per frame, frames at the given temporal
// offsets, everything offset by `start` (get_mrope_vision_positions).
function grid(start, temporal, gh, gw) {
  const out = [];
  for (const dt of temporal) for (let h = 0; h < gh; h++) for (let w = 0; w < gw; w++) out.push([start + dt, start + h, start + w]);
  return out;
}

function check(got, positions, ropeDelta, label) {
  assert.ok(got.positions instanceof Float64Array, `${label}: positions is a Float64Array`);
  assert.deepEqual(Array.from(got.positions), Array.from(flat(positions)), `${label}: positions`);
  assert.equal(got.ropeDelta, ropeDelta, `${label}: ropeDelta`);
  // The named export and the encoder's method are one function.
  return got;
}

describe('getRopeIndex: hand-worked sequences', () => {
  test('text only: 0 … n−1 on every axis, ropeDelta 0', () => {
    check(getRopeIndex([T, T + 1, T + 2, T + 3, T + 4]), [0, 1, 2, 3, 4].map(same), 0, 'text');
    check(getRopeIndex([T, T, T], {}), [0, 1, 2].map(same), 0, 'text, empty options');
  });

  test('one image (Qwen2-VL): text, a 2 × 2 merged grid at the current position, text on from max(h, w)', () => {
    // T T VS | 4 image tokens ([1, 4, 4] merged by 2) | VE T T
    const ids = [T, T, VS, ...rep(I, 4), VE, T, T];
    const want = [...[0, 1, 2].map(same), ...grid(3, [0], 2, 2), ...[5, 6, 7].map(same)];
    const opts = { ...IDS, visionStartTokenId: VS, imageGridThw: [[1, 4, 4]] };
    check(getRopeIndex(ids, opts), want, 7 + 1 - 10, 'image');
    check(pe.getRopeIndex(ids, opts), want, -2, 'pe.getRopeIndex');
    // The grid as a flat list, a typed array, bigints (as transformers.js keeps ids and grids).
    check(getRopeIndex(ids, { ...opts, imageGridThw: [1, 4, 4] }), want, -2, 'flat grid');
    check(getRopeIndex(ids, { ...opts, imageGridThw: new Int32Array([1, 4, 4]) }), want, -2, 'Int32Array grid');
    check(
      getRopeIndex(BigInt64Array.from(ids, BigInt), { ...opts, imageTokenId: BigInt(I), imageGridThw: BigInt64Array.from([1n, 4n, 4n]) }),
      want,
      -2,
      'BigInt64Array ids',
    );
    // The same for every model: images do not depend on it.
    for (const model of ['qwen2-vl', 'qwen2.5-vl', 'qwen3-vl']) check(getRopeIndex(ids, { ...opts, model }), want, -2, model);
  });

  test("the case another port pins against transformers 5.12.1 (mini-sglang's test_get_rope_index_image_compression)", () => {
    // 2 text, a [1, 4, 4] image (4 tokens after the 2 × 2 merge), 3 text: the text resumes at 2 + max(4, 4) / 2 = 4.
    const { positions } = getRopeIndex([1, 1, ...rep(999, 4), 2, 2, 2], { imageTokenId: 999, imageGridThw: [[1, 4, 4]] });
    const axis = (a) => Array.from({ length: 9 }, (_, i) => positions[3 * i + a]);
    assert.deepEqual(axis(0), [0, 1, 2, 2, 2, 2, 4, 5, 6]);
    assert.deepEqual(axis(1), [0, 1, 2, 2, 3, 3, 4, 5, 6]);
    assert.deepEqual(axis(2), [0, 1, 2, 3, 2, 3, 4, 5, 6]);
  });

  test('a wide image: the text after it starts max(h, w) / merge on; spatialMergeSize 1', () => {
    // [1, 2, 6] merged by 2 → 1 × 3 tokens
    const ids = [T, ...rep(I, 3), T];
    check(getRopeIndex(ids, { ...IDS, imageGridThw: [[1, 2, 6]] }), [same(0), ...grid(1, [0], 1, 3), same(4)], 4 + 1 - 5, 'wide');
    // merge 1: [1, 2, 3] is 6 tokens
    const ids1 = [...rep(I, 6), T];
    check(getRopeIndex(ids1, { ...IDS, spatialMergeSize: 1, imageGridThw: [[1, 2, 3]] }), [...grid(0, [0], 2, 3), same(3)], 3 + 1 - 7, 'merge 1');
  });

  test('a video (Qwen2-VL): frames 1 apart on the temporal axis; the text after it starts max(h, w) / merge on', () => {
    // The docstring's example of Qwen2VLModel.get_rope_index: 3 frames of 2 × 2, then 5 text tokens.
    const ids = [...rep(V, 12), ...rep(T, 5)];
    const want = [...grid(0, [0, 1, 2], 2, 2), ...[2, 3, 4, 5, 6].map(same)];
    check(getRopeIndex(ids, { ...IDS, model: 'qwen2-vl', videoGridThw: [[3, 4, 4]] }), want, 6 + 1 - 17, 'qwen2-vl video');
  });

  test('a video (Qwen2.5-VL): frames tokensPerSecond × int(secondPerGridT) apart', () => {
    const ids = [...rep(V, 8), T, T];
    const opts = { ...IDS, model: 'qwen2.5-vl', videoGridThw: [[2, 4, 4]] };
    // 25 tokens per second, 2 s per frame: 0 and 50 (the docstring's interval).
    check(getRopeIndex(ids, { ...opts, tokensPerSecond: 25, secondPerGridTs: [2] }), [...grid(0, [0, 50], 2, 2), same(2), same(3)], 50 + 1 - 10, '50');
    // No secondPerGridTs: 1 s.
    check(getRopeIndex(ids, { ...opts, tokensPerSecond: 2 }), [...grid(0, [0, 2], 2, 2), same(2), same(3)], 3 + 1 - 10, '2');
    // int(0.5) = 0: every frame at the same temporal position.
    check(getRopeIndex(ids, { ...opts, tokensPerSecond: 2, secondPerGridTs: [0.5] }), [...grid(0, [0, 0], 2, 2), same(2), same(3)], 3 + 1 - 10, '0.5 s');
    // 0 s per grid is allowed (only a negative one is refused): every frame at the same temporal position.
    check(getRopeIndex(ids, { ...opts, tokensPerSecond: 2, secondPerGridTs: [0] }), [...grid(0, [0, 0], 2, 2), same(2), same(3)], 3 + 1 - 10, '0 s');
    // int(1.9) = 1.
    check(getRopeIndex(ids, { ...opts, tokensPerSecond: 2, secondPerGridTs: [1.9] }), [...grid(0, [0, 2], 2, 2), same(2), same(3)], -6, '1.9 s');
  });

  test('a video (Qwen3-VL): each frame its own run after its timestamp, one grid of t = 1 per frame', () => {
    // T VS | frame 0 | VE T VS | frame 1 | VE (the T between is the timestamp text)
    const ids = [T, VS, ...rep(V, 4), VE, T, VS, ...rep(V, 4), VE];
    const want = [same(0), same(1), ...grid(2, [0], 2, 2), same(4), same(5), same(6), ...grid(7, [0], 2, 2), same(9)];
    const opts = { ...IDS, visionStartTokenId: VS, videoGridThw: [[2, 4, 4]] };
    check(getRopeIndex(ids, { ...opts, model: 'qwen3-vl' }), want, 9 + 1 - 14, 'qwen3-vl');
    // Read as Qwen2-VL, the first run is short of its grid's 8 tokens: refused, not misread.
    assert.throws(() => getRopeIndex(ids, { ...opts, model: 'qwen2-vl' }), /video run at inputIds\[2\] has 4 tokens; options\.videoGridThw\[0\] = \[2, 4, 4\] with spatialMergeSize 2 needs 8/);
  });

  test('an image and a video: grids taken in order per kind', () => {
    const ids = [VS, ...rep(I, 4), VE, VS, ...rep(V, 8), VE];
    const want = [same(0), ...grid(1, [0], 2, 2), same(3), same(4), ...grid(5, [0, 1], 2, 2), same(7)];
    check(getRopeIndex(ids, { ...IDS, model: 'qwen2-vl', imageGridThw: [[1, 4, 4]], videoGridThw: [[2, 4, 4]] }), want, 7 + 1 - 16, 'image + video');
  });

  test('attention mask: padded tokens skipped, left at 0; ropeDelta counts the unpadded tokens', () => {
    const ids = [0, 0, T, VS, ...rep(I, 4), VE];
    const mask = [0, 0, 1, 1, 1, 1, 1, 1, 1];
    const want = [[0, 0, 0], [0, 0, 0], same(0), same(1), ...grid(2, [0], 2, 2), same(4)];
    check(getRopeIndex(ids, { ...IDS, imageGridThw: [[1, 4, 4]], attentionMask: mask }), want, 4 + 1 - 7, 'left padding');
    check(getRopeIndex(ids, { ...IDS, imageGridThw: [[1, 4, 4]], attentionMask: BigInt64Array.from(mask, BigInt) }), want, -2, 'bigint mask');
    // Text only, right padding.
    check(getRopeIndex([T, T, T, 0], { attentionMask: [1, 1, 1, 0] }), [same(0), same(1), same(2), [0, 0, 0]], 0, 'right padding');
  });

  test('the positions feed ropeCache token-major: three values per token', () => {
    const ids = [T, VS, ...rep(I, 4), VE];
    const { positions } = getRopeIndex(ids, { ...IDS, imageGridThw: [[1, 4, 4]] });
    assert.equal(positions.length, ids.length * 3);
  });
});

describe('getRopeIndex: bad input names the argument; nothing is kept between calls', () => {
  const image = [T, VS, ...rep(I, 4), VE];
  const video = [T, VS, ...rep(V, 8), VE];
  const cases = [
    ['inputIds not a list', () => getRopeIndex('1 2 3'), TypeError, /inputIds must be an array or a typed array/],
    ['inputIds empty', () => getRopeIndex([]), RangeError, /inputIds must hold at least one token/],
    ['inputIds with a fraction', () => getRopeIndex([1, 2.5]), RangeError, /inputIds\[1\] must be a safe integer/],
    ['inputIds with a string', () => getRopeIndex([1, '2']), TypeError, /inputIds\[1\] must be an integer/],
    ['inputIds with NaN', () => getRopeIndex([NaN]), TypeError, /inputIds\[0\] must be an integer/],
    ['a DataView', () => getRopeIndex(new DataView(new ArrayBuffer(8))), TypeError, /inputIds must be an array/],
    ['options not an object', () => getRopeIndex([1], 'qwen2-vl'), TypeError, /options must be an object/],
    ['unknown option', () => getRopeIndex([1], { imageTokenID: I }), TypeError, /unknown option 'imageTokenID'; getRopeIndex takes: imageTokenId/],
    ['image grid without imageTokenId', () => getRopeIndex(image, { imageGridThw: [[1, 4, 4]] }), TypeError, /options\.imageTokenId is missing/],
    ['video grid without videoTokenId', () => getRopeIndex(video, { model: 'qwen2-vl', videoGridThw: [[2, 4, 4]] }), TypeError, /options\.videoTokenId is missing/],
    ['video grid without model', () => getRopeIndex(video, { ...IDS, videoGridThw: [[2, 4, 4]] }), TypeError, /options\.model is missing/],
    ['unknown model', () => getRopeIndex(image, { ...IDS, model: 'qwen4-vl' }), RangeError, /options\.model must be one of qwen2-vl, qwen2\.5-vl, qwen3-vl/],
    ['model a number', () => getRopeIndex(image, { ...IDS, model: 2 }), TypeError, /options\.model must be a string/],
    ['same image and video token', () => getRopeIndex(image, { imageTokenId: I, videoTokenId: I }), RangeError, /options\.videoTokenId must differ/],
    ['more image runs than grids', () => getRopeIndex([...image, ...image], { ...IDS, imageGridThw: [[1, 4, 4]] }), RangeError, /more image runs than options\.imageGridThw has grids \(1\): the run at inputIds\[9\] has none/],
    ['more grids than image runs', () => getRopeIndex(image, { ...IDS, imageGridThw: [[1, 4, 4], [1, 4, 4]] }), RangeError, /options\.imageGridThw has 2 grids but inputIds has 1 image runs/],
    ['image tokens but no grid', () => getRopeIndex(image, { ...IDS }), RangeError, /more image runs than options\.imageGridThw has grids \(0\)/],
    ['a run longer than its grid', () => getRopeIndex([T, ...rep(I, 5)], { ...IDS, imageGridThw: [[1, 4, 4]] }), RangeError, /image run at inputIds\[1\] has 5 tokens; .*needs 4/],
    ['grid h not a multiple of the merge size', () => getRopeIndex(image, { ...IDS, imageGridThw: [[1, 3, 4]] }), RangeError, /options\.imageGridThw\[0\]\[1\] \(3\) must be a multiple of spatialMergeSize \(2\)/],
    ['grid with a zero', () => getRopeIndex(image, { ...IDS, imageGridThw: [[0, 4, 4]] }), RangeError, /options\.imageGridThw\[0\]\[0\] must be a positive integer/],
    ['grid of two values', () => getRopeIndex(image, { ...IDS, imageGridThw: [[4, 4]] }), RangeError, /options\.imageGridThw\[0\] must be \[t, h, w\]/],
    ['flat grid of four values', () => getRopeIndex(image, { ...IDS, imageGridThw: [1, 4, 4, 1] }), RangeError, /options\.imageGridThw must hold \[t, h, w\] triples/],
    ['grid not a list', () => getRopeIndex(image, { ...IDS, imageGridThw: { t: 1 } }), TypeError, /options\.imageGridThw must be an array/],
    ['spatialMergeSize 0', () => getRopeIndex(image, { ...IDS, spatialMergeSize: 0, imageGridThw: [[1, 4, 4]] }), RangeError, /options\.spatialMergeSize must be a positive integer/],
    ['no vision start before a run', () => getRopeIndex([T, ...rep(I, 4)], { ...IDS, visionStartTokenId: VS, imageGridThw: [[1, 4, 4]] }), RangeError, /inputIds\[1\] starts a image run without options\.visionStartTokenId/],
    ['tokensPerSecond for Qwen2-VL', () => getRopeIndex(video, { ...IDS, model: 'qwen2-vl', tokensPerSecond: 2, videoGridThw: [[2, 4, 4]] }), RangeError, /options\.tokensPerSecond is read only for options\.model 'qwen2\.5-vl'/],
    ['secondPerGridTs for Qwen3-VL', () => getRopeIndex(video, { ...IDS, model: 'qwen3-vl', secondPerGridTs: [1], videoGridThw: [[2, 4, 4]] }), RangeError, /options\.secondPerGridTs is read only/],
    ['Qwen2.5-VL video without tokensPerSecond', () => getRopeIndex(video, { ...IDS, model: 'qwen2.5-vl', videoGridThw: [[2, 4, 4]] }), TypeError, /options\.tokensPerSecond is missing/],
    ['tokensPerSecond 0', () => getRopeIndex(video, { ...IDS, model: 'qwen2.5-vl', tokensPerSecond: 0, videoGridThw: [[2, 4, 4]] }), RangeError, /options\.tokensPerSecond must be positive/],
    ['secondPerGridTs of the wrong length', () => getRopeIndex(video, { ...IDS, model: 'qwen2.5-vl', tokensPerSecond: 2, secondPerGridTs: [1, 1], videoGridThw: [[2, 4, 4]] }), RangeError, /options\.secondPerGridTs must have one entry per video \(1\), got 2/],
    ['secondPerGridTs negative', () => getRopeIndex(video, { ...IDS, model: 'qwen2.5-vl', tokensPerSecond: 2, secondPerGridTs: [-1], videoGridThw: [[2, 4, 4]] }), RangeError, /options\.secondPerGridTs\[0\] must not be negative/],
    ['attentionMask of the wrong length', () => getRopeIndex([T, T], { attentionMask: [1] }), RangeError, /options\.attentionMask must have one entry per token \(2\), got 1/],
    ['attentionMask with a 2', () => getRopeIndex([T, T], { attentionMask: [1, 2] }), RangeError, /options\.attentionMask\[1\] must be 0 or 1/],
    ['attentionMask all 0', () => getRopeIndex([T, T], { attentionMask: [0, 0] }), RangeError, /options\.attentionMask masks every token/],
    // The messages name the argument and list what is allowed (the options and models of getRopeIndex's documentation).
    ['unknown option, every option listed', () => getRopeIndex([1], { grid: 1 }), TypeError, /getRopeIndex takes: imageTokenId, videoTokenId, visionStartTokenId, spatialMergeSize, imageGridThw, videoGridThw, secondPerGridTs, tokensPerSecond, model, attentionMask, output$/],
    ['video grid without model, the models listed', () => getRopeIndex(video, { ...IDS, videoGridThw: [[2, 4, 4]] }), TypeError, /options\.model is missing \(videos are laid out per model: qwen2-vl, qwen2\.5-vl, qwen3-vl\)/],
    ['a token id with a fraction', () => getRopeIndex(image, { imageTokenId: 1.5 }), RangeError, /options\.imageTokenId must be a safe integer, got 1\.5/],
    ['tokensPerSecond a string', () => getRopeIndex(video, { ...IDS, model: 'qwen2.5-vl', tokensPerSecond: '2', videoGridThw: [[2, 4, 4]] }), TypeError, /options\.tokensPerSecond must be a number, got/],
    ['tokensPerSecond infinite', () => getRopeIndex(video, { ...IDS, model: 'qwen2.5-vl', tokensPerSecond: Infinity, videoGridThw: [[2, 4, 4]] }), TypeError, /options\.tokensPerSecond must be a number, got/],
    ['secondPerGridTs not a list', () => getRopeIndex(video, { ...IDS, model: 'qwen2.5-vl', tokensPerSecond: 2, secondPerGridTs: 1, videoGridThw: [[2, 4, 4]] }), TypeError, /options\.secondPerGridTs must be an array or a typed array/],
    ['secondPerGridTs longer than the input', () => getRopeIndex(video, { ...IDS, model: 'qwen2.5-vl', tokensPerSecond: 2, secondPerGridTs: Array(12).fill(1), videoGridThw: [[2, 4, 4]] }), RangeError, /options\.secondPerGridTs must hold at most 11 values \(one per video\), got 12/], // 11 tokens
    ['secondPerGridTs with a string', () => getRopeIndex(video, { ...IDS, model: 'qwen2.5-vl', tokensPerSecond: 2, secondPerGridTs: ['1'], videoGridThw: [[2, 4, 4]] }), TypeError, /options\.secondPerGridTs\[0\] must be a number, got/],
    ['secondPerGridTs with NaN', () => getRopeIndex(video, { ...IDS, model: 'qwen2.5-vl', tokensPerSecond: 2, secondPerGridTs: [NaN], videoGridThw: [[2, 4, 4]] }), TypeError, /options\.secondPerGridTs\[0\] must be a number, got/],
    // Qwen3-VL: 3 + 3 frames of one merged token each, 5 tokens
    ['Qwen3-VL frames past the input, over two grids', () => getRopeIndex([T, V, T, V, T], { ...IDS, model: 'qwen3-vl', videoGridThw: [[3, 2, 2], [3, 2, 2]] }), RangeError, /options\.videoGridThw holds 6 frames; inputIds holds 5 tokens/],
    ['Qwen3-VL grids past the frame runs: counted per frame', () => getRopeIndex([T, V, T], { ...IDS, model: 'qwen3-vl', videoGridThw: [[2, 2, 2]] }), RangeError, /^sinpe: options\.videoGridThw has 2 grids \(one per frame\) but inputIds has 1 video runs$/],
    ['Qwen2-VL grids past the video runs: counted per video', () => getRopeIndex([T, V, T], { ...IDS, model: 'qwen2-vl', videoGridThw: [[1, 2, 2], [1, 2, 2]] }), RangeError, /^sinpe: options\.videoGridThw has 2 grids but inputIds has 1 video runs$/],
    ['Qwen3-VL image grids past the image runs: counted per image', () => getRopeIndex([T, I, T], { ...IDS, model: 'qwen3-vl', imageGridThw: [[1, 2, 2], [1, 2, 2]] }), RangeError, /^sinpe: options\.imageGridThw has 2 grids but inputIds has 1 image runs$/],
    // The forms of a grid list, each refused with its own message.
    ['grid tensor dims not [grids, 3]', () => getRopeIndex(image, { ...IDS, imageGridThw: { dims: [1, 4], data: [1, 4, 4, 1] } }), RangeError, /^sinpe: options\.imageGridThw\.dims must be \[grids, 3\], got \[1, 4\]$/],
    ['grid tensor of more grids than tokens', () => getRopeIndex([T, I], { ...IDS, imageGridThw: { dims: [3, 3], data: [1, 2, 2, 1, 2, 2, 1, 2, 2] } }), RangeError, /^sinpe: options\.imageGridThw must hold at most 2 grids \(one token each at least\), got 3$/],
    ['flat grid list past three values a token', () => getRopeIndex([I], { ...IDS, imageGridThw: [1, 2, 2, 1, 2, 2] }), RangeError, /^sinpe: options\.imageGridThw must hold at most 3 values \(three a grid, one token each at least\), got 6$/],
    ['grid list mixing a triple and values', () => getRopeIndex(image, { ...IDS, imageGridThw: [[1, 4, 4], 1, 4, 4] }), RangeError, /^sinpe: options\.imageGridThw must hold \[t, h, w\] triples, got 4 values$/],
    ['nested grid of four values', () => getRopeIndex(image, { ...IDS, imageGridThw: [[1, 4, 4, 1]] }), RangeError, /^sinpe: options\.imageGridThw\[0\] must hold at most 3 values, got 4$/],
  ];
  for (const [label, call, ErrorClass, pattern] of cases) {
    test(label, () => {
      assert.throws(call, (e) => {
        assert.ok(e instanceof ErrorClass, `${label}: ${e?.constructor?.name}: ${e?.message}`);
        assert.match(e.message, pattern, label);
        return true;
      });
      // Still right afterwards.
      check(getRopeIndex([T, VS, ...rep(I, 4), VE], { ...IDS, imageGridThw: [[1, 4, 4]] }), [same(0), same(1), ...grid(2, [0], 2, 2), same(4)], -2, 'after');
    });
  }

  test('the options object is read once per key, own keys only', () => {
    const reads = [];
    const opts = new Proxy(
      { ...IDS, imageGridThw: [[1, 4, 4]] },
      {
        get(target, key) {
          reads.push(key);
          return Reflect.get(target, key);
        },
      },
    );
    const proto = Object.create({ imageGridThw: [[1, 4, 4]] });
    getRopeIndex([T, ...rep(I, 4)], opts);
    assert.deepEqual(reads.filter((k) => typeof k === 'string').sort(), ['imageGridThw', 'imageTokenId', 'videoTokenId']);
    // An inherited grid is not an option: the image tokens then have no grid.
    assert.throws(() => getRopeIndex([T, ...rep(I, 4)], Object.assign(proto, IDS)), /more image runs than options\.imageGridThw has grids \(0\)/);
  });
});

// Issue 23: the defects of getRopeIndex's argument reading, each test written
// to fail before its fix.
// A grid may need every token of the input: one image token, a 2 × 2 grid
// merged by 2 into one patch at the current position 0
// (get_mrope_vision_positions); ropeDelta = 0 + 1 − 1 token.
test('a grid of exactly as many tokens as the input, and as many grids as tokens, in each grid form', () => {
  for (const imageGridThw of [[[1, 2, 2]], [1, 2, 2], Int32Array.of(1, 2, 2), { dims: [1, 3], data: [1, 2, 2] }]) {
    check(getRopeIndex([I], { ...IDS, imageGridThw }), [same(0)], 0, `grid ${JSON.stringify(imageGridThw)}`);
  }
});

describe('getRopeIndex: arguments read like every other method (issue 23)', () => {
  const ids = [T, VS, ...rep(I, 4), VE, T];
  const opts = { ...IDS, imageGridThw: [[1, 4, 4]] };
  const want = [same(0), same(1), ...grid(2, [0], 2, 2), same(4), same(5)];

  test('a polluted Object.prototype is not read: only own enumerable keys are options', () => {
    const pollutions = [
      ['imageTokenId', T], // would turn the text tokens into image tokens
      ['imageGridThw', [[1, 2, 2]]], // would be the grid of a text-only call
      ['spatialMergeSize', 1], // would make the image a 4 × 4 grid
      ['attentionMask', [0, 1, 1, 1, 1, 1, 1, 1]], // would drop the first token
      ['model', 'qwen4-vl'], // would be refused as an unknown model
      ['output', 'tensors'], // would change the result's shape
    ];
    for (const [key, value] of pollutions) {
      Object.prototype[key] = value;
      try {
        check(getRopeIndex(ids, opts), want, 5 + 1 - 8, `Object.prototype.${key}`);
        check(getRopeIndex([T, T, T]), [same(0), same(1), same(2)], 0, `Object.prototype.${key}, no options`);
        check(getRopeIndex([T, T, T], {}), [same(0), same(1), same(2)], 0, `Object.prototype.${key}, empty options`);
      } finally {
        delete Object.prototype[key];
      }
    }
  });

  test('a sparse inputIds of length 2^32 − 1 is refused by its length before any element is read', () => {
    for (const length of [2 ** 32 - 1, 2 ** 26]) {
      const sparse = [];
      sparse.length = length;
      // Walking the array before the length check throws this instead. (Element 0
      // may be read: it tells one sequence from a batch of rows.)
      const guarded = new Proxy(sparse, {
        get(target, key) {
          if (typeof key === 'string' && /^\d+$/.test(key) && key !== '0') throw new Error(`inputIds[${key}] read before the length check`);
          return Reflect.get(target, key);
        },
      });
      assert.throws(
        () => getRopeIndex(guarded),
        (e) => {
          assert.ok(e instanceof RangeError, `length ${length}: ${e?.constructor?.name}: ${e?.message}`);
          assert.match(e.message, /^sinpe: inputIds/);
          assert.match(e.message, new RegExp(`${length}`));
          return true;
        },
      );
    }
    // The limit is the core's (vocabulary.limits), one past it refused, the module still usable.
    check(getRopeIndex([T, T]), [same(0), same(1)], 0, 'after');
  });
});
