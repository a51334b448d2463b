// Lesson 9: rotary position embedding (RoPE), on the package's RoPE API.
// Each pair of a query is a hand on a dial turned by p·ω_j; the score of a
// rotated query and key depends only on their offset; the half and
// interleaved layouts rotate the same vector with different pairs; long-
// context scaling (default, linear, dynamic NTK, YaRN, llama3) stretches the
// wavelengths; a model's config.json read by pe.ropeOptionsFromConfig; and
// the precision pitfall of float32 and bfloat16 angles at long positions.
import { h, fmt, tex, rich, paragraphs, clear } from '../lib/dom.js';
import { createLineChart, SERIES_COLORS } from '../lib/chart.js';
import { createDials } from '../lib/clock.js';
import { createControls, createRadioGroup } from '../lib/controls.js';
import { lessonHeader, section, readout } from '../lib/lesson.js';
import { lessonById } from './index.js';
import {
  bf16,
  defaultInvFreq,
  hfInvFreqF32,
  maxAngleError,
  pipelineAngle,
  samplePositionsBelow,
  pairIndices,
  spacing,
  dot,
  seededVector,
  wavelengths,
  rotationsWithin,
  parseConfigText,
} from '../model/rope.js';
import { CONFIG_EXAMPLES, SCALING_TYPES, SCALING_ROTARY_DIM, DIAL_HEAD_DIM, CHECK_HEAD_DIM, PRECISION_ROTARY_DIM, scalingOptions } from '../model/rope-lesson.js';

const DEG = 180 / Math.PI;
const wrapAngle = (a) => ((a % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
const sci = (v) => (v === 0 ? '0' : v.toExponential(1).replace(/-/g, '−'));
// wavelengths: one decimal below 1000 positions, whole positions above (never exponent notation)
const wavelengthText = (v) => (v < 1000 ? v.toFixed(1) : String(Math.round(v)));
const CHECK_SPAN = 256; // positions p = 0 … 255 of the offset check
const OCTAVES = Array.from({ length: 9 }, (_, e) => 2 ** (12 + e)); // 4096 … 1 048 576

// The formula of each scaling type, in TeX.
const SCALING_TEX = {
  default: '\\omega_j = b^{-2j/r}',
  linear: "\\omega'_j = \\omega_j / s",
  dynamic: "\\begin{aligned} b' &= b\\left(\\frac{s\\,N}{L} - (s-1)\\right)^{\\frac{r}{r-2}} \\\\ \\omega'_j &= b'^{\\,-2j/r} \\end{aligned}",
  yarn: "\\begin{aligned} \\omega'_j &= (1-\\gamma_j)\\,\\frac{\\omega_j}{s} + \\gamma_j\\,\\omega_j \\\\ \\gamma_j &= 1 - \\operatorname{clamp}\\!\\left(\\frac{j - \\ell}{h - \\ell}, 0, 1\\right) \\\\ \\ell &= c(\\beta_{\\text{fast}}),\\quad h = c(\\beta_{\\text{slow}}) \\\\ c(\\beta) &= \\frac{r \\ln\\!\\big(L / (2\\pi\\beta)\\big)}{2 \\ln b} \\end{aligned}",
  // aligned, not cases: a tall \{ is drawn by KaTeX with an inline-styled SVG, which the CSP refuses
  llama3: "\\begin{aligned} \\omega'_j &= \\omega_j && \\text{if } \\lambda_j < L/h_f \\\\ \\omega'_j &= \\omega_j / s && \\text{if } \\lambda_j > L/l_f \\\\ \\omega'_j &= (1-g)\\,\\omega_j/s + g\\,\\omega_j && \\text{otherwise,} \\\\ g &= \\frac{L/\\lambda_j - l_f}{h_f - l_f} \\end{aligned}",
};

export default {
  id: 'rope',
  // every control of this lesson sits beside the figure it drives
  ownControls: ['pos', 'k', 'seed', 'base', 'factor', 'ctx', 'measure', 'model', 'at'],
  mount(root, app) {
    const { t, pe } = app;
    const L = (key, vars) => t(`lessons.rope.${key}`, vars);
    const lesson = lessonById('rope');
    const controlsFor = (keys) => createControls(keys, app, lesson);
    // the figure exports of the charts: title, caption naming the parameters, file name
    const figure = (key, caption, name) => ({ title: () => L(`${key}Title`), caption, name });

    // ---- section: dials ----
    const dialControls = controlsFor(['pos', 'base']);
    const dials = createDials({ label: L('dialsLabel'), className: 'rope-dials' });
    const dialInfo = readout('rope-dial-readout');

    // ---- section: only the offset matters ----
    const checkControls = controlsFor(['k', 'seed']);
    const checkChart = createLineChart({
      xLabel: L('axisP'),
      yLabel: L('axisScore'),
      label: L('checkLabel'),
      height: 260,
      onCursor: (x) => describeCheck(Math.round(x)),
      figure: figure(
        'check',
        () => L('checkCaption', { k: app.state.k, seed: app.state.seed, base: app.state.base, r: CHECK_HEAD_DIM, last: CHECK_SPAN - 1 }),
        () => `sinpe_rope_score_k${app.state.k}_seed${app.state.seed}_p0-${CHECK_SPAN - 1}`,
      ),
    });
    const checkInfo = readout('rope-check-readout');
    const checkVerdict = h('p', { class: 'rope-check-verdict' });

    // ---- section: layouts ----
    const layoutBox = h('div', { class: 'rope-layouts side-by-side' });
    const layoutCheck = h('p', { class: 'rope-layout-check' });

    // ---- section: scaling ----
    const scalingControls = controlsFor(['factor', 'ctx']);
    const measureToggle = createRadioGroup({ key: 'measure', values: ['wavelength', 'rotations'], label: L('measure'), app });
    const scalingChart = createLineChart({
      xLabel: L('axisPair'),
      yLabel: L('axisWavelength'),
      label: L('scalingLabel'),
      yLog: true,
      height: 320,
      onCursor: (x) => describeScaling(Math.round(x)),
      figure: figure(
        'scaling',
        () => L('scalingCaption', { r: SCALING_ROTARY_DIM, base: app.state.base, factor: app.state.factor, ctx: app.state.ctx, measure: L(`measureName.${app.state.measure}`) }),
        () => `sinpe_rope_scaling_${app.state.measure}_r${SCALING_ROTARY_DIM}_s${app.state.factor}_L${app.state.ctx}`,
      ),
    });
    const scalingInfo = readout('rope-scaling-readout');
    const scalingSummary = h('p', { class: 'rope-scaling-summary' });
    const formulas = h(
      'dl',
      { class: 'rope-formulas' },
      SCALING_TYPES.map((type) => [h('dt', {}, L(`type.${type}`)), h('dd', {}, tex(SCALING_TEX[type], true), rich(L(`typeText.${type}`)))]),
    );

    // ---- section: config.json ----
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
    const configResult = h('div', { class: 'config-result', id: 'rope-config-result', 'aria-live': 'polite' });
    const configChart = createLineChart({
      xLabel: L('axisPair'),
      yLabel: L('axisWavelength'),
      label: L('configLabel'),
      yLog: true,
      height: 260,
      figure: figure('config', () => `${L('configLabel')}: ${configResult.querySelector('.config-sentence')?.textContent ?? ''}`, () => `sinpe_rope_config_${app.state.model}`),
    });
    const configTable = h('div');
    const configFigure = h('div', { class: 'config-figure', hidden: true }, configChart.element, h('details', { class: 'data-details' }, h('summary', {}, L('configTableSummary')), configTable));

    // ---- section: precision ----
    const precisionControls = controlsFor(['at']);
    const jumps = h(
      'div',
      { class: 'button-row', role: 'group', 'aria-label': L('jump') },
      h('span', { class: 'button-row-label' }, L('jump')),
      [4096, 16384, 65536, 262144, 1048576].map((p) =>
        h('button', { type: 'button', class: 'button precision-jump', 'data-position': p - 1, onclick: () => app.setState({ at: p - 1 }) }, `${(p - 1).toLocaleString('en-US')}`),
      ),
    );
    const precisionChart = createLineChart({
      xLabel: L('axisPosition'),
      yLabel: L('axisError'),
      label: L('precisionLabel'),
      xLog: true,
      yLog: true,
      height: 300,
      figure: figure('precision', () => L('precisionCaption', { r: PRECISION_ROTARY_DIM, base: app.state.base }), () => `sinpe_rope_precision_r${PRECISION_ROTARY_DIM}_pos4095-1048575`),
    });
    const precisionTable = h('div', { class: 'precision-table-box' });
    const precisionSummary = h('p', { class: 'precision-summary' });

    root.append(
      ...lessonHeader(app, 'rope'),
      tex('\\begin{pmatrix} x\'_a \\\\ x\'_b \\end{pmatrix} = \\begin{pmatrix} \\cos p\\,\\omega_j & -\\sin p\\,\\omega_j \\\\ \\sin p\\,\\omega_j & \\cos p\\,\\omega_j \\end{pmatrix} \\begin{pmatrix} x_a \\\\ x_b \\end{pmatrix}, \\qquad \\omega_j = b^{-2j/r}', true),
      ...paragraphs(L('symbols')),
      section(L('dialsTitle'), ...paragraphs(L('dialsText')), h('div', { class: 'lesson-controls' }, dialControls.element), dials.element, dialInfo),
      section(
        L('checkTitle'),
        ...paragraphs(L('checkText')),
        tex('\\langle R(p)\\,q,\\; R(p+k)\\,k \\rangle = \\langle q,\\; R(k)\\,k \\rangle = \\sum_j \\big[(q_a k_a + q_b k_b)\\cos k\\omega_j + (q_b k_a - q_a k_b)\\sin k\\omega_j\\big]', true),
        h('div', { class: 'lesson-controls' }, checkControls.element),
        checkChart.element,
        checkVerdict,
        checkInfo,
      ),
      section(L('layoutsTitle'), ...paragraphs(L('layoutsText')), layoutBox, layoutCheck),
      section(
        L('scalingTitle'),
        ...paragraphs(L('scalingText')),
        h('div', { class: 'lesson-controls' }, measureToggle.element, scalingControls.element),
        scalingChart.element,
        scalingInfo,
        scalingSummary,
        h('h3', {}, L('formulasTitle')),
        formulas,
      ),
      section(L('configTitle'), ...paragraphs(L('configText')), exampleRow, h('label', { for: configId, class: 'config-label' }, L('configLabelText')), textarea, h('div', { class: 'button-row' }, parseButton), configResult, configFigure),
      section(
        L('precisionTitle'),
        ...paragraphs(L('precisionText')),
        h('div', { class: 'lesson-controls' }, jumps, precisionControls.element),
        precisionChart.element,
        precisionSummary,
        precisionTable,
      ),
    );

    let current = null;

    // ---- dials ----
    function drawDials(s) {
      const r = DIAL_HEAD_DIM;
      const q = Float32Array.from(seededVector(r, s.seed));
      const omega = pe.ropeFrequencies(r, { base: s.base });
      // the hand now and at the four previous positions, rotated by the package
      const steps = [0, 1, 2, 3, 4].map((k) => s.pos - k).filter((p) => p >= 0);
      const x = new Float32Array(steps.length * r);
      steps.forEach((_, i) => x.set(q, i * r));
      pe.applyRope(x, steps, r, { base: s.base, layout: 'half' });
      let longest = 0;
      for (let j = 0; j < r / 2; j++) longest = Math.max(longest, Math.hypot(q[j], q[j + r / 2]));
      const list = [];
      for (let j = 0; j < r / 2; j++) {
        const [a, b] = pairIndices(j, r, 'half');
        const turned = s.pos * omega[j];
        list.push({
          key: j,
          title: L('dialTitle', { j, a, b }),
          subtitle: L('dialRate', { omega: fmt(omega[j], 4) }),
          a: x[a],
          b: x[b],
          ghost: [q[a], q[b]],
          trail: steps.slice(1).map((_, k) => [x[(k + 1) * r + a], x[(k + 1) * r + b]]),
          scale: 1 / longest,
          values: L('dialTurned', { radians: fmt(turned, 3), degrees: (wrapAngle(turned) * DEG).toFixed(2) }),
          description: L('dialDescription', { j, radians: fmt(turned, 4), a: fmt(x[a], 4), b: fmt(x[b], 4) }),
        });
      }
      dials.draw(list);
      dialInfo.textContent = L('dialReadout', { p: s.pos, fast: (wrapAngle(s.pos * omega[0]) * DEG).toFixed(1), slow: (wrapAngle(s.pos * omega[r / 2 - 1]) * DEG).toFixed(2), last: r / 2 - 1 });
      return { q, omega, rotated: x.slice(0, r) };
    }

    // ---- the offset check ----
    function drawCheck(s) {
      const r = CHECK_HEAD_DIM;
      const q = Float32Array.from(seededVector(r, s.seed));
      const kv = Float32Array.from(seededVector(r, s.seed + 10007));
      const n = CHECK_SPAN;
      const qs = new Float32Array(n * r);
      const ks = new Float32Array(n * r);
      const qPos = [];
      const kPos = [];
      for (let p = 0; p < n; p++) {
        qs.set(q, p * r);
        ks.set(kv, p * r);
        qPos.push(p);
        kPos.push(p + s.k);
      }
      pe.applyRope(qs, qPos, r, { base: s.base });
      pe.applyRope(ks, kPos, r, { base: s.base });
      // the same vectors with the sinusoidal encoding added instead (lesson 1's table, d = r)
      const peQ = pe.encode(qPos, r, { base: s.base, layout: 'concat' });
      const peK = pe.encode(kPos, r, { base: s.base, layout: 'concat' });
      const rope = [];
      const added = [];
      for (let p = 0; p < n; p++) {
        rope.push([p, dot(qs.subarray(p * r, (p + 1) * r), ks.subarray(p * r, (p + 1) * r))]);
        let sum = 0;
        for (let i = 0; i < r; i++) sum += (q[i] + peQ[p * r + i]) * (kv[i] + peK[p * r + i]);
        added.push([p, sum]);
      }
      const ropeValues = rope.map(([, v]) => v);
      const addedValues = added.map(([, v]) => v);
      const spread = Math.max(...ropeValues) - Math.min(...ropeValues);
      const addedSpread = Math.max(...addedValues) - Math.min(...addedValues);
      const all = [...ropeValues, ...addedValues];
      const lo = Math.min(...all);
      const hi = Math.max(...all);
      const pad = Math.max(0.1, (hi - lo) * 0.08);
      const series = [
        { name: L('seriesRope', { k: s.k }), points: rope, color: SERIES_COLORS[0] },
        { name: L('seriesAdded', { k: s.k }), points: added, color: SERIES_COLORS[1] },
      ];
      const data = { series, xDomain: [0, n - 1], yDomain: [lo - pad, hi + pad], marks: [], snap: (v) => Math.round(v) };
      checkChart.draw(data);
      checkVerdict.textContent = L('checkVerdict', { k: s.k, score: fmt(ropeValues[0], 5), spread: sci(spread), addedSpread: fmt(addedSpread, 3), last: n - 1 });
      checkVerdict.dataset.spread = String(spread);
      return { rope, added };
    }

    function describeCheck(p) {
      if (!current) return;
      const s = current.s;
      const i = Math.min(CHECK_SPAN - 1, Math.max(0, p));
      checkInfo.textContent = L('checkReadout', { p: i, pk: i + s.k, rope: fmt(current.check.rope[i][1], 6), added: fmt(current.check.added[i][1], 4) });
    }

    // ---- layouts ----
    function drawLayouts(s) {
      const r = DIAL_HEAD_DIM;
      const x = Float32Array.from({ length: r }, (_, i) => (i + 1) / 10);
      const outputs = {};
      clear(layoutBox);
      for (const layout of ['half', 'interleaved']) {
        const y = Float32Array.from(x);
        pe.applyRope(y, [s.pos], r, { base: s.base, layout });
        outputs[layout] = y;
        const rows = Array.from({ length: r }, (_, i) => {
          const j = layout === 'interleaved' ? i >> 1 : i % (r / 2);
          const [a, b] = pairIndices(j, r, layout);
          const partner = i === a ? b : a;
          return h(
            'tr',
            { 'data-index': i, class: `pair-${j}` },
            h('th', { scope: 'row' }, String(i)),
            h('td', {}, fmt(x[i], 2)),
            h('td', { class: 'pair-cell' }, L('pairWith', { j, partner })),
            h('td', { class: 'rotated-cell' }, fmt(y[i], 5)),
          );
        });
        layoutBox.append(
          h(
            'div',
            { class: `rope-layout rope-layout-${layout}` },
            h('h3', {}, L(`layoutName.${layout}`)),
            h('p', { class: 'layout-code' }, h('code', {}, L(`layoutCode.${layout}`))),
            h(
              'div',
              { class: 'table-scroll' },
              h(
                'table',
                { class: 'data rope-layout-table', 'data-layout': layout },
                h('caption', {}, L('layoutCaption', { p: s.pos })),
                h('thead', {}, h('tr', {}, [L('thIndex'), 'x', L('thPair'), L('thRotated')].map((c) => h('th', { scope: 'col' }, c)))),
                h('tbody', {}, rows),
              ),
            ),
          ),
        );
      }
      // permuting x into interleaved order, rotating, and permuting back gives the half result
      const perm = Float32Array.from({ length: r }, (_, i) => x[i % 2 === 0 ? i >> 1 : (i >> 1) + r / 2]);
      pe.applyRope(perm, [s.pos], r, { base: s.base, layout: 'interleaved' });
      let diff = 0;
      for (let j = 0; j < r / 2; j++) diff = Math.max(diff, Math.abs(perm[2 * j] - outputs.half[j]), Math.abs(perm[2 * j + 1] - outputs.half[j + r / 2]));
      layoutCheck.textContent = L('layoutCheck', { difference: diff === 0 ? '0' : sci(diff), p: s.pos });
      layoutCheck.dataset.difference = String(diff);
      return outputs;
    }

    // ---- scaling ----
    function drawScaling(s) {
      const r = SCALING_ROTARY_DIM;
      const curves = {};
      for (const type of SCALING_TYPES) curves[type] = pe.ropeFrequencies(r, scalingOptions(type, s, r));
      const rotations = s.measure === 'rotations';
      const valueOf = (inv) => (rotations ? rotationsWithin(inv, s.ctx) : wavelengths(inv));
      const series = SCALING_TYPES.map((type, i) => ({
        name: L(`type.${type}`),
        points: valueOf(curves[type]).map((v, j) => [j, v]),
        color: SERIES_COLORS[i],
        type,
      }));
      const values = series.flatMap((x) => x.points.map(([, v]) => v)).filter((v) => v > 0);
      const marks = rotations
        ? [{ y: 1, label: L('markOneTurn') }]
        : [
            { y: s.ctx, label: L('markContext', { ctx: s.ctx.toLocaleString('en-US') }) },
            { y: s.ctx * s.factor, label: L('markTarget', { target: Math.round(s.ctx * s.factor).toLocaleString('en-US') }) },
          ];
      const markValues = marks.map((m) => m.y);
      const lo = Math.min(...values, ...markValues) / 2;
      const hi = Math.max(...values, ...markValues) * 2;
      const yLabel = rotations ? L('axisRotations', { ctx: s.ctx.toLocaleString('en-US') }) : L('axisWavelength');
      scalingChart.draw({ series, xDomain: [0, r / 2 - 1], yDomain: [lo, hi], marks, snap: (v) => Math.round(v), yLabel });
      // what changed: pairs whose wavelength fits in the original context, per type
      const within = (inv) => wavelengths(inv).filter((l) => l <= s.ctx).length;
      scalingSummary.textContent = L('scalingSummary', {
        ctx: s.ctx.toLocaleString('en-US'),
        half: r / 2,
        parts: SCALING_TYPES.map((type) => L('scalingPart', { name: L(`type.${type}`), count: within(curves[type]) })).join(L('listJoin')),
        att: fmt(pe.ropeCache([0], r, scalingOptions('yarn', s, r)).attentionFactor, 4),
      });
      return curves;
    }

    function describeScaling(j) {
      if (!current) return;
      const s = current.s;
      const pair = Math.min(SCALING_ROTARY_DIM / 2 - 1, Math.max(0, j));
      const parts = SCALING_TYPES.map((type) => {
        const inv = current.scaling[type][pair];
        return L('scalingValue', { name: L(`type.${type}`), wavelength: wavelengthText((2 * Math.PI) / inv), rotations: fmt((s.ctx * inv) / (2 * Math.PI), 3) });
      });
      scalingInfo.textContent = L('scalingReadout', { j: pair, values: parts.join('; ') });
    }

    // ---- config.json ----
    function loadExample(id) {
      textarea.value = CONFIG_EXAMPLES[id];
      app.setState({ model: id });
      readConfig();
    }

    function readConfig() {
      clear(configResult);
      configFigure.hidden = true;
      const parsed = parseConfigText(textarea.value);
      if (parsed.error) {
        configResult.append(h('p', { class: 'config-error', role: 'alert' }, L('configJsonError', { message: parsed.error })));
        return;
      }
      let result;
      try {
        result = pe.ropeOptionsFromConfig(parsed.config);
      } catch (error) {
        // the package names the config key at fault; shown as text, never as markup
        configResult.append(h('p', { class: 'config-error', role: 'alert' }, L('configApiError', { type: error?.name ?? 'Error', message: String(error?.message ?? error) })));
        return;
      }
      const { headDim, rotaryDim, options } = result;
      let inv;
      try {
        inv = pe.ropeFrequencies(rotaryDim, options);
      } catch (error) {
        configResult.append(h('p', { class: 'config-error', role: 'alert' }, L('configApiError', { type: error?.name ?? 'Error', message: String(error?.message ?? error) })));
        return;
      }
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
      const lam = wavelengths(inv);
      configResult.append(
        list,
        h('p', { class: 'config-sentence' }, L('configSentence', { type, r: rotaryDim, fast: wavelengthText(lam[0]), slow: wavelengthText(lam.at(-1)), base })),
      );
      const series = [
        { name: L('configSeries', { type }), points: lam.map((v, j) => [j, v]), color: SERIES_COLORS[0] },
        { name: L('configPlain', { base }), points: wavelengths(plain).map((v, j) => [j, v]), color: SERIES_COLORS[1] },
      ];
      const marks = context ? [{ y: context, label: L('markContext', { ctx: context.toLocaleString('en-US') }) }] : [];
      const all = [...series.flatMap((x) => x.points.map(([, v]) => v)), ...marks.map((m) => m.y)];
      configFigure.hidden = false;
      const data = { series, xDomain: [0, Math.max(1, rotaryDim / 2 - 1)], yDomain: [Math.min(...all) / 2, Math.max(...all) * 2], marks };
      configChart.draw(data);
      clear(configTable).append(
        h(
          'div',
          { class: 'table-scroll' },
          h(
            'table',
            { class: 'data config-table' },
            h('thead', {}, h('tr', {}, ['j', 'ω_j', 'λ_j', context ? L('thTurns', { ctx: context.toLocaleString('en-US') }) : null].filter(Boolean).map((c) => h('th', { scope: 'col' }, c)))),
            h('tbody', {}, Array.from(inv, (w, j) => h('tr', {}, h('td', {}, String(j)), h('td', {}, fmt(w, 8)), h('td', {}, fmt(lam[j], 2)), context ? h('td', {}, fmt((context * w) / (2 * Math.PI), 3)) : null))),
          ),
        ),
      );
    }

    // ---- precision ----
    let precisionKey = '';
    function drawPrecision(s) {
      const r = PRECISION_ROTARY_DIM;
      const inv = defaultInvFreq(r, s.base);
      const invF = hfInvFreqF32(r, s.base);
      if (precisionKey !== String(s.base)) {
        precisionKey = String(s.base);
        const f32Points = [];
        const bfPoints = [];
        const sinpePoints = [];
        for (const top of OCTAVES) {
          const positions = samplePositionsBelow(top);
          f32Points.push([top, Math.max(1e-9, maxAngleError(positions, inv, invF, 'float32').error)]);
          bfPoints.push([top, Math.max(1e-9, maxAngleError(positions, inv, invF, 'bf16').error)]);
          // the package's cache: float64 angles, one rounding of cos and sin
          const { cos, sin } = pe.ropeCache(positions, r, { base: s.base });
          let worst = 0;
          positions.forEach((p, i) => {
            for (let j = 0; j < r / 2; j++) {
              const a = p * inv[j];
              worst = Math.max(worst, Math.abs(cos[i * (r / 2) + j] - Math.cos(a)), Math.abs(sin[i * (r / 2) + j] - Math.sin(a)));
            }
          });
          sinpePoints.push([top, Math.max(1e-9, worst)]);
        }
        const series = [
          { name: L('seriesFloat32'), points: f32Points, dots: f32Points, color: SERIES_COLORS[0] },
          { name: L('seriesBf16'), points: bfPoints, dots: bfPoints, color: SERIES_COLORS[1] },
          { name: L('seriesSinpe'), points: sinpePoints, dots: sinpePoints, color: SERIES_COLORS[2] },
        ];
        const data = { series, xDomain: [2048, 2 ** 21], yDomain: [1e-8, 4], marks: [{ y: 2.5e-7, label: L('markContract') }] };
        precisionChart.draw(data);
        precisionSummary.textContent = L('precisionSummary', {
          e4k: sci(f32Points[0][1]),
          e64k: sci(f32Points[4][1]),
          e1m: sci(f32Points[8][1]),
          sinpe: sci(Math.max(...sinpePoints.map(([, v]) => v))),
        });
      }
      // one position, the first two pairs and the slowest one, every pipeline
      const p = s.at;
      const cache = pe.ropeCache([p], r, { base: s.base });
      const rows = [];
      for (const j of [0, 1, r / 2 - 1]) {
        const exact = p * inv[j];
        const a32 = pipelineAngle(p, inv[j], invF[j], 'float32');
        const a16 = pipelineAngle(p, inv[j], invF[j], 'bf16');
        const cells = [
          [L('rowExact'), exact, Math.cos(exact), 0],
          [L('rowFloat32'), a32, Math.cos(a32), Math.abs(Math.cos(a32) - Math.cos(exact))],
          [L('rowBf16'), a16, Math.cos(a16), Math.abs(Math.cos(a16) - Math.cos(exact))],
          [L('rowSinpe'), null, cache.cos[j], Math.abs(cache.cos[j] - Math.cos(exact))],
        ];
        cells.forEach(([name, angle, c, err], k) =>
          rows.push(
            h(
              'tr',
              { 'data-pair': j, 'data-pipeline': ['exact', 'float32', 'bf16', 'sinpe'][k] },
              k === 0 ? h('th', { scope: 'rowgroup', rowspan: 4 }, L('pairCell', { j, omega: fmt(inv[j], 6) })) : null,
              h('th', { scope: 'row' }, name),
              h('td', { class: 'angle' }, angle === null ? '—' : fmt(angle, 6)),
              h('td', { class: 'cos' }, fmt(c, 6)),
              h('td', { class: 'error' }, k === 0 ? '—' : sci(err)),
            ),
          ),
        );
      }
      clear(precisionTable).append(
        h('p', { class: 'precision-spacing' }, L('precisionSpacing', { p: p.toLocaleString('en-US'), angle: fmt(p * inv[0], 1), f32: String(spacing(p * inv[0], 24)), bf16: String(spacing(p * inv[0], 8)), bfPos: bf16(p).toLocaleString('en-US') })),
        h(
          'div',
          { class: 'table-scroll' },
          h(
            'table',
            { class: 'data precision-table' },
            h('caption', {}, L('precisionCaptionTable', { p: p.toLocaleString('en-US'), r, base: s.base })),
            h('thead', {}, h('tr', {}, [L('thPairCol'), L('thPipeline'), L('thAngle'), 'cos', L('thError')].map((c) => h('th', { scope: 'col' }, c)))),
            h('tbody', {}, rows),
          ),
        ),
      );
    }

    return {
      update(s, prev) {
        dialControls.sync(s);
        checkControls.sync(s);
        scalingControls.sync(s);
        precisionControls.sync(s);
        measureToggle.sync(s);
        // each section is redrawn only when a field it shows changed
        const changed = (...keys) => !prev || keys.some((k) => prev[k] !== s[k]);
        current = { ...current, s };
        if (changed('pos', 'base', 'seed')) current.dial = drawDials(s);
        if (changed('k', 'seed', 'base')) {
          current.check = drawCheck(s);
          describeCheck(0);
        }
        if (changed('pos', 'base')) current.layouts = drawLayouts(s);
        if (changed('factor', 'ctx', 'measure', 'base')) {
          current.scaling = drawScaling(s);
          describeScaling(0);
        }
        if (changed('at', 'base')) drawPrecision(s);
        if (!prev || prev.model !== s.model) {
          if (CONFIG_EXAMPLES[s.model] && textarea.value !== CONFIG_EXAMPLES[s.model]) {
            textarea.value = CONFIG_EXAMPLES[s.model];
            readConfig();
          }
        }
      },
      figures: { dials, checkChart, scalingChart, precisionChart, configChart },
      get current() {
        return current;
      },
    };
  },
};
