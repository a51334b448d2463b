// The subscripts of figure labels (web/src/lib/subscript.js): a TeX-style
// "symbol_sub" becomes a lowered run, a code name keeps its underscore.
// Expected runs written by hand from the labels the lessons draw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { subscriptRuns, plainLabel } from '../../web/src/lib/subscript.js';

const shown = (label) => subscriptRuns(label).map((r) => (r.sub ? `[${r.text}]` : r.text)).join('');

test('a one-letter symbol’s underscore, or one before a {…} group, is a subscript', () => {
  assert.equal(shown('wavelength λ_i'), 'wavelength λ[i]');
  assert.equal(shown('p·ω_j'), 'p·ω[j]');
  assert.equal(shown('frames G_t'), 'frames G[t]');
  assert.equal(shown('llama3 L/l_f = 8192'), 'llama3 L/l[f] = 8192');
  assert.equal(shown('YaRN (β_fast 32, β_slow 1)'), 'YaRN (β[fast] 32, β[slow] 1)');
  assert.equal(shown('d_model = 64'), 'd[model] = 64');
  assert.equal(shown('|cos − cos_{exact}|'), '|cos − cos[exact]|');
  assert.equal(shown('波长 λ_j（位置数）'), '波长 λ[j]（位置数）');
  assert.equal(shown('波长λ_j'), '波长λ[j]');
});

test('code names keep their underscore; a label without one is one plain run', () => {
  for (const label of ['max_len (rows)', 'rope_theta', '<|vision_start|>', 'mrope_section [16, 24, 24]', 'seq_len − 1']) assert.equal(shown(label), label);
  assert.deepEqual(subscriptRuns('position'), [{ text: 'position', sub: false }]);
  assert.deepEqual(subscriptRuns(''), [{ text: '', sub: false }]);
  assert.equal(plainLabel('λ_i = 2π/ω_i'), 'λi = 2π/ωi');
});
