// The field registry and the lesson registry: parsing by type, URL form,
// ranges, and that every lesson names only fields that exist.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FIELDS, FIELD_KEYS, validateField, serializeField, formatField, rangeOf, valuesOf, fieldDefaults, parseEdits, formatEdits } from '../../web/src/model/fields.js';
import { LESSONS, LESSON_IDS, lessonById } from '../../web/src/lessons/index.js';

const TYPES = ['enum', 'int', 'number', 'dModel', 'intlist', 'tokens', 'edits', 'perm'];
const CONTROLS = ['slider', 'log-slider', 'select', 'radio', 'text', 'none'];

test('every field has a known type and control kind, and a default inside its range', () => {
  const defaults = fieldDefaults();
  for (const key of FIELD_KEYS) {
    const field = FIELDS[key];
    assert.ok(TYPES.includes(field.type), `${key}: type ${field.type}`);
    assert.ok(CONTROLS.includes(field.control), `${key}: control ${field.control}`);
    if (field.control === 'slider' || field.control === 'log-slider') assert.ok(field.step > 0, `${key}: step`);
    const { value, problem } = validateField(key, defaults[key], defaults);
    assert.equal(problem, null, `${key}: default ${defaults[key]} is valid`);
    assert.deepEqual(value, defaults[key], key);
  }
});

test('numbers are read as typed: a tolerance of 0.001 is 0.001', () => {
  assert.deepEqual(validateField('tol', '0.001', {}), { value: 0.001, problem: null });
  assert.deepEqual(validateField('tol', '1e-5', {}), { value: 1e-5, problem: null });
  assert.deepEqual(validateField('tol', '5', {}), { value: 1, problem: 'clamped' });
  assert.deepEqual(validateField('tol', '0', {}), { value: 1e-8, problem: 'clamped' });
  assert.equal(validateField('tol', '−0.5', {}).value, 1e-8); // a true minus sign is a minus
  assert.equal(serializeField('tol', 0.001), '0.001');
  assert.equal(formatField('tol', 1e-7), '1e-7');
  assert.deepEqual(validateField('base', '500', {}), { value: 500, problem: null });
  assert.deepEqual(validateField('dropout', '0.25', {}), { value: 0.25, problem: null });
  assert.equal(formatField('dropout', 0.25), '0.25');
});

test('integers round and clamp; d_model takes any integer in range (the package decides parity)', () => {
  assert.deepEqual(validateField('d', '6', {}), { value: 6, problem: null });
  assert.deepEqual(validateField('d', '7', {}), { value: 7, problem: null });
  assert.deepEqual(validateField('d', '6.4', {}), { value: 6, problem: 'clamped' });
  assert.deepEqual(validateField('d', '99999', {}), { value: 2048, problem: 'clamped' });
  assert.deepEqual(validateField('d', '99999', {}, lessonById('formula')), { value: 32, problem: 'clamped' });
  for (const bad of ['NaN', 'Infinity', '1e999', '0x10', '12px', '', ' ', '--1', '<b>']) assert.equal(validateField('d', bad, {}).problem, 'rejected', bad);
});

test('ranges that depend on other fields', () => {
  // the rows shown stay below 2^24
  assert.deepEqual(rangeOf('start', { len: 100 }), [0, 2 ** 24 - 100]);
  assert.equal(validateField('start', '16777215', { len: 100 }).value, 2 ** 24 - 100);
  // plotted columns exist
  assert.deepEqual(validateField('cols', '3, 999', { d: 32 }), { value: [3, 31], problem: 'clamped' });
  assert.equal(serializeField('cols', [3, 31]), '3,31');
  assert.equal(formatField('cols', [3, 31]), '3, 31');
});

test('enums, tokens and edits', () => {
  assert.equal(validateField('layout', 'concat', {}).value, 'concat');
  assert.equal(validateField('layout', 'preset', {}).problem, 'rejected');
  assert.equal(validateField('layout', 'preset', {}, lessonById('variants')).value, 'preset');
  assert.deepEqual(valuesOf('layout', lessonById('variants')).slice(0, 1), ['preset']);
  assert.deepEqual(validateField('tokens', 'a  b', {}), { value: 'a b', problem: null });
  assert.equal(validateField('tokens', '<img>', {}).problem, 'rejected');
  assert.equal(validateField('tokens', Array(13).fill('w').join(' '), {}).value.split(' ').length, 12);
  const state = { tokens: 'a b c', d: 4 };
  assert.deepEqual(validateField('edit', '1.2_0.5*0.0_9*5.0_1', state), { value: '0.0_4*1.2_0.5', problem: 'clamped' });
  assert.deepEqual(parseEdits('0.0_4*1.2_0.5'), [{ row: 0, col: 0, value: 4 }, { row: 1, col: 2, value: 0.5 }]);
  assert.equal(formatEdits([{ row: 1, col: 2, value: 0.12345 }, { row: 0, col: 3, value: -1 }]), '0.3_-1*1.2_0.123');
});

test('word orders: a permutation of the state\'s tokens, the identity kept as []', () => {
  const state = { tokens: 'dog bites man' };
  assert.deepEqual(validateField('order', '2,1,0', state), { value: [2, 1, 0], problem: null });
  assert.deepEqual(validateField('order', [1, 0, 2], state), { value: [1, 0, 2], problem: null });
  assert.deepEqual(validateField('order', '0,1,2', state), { value: [], problem: null });
  assert.deepEqual(validateField('order', '', state), { value: [], problem: null });
  assert.equal(serializeField('order', [2, 1, 0]), '2,1,0');
  // not a permutation of 0 … 2: a repeat, a missing or extra index, a 4-token order, markup
  for (const bad of ['0,0,1', '0,1', '0,1,3', '3,2,1,0', '1,0,2,', '<b>', '1;0;2', '-1,0,1']) assert.equal(validateField('order', bad, state).problem, 'rejected', bad);
});

test('the lesson registry: ordered, unique ids, known fields, defaults in range', () => {
  assert.deepEqual(LESSON_IDS, LESSONS.map((l) => l.id));
  assert.equal(new Set(LESSON_IDS).size, LESSON_IDS.length);
  assert.ok(LESSON_IDS.length >= 10, `${LESSON_IDS.length} lessons`);
  // the course opens with the attention lesson, which holds the course map; each id names a folder and a URL value
  assert.equal(LESSON_IDS[0], 'attention');
  for (const id of LESSON_IDS) assert.match(id, /^[a-z][a-z0-9-]*$/, id);
  for (const lesson of LESSONS) {
    assert.equal(typeof lesson.module, 'function', lesson.id);
    assert.equal(typeof lesson.probe, 'function', lesson.id);
    for (const key of lesson.controls) assert.ok(key in FIELDS, `${lesson.id}: ${key}`);
    for (const key of lesson.own ?? []) assert.ok(lesson.controls.includes(key), `${lesson.id}: own ${key}`);
    for (const key of Object.keys(lesson.defaults)) assert.ok(lesson.controls.includes(key), `${lesson.id}: default ${key}`);
    const state = { ...fieldDefaults(), ...lesson.defaults, lesson: lesson.id };
    for (const key of lesson.controls) {
      const { value, problem } = validateField(key, state[key], state, lesson);
      assert.equal(problem, null, `${lesson.id}.${key} = ${state[key]}: ${value}`);
    }
  }
});
