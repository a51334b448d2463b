// RoPE section: a model's config.json read by pe.ropeOptionsFromConfig, its
// wavelengths drawn beside the unscaled ones, and the table of its pairs.
import { h, paragraphs, clear, htmlLabel } from '../../lib/dom.js';
import { download } from '../../lib/export.js';
import { createLineChart, SERIES_COLORS } from '../../lib/chart.js';
import { section } from '../../lib/lesson.js';
import { defaultInvFreq, wavelengths, parseConfigText } from '../../model/rope.js';
import { CONFIG_EXAMPLES } from '../../model/rope-lesson.js';
import { wavelengthText, strings, figure, thresholdMarksOf } from './format.js';
import { mergeMarks } from '../../model/rope-thresholds.js';
import { formatInteger, formatSignificant } from '../../lib/numbers.js';

// the state's fields this section draws from (the lesson draws it later, when out of view, only when one changed)
const SHOWS = ['model'];

// Six significant digits, never fewer than the integer part has, without grouping or exponent
// (the sentence above the table writes wavelengths the same way).
const significant = (v) => formatSignificant(v, 6);

export function mount(root, ctx) {
  const L = strings(ctx);
  const exampleRow = h(
    'div',
    { class: 'button-row', role: 'group', 'aria-label': L('examples') },
    h('span', { class: 'button-row-label' }, L('examples')),
    Object.keys(CONFIG_EXAMPLES).map((id) =>
      h('button', { type: 'button', class: 'button config-example', 'data-model': id, onclick: () => loadExample(id) }, L(`model.${id}`)),
    ),
  );
  const configId = 'rope-config-text';
  const textarea = h('textarea', { id: configId, class: 'config-text', rows: 12, spellcheck: 'false', autocomplete: 'off', 'aria-describedby': 'rope-config-result' });
  const parseButton = h('button', { type: 'button', class: 'button config-parse', onclick: () => readConfig() }, L('parse'));
  const result = h('div', { class: 'config-result', id: 'rope-config-result', 'aria-live': 'polite' });
  const chart = createLineChart({
    xLabel: L('axisPair'),
    yLabel: L('axisWavelength'),
    label: L('configLabel'),
    yLog: true,
    height: 260,
    // the config drawn (its file name is the table's)
    figure: figure(
      L,
      'config',
      (s) => L('configCaption', { label: L('configLabel'), sentence: s.sentence }),
      (s) => s.name,
    ),
  });
  const tableBox = h('div');
  let table = null; // the rows drawn, for the CSV
  const csvButton = h('button', { type: 'button', class: 'button export-csv config-csv', onclick: () => table && download(`${table.name}.csv`, new Blob([table.csv], { type: 'text/csv' })) }, ctx.t('export.csv'));
  const figureBox = h('div', { class: 'config-figure', hidden: true }, chart.element, h('details', { class: 'data-details' }, h('summary', {}, L('configTableSummary')), tableBox, h('div', { class: 'button-row' }, csvButton)));
  root.append(section(L('configTitle'), ...paragraphs(L('configText')), exampleRow, h('label', { for: configId, class: 'config-label' }, L('configLabelText')), textarea, h('div', { class: 'button-row' }, parseButton), result, figureBox));

  // a pasted text outlives a rebuild of the page (a language switch, Previous / Next)
  const memory = ctx.memory ?? {};
  textarea.addEventListener('input', () => {
    memory.configText = textarea.value;
  });

  function loadExample(id) {
    textarea.value = CONFIG_EXAMPLES[id];
    memory.configText = textarea.value;
    ctx.setState({ model: id });
    readConfig();
  }

  const fail = (message) => result.append(h('p', { class: 'config-error', role: 'alert' }, message));
  const apiError = (error) => L('configApiError', { type: error?.name ?? 'Error', message: ctx.reason(error) });

  function readConfig() {
    const { pe } = ctx;
    clear(result);
    figureBox.hidden = true;
    const parsed = parseConfigText(textarea.value);
    if (parsed.error) return fail(L('configJsonError', { message: parsed.error }));
    let read;
    let inv;
    let invLong = null;
    try {
      // the package names the config key at fault; shown as text, never as markup
      read = pe.ropeOptionsFromConfig(parsed.config);
      // which position axis turns a pair (M-RoPE's ropeAxes) leaves the pairs' frequencies as they are
      const { ropeAxes, ...frequencyOptions } = read.options;
      inv = pe.ropeFrequencies(read.rotaryDim, frequencyOptions);
      // LongRoPE has two factor sets: short_factor up to L tokens (the frequencies above),
      // long_factor once the sequence is longer than L; both are drawn
      const L0 = read.options.originalMaxPositions ?? read.options.maxPositions;
      if (read.options.longFactor && L0) invLong = pe.ropeFrequencies(read.rotaryDim, { ...frequencyOptions, seqLen: L0 + 1 });
    } catch (error) {
      return fail(apiError(error));
    }
    const { headDim, rotaryDim, options } = read;
    const base = options.base ?? 10000;
    const plain = defaultInvFreq(rotaryDim, base);
    const type = options.ropeType ?? 'default';
    const context = options.originalMaxPositions ?? options.maxPositions;
    const list = h('dl', { class: 'config-summary' });
    const add = (k, v) => list.append(h('dt', {}, k), h('dd', {}, String(v)));
    add(L('cfgType'), type);
    add(L('cfgHeadDim'), headDim);
    add(L('cfgRotaryDim'), rotaryDim);
    for (const [k, v] of Object.entries(options)) if (k !== 'ropeType') add(`options.${k}`, Array.isArray(v) || ArrayBuffer.isView(v) ? L('cfgArray', { count: v.length }) : v);
    const { ropeAxes, ...frequencyOptions } = options;
    // one row of text positions (every axis at 0), whatever the number of axes
    const attention = pe.ropeCacheRows(0, 1, rotaryDim, frequencyOptions).attentionFactor;
    add(L('cfgAttention'), significant(attention));
    const lam = wavelengths(inv);
    const lamLong = invLong && wavelengths(invLong);
    const ctxText = context && formatInteger(context);
    const sentence = lamLong
      ? L('configSentenceLong', { type, r: rotaryDim, ctx: ctxText, fast: wavelengthText(lam[0]), slow: wavelengthText(lam.at(-1)), fastLong: wavelengthText(lamLong[0]), slowLong: wavelengthText(lamLong.at(-1)), base })
      : L('configSentence', { type, r: rotaryDim, fast: wavelengthText(lam[0]), slow: wavelengthText(lam.at(-1)), base });
    result.append(list, h('p', { class: 'config-sentence' }, sentence));
    const series = lamLong
      ? [
          { name: L('configSeriesShort', { ctx: ctxText }), points: lam.map((v, j) => [j, v]), color: SERIES_COLORS[0], factorSet: 'short' },
          { name: L('configSeriesLong', { ctx: ctxText }), points: lamLong.map((v, j) => [j, v]), color: SERIES_COLORS[2], factorSet: 'long' },
        ]
      : [{ name: L('configSeries', { type }), points: lam.map((v, j) => [j, v]), color: SERIES_COLORS[0] }];
    series.push({ name: L('configPlain', { base }), points: wavelengths(plain).map((v, j) => [j, v]), color: SERIES_COLORS[1] });
    // the config's own llama3 wavelength bounds or YaRN correction range, on the chart it drives
    const contextMark = context ? [{ y: context, label: L('markContext', { ctx: formatInteger(context) }) }] : [];
    const marks = mergeMarks([...contextMark, ...thresholdMarksOf(L, options, rotaryDim)], L('listJoin'));
    const all = [...series.flatMap((x) => x.points.map(([, v]) => v)), ...marks.filter((m) => m.y !== undefined).map((m) => m.y)];
    figureBox.hidden = false;
    // its example's id only when the text is that example's, unchanged
    const example = Object.keys(CONFIG_EXAMPLES).find((id) => CONFIG_EXAMPLES[id] === textarea.value) ?? null;
    const name = ['sinpe_rope_config', example, type, `r${rotaryDim}`, `b${base}`].filter(Boolean).join('_');
    chart.draw({ series, xDomain: [0, Math.max(1, rotaryDim / 2 - 1)], yDomain: [Math.min(...all) / 2, Math.max(...all) * 2], marks, state: { name, sentence } });
    // each pair against the unscaled frequency: kept, divided by the factor, blended between, or changed otherwise
    const factor = options.factor;
    const treatment = Array.from(inv, (w, j) => {
      if (Math.abs(w / plain[j] - 1) < 1e-12) return 'kept';
      if (factor && Math.abs((w * factor) / plain[j] - 1) < 1e-12) return 'scaled';
      // yarn and llama3 blend the two between their thresholds
      if (factor && ['yarn', 'llama3'].includes(type) && w < plain[j] && w > plain[j] / factor) return 'blended';
      return 'changed';
    });
    const turns = (w) => (context * w) / (2 * Math.PI);
    // LongRoPE: ω and λ of short_factor (up to L tokens), then of long_factor (beyond)
    const longHead = lamLong ? [L('thOmegaLong'), L('thLambdaLong')] : [];
    const head = ['j', lamLong ? L('thOmegaShort') : 'ω_j', lamLong ? L('thLambdaShort') : 'λ_j', ...longHead, context ? L('thTurns', { ctx: formatInteger(context) }) : null, L('thTreatment')].filter(Boolean);
    const cell = (text, key) => h('td', { 'data-column': key }, text);
    const row = (w, j) =>
      h(
        'tr',
        { 'data-pair': j },
        cell(String(j), 'j'),
        cell(significant(w), 'omega'),
        cell(significant(lam[j]), 'lambda'),
        lamLong ? cell(significant(invLong[j]), 'omegaLong') : null,
        lamLong ? cell(significant(lamLong[j]), 'lambdaLong') : null,
        context ? cell(significant(turns(w)), 'turns') : null,
        cell(L(`treatment.${treatment[j]}`), 'treatment'),
      );
    // the CSV: full float64 values, the pair's treatment by its English name
    const csvHead = ['j', 'omega', 'lambda', lamLong ? 'omega_long' : null, lamLong ? 'lambda_long' : null, context ? `turns_within_${context}` : null, 'pair'].filter(Boolean);
    const csvRows = Array.from(inv, (w, j) => [j, w, lam[j], lamLong ? invLong[j] : null, lamLong ? lamLong[j] : null, context ? turns(w) : null, treatment[j]].filter((v) => v !== null).join(','));
    table = { name, csv: `${[csvHead.join(','), ...csvRows].join('\n')}\n` };
    clear(tableBox).append(
      h(
        'div',
        { class: 'table-scroll' },
        h('table', { class: 'data config-table' }, h('thead', {}, h('tr', {}, head.map((c) => h('th', { scope: 'col' }, htmlLabel(c))))), h('tbody', {}, Array.from(inv, row))),
      ),
    );
  }

  return {
    shows: SHOWS,
    update(s, changed) {
      if (memory.configText !== undefined && textarea.value === '') {
        // first draw after a rebuild: the text the learner left, read again
        textarea.value = memory.configText;
        readConfig();
      } else if (changed(...SHOWS) && CONFIG_EXAMPLES[s.model] && textarea.value !== CONFIG_EXAMPLES[s.model]) {
        textarea.value = CONFIG_EXAMPLES[s.model];
        readConfig();
      }
    },
    figures: () => ({ configChart: chart }),
  };
}
