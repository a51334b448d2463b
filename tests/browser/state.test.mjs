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

test('section=: a section of the lesson opens it there (not part of the state); any other value is rejected with a message', async () => {
  const { sectionHash } = await import('../../web/src/state.js');
  // the rope lesson's sections a link opens at, as the lesson draws them (lessons/rope/index.js marks each data-section)
  for (const section of ['precision', 'scaling', 'layouts', 'multimodal', 'half', 'config', 'dials']) {
    const { state, messages, section: at } = parseHash(`#lesson=rope&section=${section}&lang=zh`, 'en', { check });
    assert.equal(at, section);
    assert.deepEqual(messages, []);
    assert.deepEqual(state, defaultState('rope', 'zh'), 'the section is not a setting');
    assert.equal(toHash(state).includes('section'), false, 'the URL written next drops it');
  }
  for (const [hash, why] of [
    ['#lesson=rope&section=nowhere', 'a name the lesson does not have'],
    ['#lesson=rope&section=PRECISION', 'another case'],
    ['#lesson=rope&section=', 'empty'],
    ['#lesson=rope&section=%3Cimg%20src%3Dx%3E', 'markup'],
    ['#lesson=formula&section=precision', 'a section of another lesson'],
    ['#lesson=rope&section=toString', 'an Object.prototype name'],
  ]) {
    const { messages, section } = parseHash(hash, 'en', { check });
    assert.equal(section, null, why);
    assert.deepEqual(messages, [{ key: 'section', problem: 'rejected', value: null }], why);
  }
  assert.equal(parseHash('#lesson=rope', 'en', { check }).section, null, 'no section: none');
  assert.equal(sectionHash('rope', 'precision', 'zh'), '#lesson=rope&section=precision&lang=zh');
  assert.throws(() => sectionHash('rope', 'nowhere', 'en'), (e) => e instanceof RangeError && /section/.test(e.message) && /nowhere/.test(e.message));
  assert.throws(() => sectionHash('ropes', 'precision', 'en'), (e) => e instanceof RangeError && /lesson/.test(e.message));
  assert.throws(() => sectionHash('rope', 'precision', 'fr'), (e) => e instanceof RangeError && /lang/.test(e.message));
});
