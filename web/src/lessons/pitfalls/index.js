// The pitfalls lesson: pitfalls. (a) The exponent bug of the seed notebook beside the
// correct table, with their difference; (b) the float32 angle error of the
// usual PyTorch recipe growing with position, against sinpe's exact values,
// with a NumPy-style tolerance check.
import { h, fmt, paragraphs } from '../../lib/dom.js';
import { createHeatmap, createColorBar } from '../../lib/heatmap.js';
import { colormapLUT, valuesToRGBA } from '../../lib/colormap.js';
import { createLineChart } from '../../lib/chart.js';
import { lessonHeader, section, readout, commented } from '../../lib/lesson.js';
import { buggyRows, correctRows, exponents, float32Row, octaveSample, toleranceSnippet } from '../../model/pitfalls.js';
import { formatInteger } from '../../lib/numbers.js';
import { MAX_POSITION } from '../../model/fields.js';
import { questions } from './questions.js';
import { rowStore } from '../../model/row-store.js';
import { drawWhenSeen } from '../../lib/offscreen.js';
import { createSlicedWork } from '../../lib/sliced.js';

const DIFFERENCE_RANGE = 2;
// the cells of the tolerance check computed in one slice (float32 recipe and exact rows)
const CHECK_SLICE_CELLS = 16384;

export default {
  id: 'pitfalls',
  questions,
  mount(root, ctx) {
    const { t, pe } = ctx;
    const info = readout('pitfalls-readout');
    const maps = {};
    const fig = (key) => {
      maps[key] = createHeatmap({
        xLabel: t('axis.column'),
        yLabel: t('axis.position'),
        label: t(`lessons.pitfalls.${key}Label`),
        className: `small map-${key}`,
        key,
        onCursor: (c, r) => describeBug(r, c),
      });
      return h('div', {}, h('h3', {}, t(`lessons.pitfalls.${key}Title`)), maps[key].element);
    };
    const bugMaps = h('div', { class: 'side-by-side' }, fig('buggy'), fig('correct'), fig('difference'));
    const bar = createColorBar({ label: t('axis.value') });
    // the difference of two values in [−1, 1] lies in [−2, 2]: its own colour scale, so no cell is clipped
    const diffBar = createColorBar({ label: t('lessons.pitfalls.differenceTitle'), vmin: -DIFFERENCE_RANGE, vmax: DIFFERENCE_RANGE });
    const errorChart = createLineChart({
      xLabel: t('axis.position'),
      yLabel: t('lessons.pitfalls.errorAxis'),
      label: t('lessons.pitfalls.errorLabel'),
      key: 'float32-error',
      xLog: true,
      yLog: true,
      height: 280,
    });
    const errorText = h('p', { class: 'error-summary' });
    const tolInfo = readout('tolerance-readout');
    const tolMap = createHeatmap({
      xLabel: t('axis.column'),
      yLabel: t('axis.position'),
      label: t('lessons.pitfalls.tolLabel'),
      className: 'small map-tolerance',
      key: 'tolerance',
      filteredNote: t('figure.averaged'),
      onCursor: (c, r) => describeTolerance(r, c),
      onScroll: (delta) => ctx.setState({ start: Math.max(0, ctx.state.start + delta) }),
    });
    const tolSummary = h('p', { class: 'tolerance-summary' });
    const tolCode = h('code', { class: 'tolerance-code' });
    const jumps = h(
      'div',
      { class: 'button-row' },
      h('span', { class: 'button-row-label' }, t('lessons.pitfalls.jump')),
      [0, 4096, 65536, 1048576].map((p) => h('button', { type: 'button', class: 'button', onclick: () => ctx.setState({ start: p }) }, formatInteger(p))),
    );

    root.append(
      ...lessonHeader(ctx, 'pitfalls'),
      h('div', { class: 'lesson-controls' }, ctx.controls),
      section(
        t('lessons.pitfalls.bugTitle'),
        ...paragraphs(t('lessons.pitfalls.bugText')),
        h('div', { class: 'code-pair' }, h('pre', {}, h('code', { class: 'code-buggy' }, commented(ctx, 'pitfalls', BUGGY))), h('pre', {}, h('code', { class: 'code-fixed' }, commented(ctx, 'pitfalls', FIXED)))),
        bugMaps,
        bar.element,
        diffBar.element,
        info,
        ...paragraphs(t('lessons.pitfalls.bugAfter')),
      ),
      section(t('lessons.pitfalls.floatTitle'), ...paragraphs(t('lessons.pitfalls.floatText')), errorChart.element, errorText),
      section(t('lessons.pitfalls.tolTitle'), ...paragraphs(t('lessons.pitfalls.tolText')), h('pre', {}, tolCode), jumps, tolMap.element, tolSummary, tolInfo),
    );

    let current = null;

    // r: a drawn row (position r · step)
    function describeBug(r, c) {
      const { s } = current;
      const position = r * bug.step;
      if (position >= s.len) return;
      // one cell, from the formulas: the maps may show only every step-th row
      const buggy = buggyRows([position], s.d)[c];
      const difference = buggy - correctRows([position], s.d)[c];
      info.textContent = t('lessons.pitfalls.bugReadout', {
        position,
        column: c,
        buggy: fmt(buggy, 5),
        correct: fmt(pe.rows(position, 1, s.d)[c], 5),
        difference: fmt(difference, 5),
        buggyExp: exponents(c, s.d).buggy,
        correctExp: exponents(c, s.d).correct,
      });
      for (const key of ['buggy', 'correct', 'difference']) maps[key].setCursor(c, r, false);
    }

    function describeTolerance(r, c) {
      const { s, exact, approx } = current;
      const i = r * check.step * s.d + c;
      const diff = Math.abs(approx[i] - exact[i]);
      tolInfo.textContent = t('lessons.pitfalls.tolReadout', {
        position: s.start + r * check.step,
        column: c,
        float32: fmt(approx[i], 7),
        exact: fmt(exact[i], 7),
        difference: diff.toExponential(2),
        verdict: diff < s.tol ? 'True' : 'False',
      });
    }

    // The bug tables depend on (len, d) only, the float32 check on (start, len,
    // d): each is recomputed when those change, coloured again when the
    // colormap does. The error curve over all octaves takes longer than a
    // frame at large d: it is computed in slices between frames, cached per d.
    let bug = { key: '' };
    let check = { key: '' };
    // their rows do not depend on len: a step of len computes only the rows it adds
    const bugRows = rowStore(['buggy', 'difference']);
    const checkWork = createSlicedWork({ busy: [tolSummary] });
    const checkRows = rowStore(['exact', 'approx', 'diff']);
    const errorCurves = new Map(); // d → points
    let errorJob = 0;
    // a task after the current one, without setTimeout's 4 ms clamp when chained
    const channel = new MessageChannel();
    const queued = [];
    channel.port1.onmessage = () => queued.shift()?.();
    const yieldThen = (f) => {
      queued.push(f);
      channel.port2.postMessage(null);
    };

    function drawErrors(s, points) {
      const { d } = s;
      errorChart.draw({
        state: { d },
        series: [{ name: t('lessons.pitfalls.errorSeries', { d }), points, dots: points }],
        xDomain: [8, MAX_POSITION], // the positions the contract covers
        yDomain: [1e-8, 1],
        marks: [{ y: 2.5e-7, label: t('lessons.pitfalls.sinpeBound') }, { y: 1e-3, label: t('lessons.pitfalls.seedTolerance') }],
      });
      // the largest error over all positions below p (the errors of every octave up to p)
      const below = (p) => Math.max(...points.filter(([x]) => x <= p).map(([, v]) => v));
      const sci = (v) => v.toExponential(1).replace(/-/g, '−');
      errorText.textContent = t('lessons.pitfalls.errorSummary', { d, e4096: sci(below(4096)), e65536: sci(below(65536)), e1m: sci(below(2 ** 20)) });
    }

    /** The float32 error curve for d: from the cache, or computed one octave per task. */
    function showErrors(s) {
      const { d } = s;
      const job = ++errorJob;
      if (errorCurves.has(d)) return drawErrors(s, errorCurves.get(d));
      const points = [];
      const fr = new Float64Array(d);
      let e = 3;
      const step = () => {
        if (job !== errorJob) return; // d changed again: this curve is not wanted now
        const until = performance.now() + 8;
        while (e < 24 && performance.now() < until) {
          let worstInOctave = 0;
          const positions = octaveSample(e);
          const exactRows = pe.encode(positions, d);
          positions.forEach((p, j) => {
            float32Row(p, d, fr);
            for (let c = 0; c < d; c++) worstInOctave = Math.max(worstInOctave, Math.abs(fr[c] - exactRows[j * d + c]));
          });
          points.push([2 ** (e + 1), Math.max(worstInOctave, 1e-9)]);
          e++;
        }
        if (e < 24) return void yieldThen(step);
        if (errorCurves.size > 32) errorCurves.clear();
        errorCurves.set(d, points);
        drawErrors(s, points);
      };
      yieldThen(step);
    }

    // Maps with more rows than pixel rows show every step-th row (the
    // browser's scaling would drop the others); readouts use every row.
    function stepFor(map, s) {
      const pixels = map.plotPixels;
      return pixels > 0 && s.len > 2 * pixels ? Math.ceil(s.len / pixels) : 1;
    }

    function drawBug(s) {
      const lut = colormapLUT(s.cmap);
      const bugStep = stepFor(maps.buggy, s);
      const bugKey = `${s.len} ${s.d} ${bugStep}`;
      if (bug.key !== bugKey) {
        const positions = Array.from({ length: Math.ceil(s.len / bugStep) }, (_, r) => r * bugStep);
        const { buggy, difference } = bugRows(`${s.d} ${bugStep}`, positions.length, s.d, (from, to) => {
          const buggy = buggyRows(positions.slice(from, to), s.d);
          const difference = correctRows(positions.slice(from, to), s.d);
          for (let i = 0; i < difference.length; i++) difference[i] = buggy[i] - difference[i];
          return { buggy, difference };
        });
        bug = { key: bugKey, step: bugStep, positions, buggy, difference, cmap: '' };
      }
      if (bug.cmap !== s.cmap) {
        bug.cmap = s.cmap;
        const rows = bug.positions.length;
        // the bug tables depend on d and len (and the colormap) only
        const frame = { columns: s.d, rows, rowStep: bugStep, x0: 0, y0: 0, state: { d: s.d, len: s.len, cmap: s.cmap } };
        const scale = { cmap: s.cmap, vmin: -1, vmax: 1, label: t('axis.value') };
        const diffScale = { cmap: s.cmap, vmin: -DIFFERENCE_RANGE, vmax: DIFFERENCE_RANGE, label: t('lessons.pitfalls.differenceTitle') };
        const correct = bugStep === 1 ? pe.heatmap(0, s.len, s.d, { colormap: lut }) : valuesToRGBA(pe.encode(bug.positions, s.d), s.cmap);
        maps.buggy.draw({ ...frame, rgba: valuesToRGBA(bug.buggy, s.cmap), scale });
        maps.correct.draw({ ...frame, rgba: correct, scale });
        maps.difference.draw({ ...frame, rgba: valuesToRGBA(bug.difference, s.cmap, -DIFFERENCE_RANGE, DIFFERENCE_RANGE), scale: diffScale });
        bar.draw(s.cmap, -1, 1);
        diffBar.draw(s.cmap, -DIFFERENCE_RANGE, DIFFERENCE_RANGE);
      }
      describeBug(Math.min(1, s.len - 1), Math.min(1, s.d - 1));
    }

    function drawCheck(s, changed) {
      // tolerance check on rows [start, start + len)
      const checkKey = `${s.start} ${s.len} ${s.d}`;
      if (check.key === checkKey) return showCheck(s, changed);
      // the rows are computed a slice at a time (lib/sliced.js): a large table takes several frames
      const make = (from, to) => {
        const exact = pe.rows(s.start + from, to - from, s.d);
        const approx = new Float64Array((to - from) * s.d);
        const row = new Float64Array(s.d);
        for (let r = from; r < to; r++) approx.set(float32Row(s.start + r, s.d, row), (r - from) * s.d);
        const diff = new Float64Array(approx.length);
        for (let i = 0; i < diff.length; i++) diff[i] = Math.abs(approx[i] - exact[i]);
        return { exact, approx, diff };
      };
      const chunk = Math.max(1, Math.floor(CHECK_SLICE_CELLS / s.d));
      let [rows, table] = [0, null];
      checkWork.start(
        () => {
          rows = Math.min(s.len, rows + chunk);
          table = checkRows(`${s.start} ${s.d}`, rows, s.d, make);
          return rows === s.len;
        },
        () => {
          let worst = 0;
          for (let i = 0; i < table.diff.length; i++) worst = Math.max(worst, table.diff[i]);
          check = { key: checkKey, ...table, worst, step: 1 };
          showCheck(s, changed);
        },
      );
    }

    function showCheck(s, changed) {
      const checkKey = check.key;
      // every cell is checked and counted; the map draws every step-th row
      check.step = stepFor(tolMap, s);
      const tolerance = s.tol;
      if (changed() || check.drawn !== `${checkKey} ${tolerance} ${s.cmap} ${check.step}`) {
        check.drawn = `${checkKey} ${tolerance} ${s.cmap} ${check.step}`;
        const step = check.step;
        const verdict = new Float32Array(check.diff.length);
        let failed = 0;
        for (let i = 0; i < verdict.length; i++) {
          const pass = check.diff[i] < tolerance;
          if (!pass) failed++;
          verdict[i] = pass ? 1 : -1; // True ↦ +1 end of the colormap, False ↦ −1 end
        }
        const drawn = step === 1 ? verdict : Float32Array.from({ length: Math.ceil(s.len / step) * s.d }, (_, i) => verdict[Math.floor(i / s.d) * step * s.d + (i % s.d)]);
        const scale = { cmap: s.cmap, vmin: -1, vmax: 1, label: t('lessons.pitfalls.tolScale') };
        tolMap.draw({ state: s, rgba: valuesToRGBA(drawn, s.cmap), columns: s.d, rows: drawn.length / s.d, rowStep: step, x0: 0, y0: s.start, scale, full: step === 1 ? null : () => ({ rgba: valuesToRGBA(verdict, s.cmap), rows: s.len }), values: () => ({ data: verdict, rows: s.len }) });
        tolSummary.textContent = t('lessons.pitfalls.tolSummary', {
          first: s.start,
          last: s.start + s.len - 1,
          tolerance: String(tolerance),
          failed,
          total: verdict.length,
          worst: check.worst.toExponential(2),
        });
      }
      current = { ...current, exact: check.exact, approx: check.approx };
      describeTolerance(0, 0);
    }

    return {
      figures: () => ({ ...maps, tolMap, errorChart }),
      update(s, changed) {
        current = { ...current, s };
        tolCode.textContent = toleranceSnippet(s.tol, t('code.pitfalls.tolerance'));
        // each part is computed when on or near the screen, else after the frame (lib/offscreen.js)
        drawWhenSeen(bugMaps, () => drawBug(s));
        drawWhenSeen(tolSummary, () => drawCheck(s, changed));
        // float32 error against position, for this d
        if (changed('d')) showErrors(s);
      },
    };
  },
};

const BUGGY = `# «buggy»
pe[:, 0::2] = torch.sin(pos / (10000 ** (2 * torch.arange(0, d, 2) / d)))
pe[:, 1::2] = torch.cos(pos / (10000 ** (2 * torch.arange(1, d, 2) / d)))`;

const FIXED = `# «fixed»
two_i = torch.arange(0, d, 2)
omega = 1 / 10000 ** (two_i / d)
pe[:, 0::2] = torch.sin(pos * omega)
pe[:, 1::2] = torch.cos(pos * omega)`;
