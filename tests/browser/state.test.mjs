// The URL state module on its own (no browser): parsing, clamping, round trips.
// npm test: quick form
import { test } from 'node:test';
import assert from 'node:assert/strict';
import sinpe from 'sinpe.wasm';
import { parseHash, toHash, defaultState, LESSONS } from '../../web/src/state.js';
import { lessonById } from '../../web/src/lessons/index.js';

// what the site asks the package: does the lesson's own call accept this d_model?
const pe = await sinpe();
const check = (d, s) => {
  try {
    lessonById(s.lesson).probe(pe, { ...s, d });
    return null;
  } catch (error) {
    if (error instanceof RangeError) return error.message;
    throw error;
  }
};

test('defaults round-trip through the hash for every lesson', () => {
  for (const lesson of LESSONS) {
    const state = defaultState(lesson, 'zh');
    const { state: parsed, messages } = parseHash(toHash(state), 'en', { check });
    assert.deepEqual(parsed, state);
    assert.deepEqual(messages, []);
  }
});

test('changed values round-trip', () => {
  const { state } = parseHash('#lesson=heatmap&d=256&len=512&layout=cos-first&cmap=cividis&start=12345&base=500');
  assert.equal(toHash(state), '#lesson=heatmap&d=256&len=512&base=500&layout=cos-first&cmap=cividis&start=12345&lang=en');
  assert.deepEqual(parseHash(toHash(state)).state, state);
});

test('out-of-range values are clamped, with a message', () => {
  const { state, messages } = parseHash('#lesson=formula&d=1000&len=0');
  assert.equal(state.d, 32);
  assert.equal(state.len, 1);
  assert.deepEqual(messages.map((m) => [m.key, m.problem]), [['d', 'clamped'], ['len', 'clamped']]);
  // vaswani needs an even d: 129 goes to the nearest even value (the lower one on a tie), with the package's reason
  const odd = parseHash('#lesson=heatmap&d=129', 'en', { check });
  assert.equal(odd.state.d, 128);
  assert.deepEqual(odd.messages.map((m) => [m.key, m.problem, m.typed, m.value]), [['d', 'rule', 129, 128]]);
  assert.match(odd.messages[0].rule, /even/);
  assert.equal(parseHash('#lesson=heatmap&d=130', 'en', { check }).state.d, 130); // any even d, not only multiples of 4
  assert.equal(parseHash('#lesson=variants&d=7&preset=keras', 'en', { check }).state.d, 7); // keras accepts odd d
  assert.equal(parseHash('#lesson=heatmap&len=100&start=16777215').state.start, 2 ** 24 - 100);
});

test('malformed and hostile values are rejected', () => {
  for (const bad of ['NaN', 'Infinity', '1e999', '0x10', '12px', '', ' ', '--1', '<script>']) {
    const { state, messages } = parseHash(`#lesson=heatmap&d=${encodeURIComponent(bad)}`);
    assert.equal(state.d, 128, bad);
    assert.equal(messages[0].problem, 'rejected', bad);
  }
  const { state, messages } = parseHash('#lesson=nope&lang=fr&tokens=%3Cimg%3E&x=1&y=2');
  assert.equal(state.lesson, LESSONS[0]); // the first lesson of the registry
  assert.equal(state.lang, 'en');
  assert.deepEqual(messages.map((m) => [m.key, m.problem]), [['lesson', 'rejected'], ['lang', 'rejected'], ['tokens', 'rejected'], [undefined, 'unknown']]);
  assert.equal(parseHash('#lesson=embeddings&tokens=%3Cimg%20onerror%3D1%3E').state.tokens, 'the cat sat on the mat');
  assert.equal(parseHash('#lesson=waves&cols=1,2,3,4,5,6,7,8,9,10').state.cols.length, 8);
});
