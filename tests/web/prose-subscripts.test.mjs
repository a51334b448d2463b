// No raw `_` subscript in what a learner reads. A string shown as text (a
// paragraph, a summary point, a glossary entry, a fold's title, a control's
// label, a letter's meaning) writes a symbol with a subscript as the lessons
// write every symbol, in $…$ (KaTeX): "$W_q$", "$\lambda_i = 2\pi/\omega_i$".
// Only the labels that are drawn through lib/subscript.js (chart axes and
// series, table heads and captions, dial subtitles, export captions) may
// write "λ_j" with its underscore: there it becomes a lowered run. A code
// name keeps its underscore (max_len, rope_theta, mrope_section: not a
// subscript for lib/subscript.js), and so does d_model, the parameter's name
// the glossary and the text use as one word.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import en from '../../web/src/i18n/en.js';
import zh from '../../web/src/i18n/zh.js';
import { SYMBOLS } from '../../web/src/model/notation.js';
import { subscriptRuns } from '../../web/src/lib/subscript.js';

// the string keys drawn through lib/subscript.js, with where
const LABELS = [
  /^lessons\.attention\.w[qkv]$/, // table captions (lib/table.js)
  /^lessons\.formula\.angleCaption$/, // table caption
  /^lessons\.waves\.lengthSeries$/, // chart series (lib/chart.js)
  /^lessons\.variants\.(ratioAxis|omegaAxis)$/, // chart axes
  /^lessons\.rope\.(axisWavelength|threshold\..+|thresholdTurns\..+)$/, // chart axis and reference-line labels
  /^lessons\.rope\.th(Omega|Lambda)(Short|Long)$/, // table heads
  /^lessons\.rope\.(scalingCaption|precisionCaption)$/, // export captions (lib/figure/compose.js)
  /^lessons\.rope\.grid\.dialRate$/, // dial subtitle (lib/clock.js)
  /^measure\.wavelength$/, // chart axis
];

const strings = (v, key, out = []) => {
  if (typeof v === 'string') out.push([key, v]);
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) strings(x, key ? `${key}.${k}` : k, out);
  return out;
};

/** The subscripts a string shows as raw `_` when written as text: outside $…$ and `code`, d_model apart. */
function rawSubscripts(text) {
  const prose = text.replace(/\$[^$]*\$|`[^`]*`/g, ' ').replace(/\bd_model\b/g, ' ');
  return subscriptRuns(prose).filter((r) => r.sub).map((r) => r.text);
}

for (const [lang, table] of [['en', en], ['zh', zh]]) {
  test(`${lang}: no string shown as text writes a subscript as a raw _`, () => {
    const all = strings(table, '');
    assert.ok(all.length > 900, `${all.length} strings read`);
    const labels = all.filter(([key, s]) => LABELS.some((l) => l.test(key)) && rawSubscripts(s).length);
    assert.ok(labels.length >= 15, `the labels drawn through lib/subscript.js are checked: ${labels.length}`);
    const raw = all.filter(([key, s]) => !LABELS.some((l) => l.test(key)) && rawSubscripts(s).length).map(([key, s]) => `${key}: ${s.slice(0, 80)}`);
    assert.deepEqual(raw, []);
  });

  test(`${lang}: no letter's meaning writes a subscript as a raw _`, () => {
    const meanings = Object.entries(SYMBOLS).map(([symbol, m]) => [symbol, m[lang]]);
    assert.ok(meanings.length > 30);
    assert.deepEqual(meanings.filter(([, m]) => rawSubscripts(m).length).map(([s, m]) => `${s}: ${m}`), []);
  });
}

test('the check itself: a raw subscript is found, maths, code names and d_model are not', () => {
  assert.deepEqual(rawSubscripts('wavelength λ_i = 2π/ω_i'), ['i', 'i']);
  assert.deepEqual(rawSubscripts('The head’s matrices W_q, W_k, W_v'), ['q', 'k', 'v']);
  assert.deepEqual(rawSubscripts('$\\lambda_i = 2\\pi/\\omega_i$, `inv_freq`, max_len, rope_theta, d_model, <|vision_start|>'), []);
});
