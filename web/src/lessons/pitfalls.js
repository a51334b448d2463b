// Lesson 7: pitfalls. (a) The exponent bug of the seed notebook beside the
// correct table, with their difference; (b) the float32 angle error of the
// usual PyTorch recipe growing with position, against sinpe's exact values,
// with a NumPy-style tolerance check.
import { h, fmt, paragraphs } from '../lib/dom.js';
import { createHeatmap, createColorBar } from '../lib/heatmap.js';
import { colormapLUT, valuesToRGBA } from '../lib/colormap.js';
import { createLineChart } from '../lib/chart.js';
import { lessonHeader, section, readout, commented } from '../lib/lesson.js';
import { buggyTable, correctTable, exponents, float32Row, octaveSample, toleranceSnippet } from '../model/pitfalls.js';

export default {
  id: 'pitfalls',
  mount(root, app, controlsElement) {
    const { t, pe } = app;
    const info = readout('pitfalls-readout');
    const maps = {};
    const fig = (key) => {
      maps[key] = createHeatmap({
        xLabel: t('axis.column'),
        yLabel: t('axis.position'),
        label: t(`lessons.pitfalls.${key}Label`),
        className: `small map-${key}`,
        onCursor: (c, r) => describeBug(r, c),
      });
      return h('div', {}, h('h3', {}, t(`lessons.pitfalls.${key}Title`)), maps[key].element);
    };
    const bar = createColorBar({ label: t('axis.value') });
    const errorChart = createLineChart({
      xLabel: t('axis.position'),
      yLabel: t('lessons.pitfalls.errorAxis'),
      label: t('lessons.pitfalls.errorLabel'),
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
      onCursor: (c, r) => describeTolerance(r, c),
      onScroll: (delta) => app.setState({ start: Math.max(0, app.state.start + delta) }),
    });
    const tolSummary = h('p', { class: 'tolerance-summary' });
    const tolCode = h('code', { class: 'tolerance-code' });
    const jumps = h(
      'div',
      { class: 'button-row' },
      h('span', { class: 'button-row-label' }, t('lessons.pitfalls.jump')),
      [0, 4096, 65536, 1048576].map((p) => h('button', { type: 'button', class: 'button', onclick: () => app.setState({ start: p }) }, p.toLocaleString('en-US'))),
    );

    root.append(
      ...lessonHeader(app, 'pitfalls'),
      h('div', { class: 'lesson-controls' }, controlsElement),
      section(
        t('lessons.pitfalls.bugTitle'),
        ...paragraphs(t('lessons.pitfalls.bugText')),
        h('div', { class: 'code-pair' }, h('pre', {}, h('code', { class: 'code-buggy' }, commented(app, 'pitfalls', BUGGY))), h('pre', {}, h('code', { class: 'code-fixed' }, commented(app, 'pitfalls', FIXED)))),
        h('div', { class: 'side-by-side' }, fig('buggy'), fig('correct'), fig('difference')),
        bar.element,
        info,
        ...paragraphs(t('lessons.pitfalls.bugAfter')),
      ),
      section(t('lessons.pitfalls.floatTitle'), ...paragraphs(t('lessons.pitfalls.floatText')), errorChart.element, errorText),
      section(t('lessons.pitfalls.tolTitle'), ...paragraphs(t('lessons.pitfalls.tolText')), h('pre', {}, tolCode), jumps, tolMap.element, tolSummary, tolInfo),
    );

    let current = null;

    function describeBug(r, c) {
      const { s, buggy, correct, difference } = current;
      if (r >= s.len) return;
      const i = r * s.d + c;
      info.textContent = t('lessons.pitfalls.bugReadout', {
        position: r,
        column: c,
        buggy: fmt(buggy[i], 5),
        correct: fmt(correct[i], 5),
        difference: fmt(difference[i], 5),
        buggyExp: exponents(c, s.d).buggy,
        correctExp: exponents(c, s.d).correct,
      });
      for (const key of ['buggy', 'correct', 'difference']) maps[key].setCursor(c, r, false);
    }

    function describeTolerance(r, c) {
      const { s, exact, approx } = current;
      const i = r * s.d + c;
      const diff = Math.abs(approx[i] - exact[i]);
      tolInfo.textContent = t('lessons.pitfalls.tolReadout', {
        position: s.start + r,
        column: c,
        float32: fmt(approx[i], 7),
        exact: fmt(exact[i], 7),
        difference: diff.toExponential(2),
        verdict: diff < s.tol ? 'True' : 'False',
      });
    }

    let errorKey = '';
    return {
      figures: { ...maps, tolMap, errorChart },
      update(s) {
        const buggy = buggyTable(s.len, s.d);
        const correct = pe.table(s.len, s.d);
        const correct64 = correctTable(s.len, s.d);
        const difference = buggy.map((v, i) => v - correct64[i]);
        const lut = colormapLUT(s.cmap);
        maps.buggy.draw({ rgba: valuesToRGBA(buggy, s.cmap), columns: s.d, rows: s.len, x0: 0, y0: 0 });
        maps.correct.draw({ rgba: pe.heatmap(0, s.len, s.d, { colormap: lut }), columns: s.d, rows: s.len, x0: 0, y0: 0 });
        maps.difference.draw({ rgba: valuesToRGBA(difference, s.cmap), columns: s.d, rows: s.len, x0: 0, y0: 0 });
        bar.draw(s.cmap, -1, 1);

        // tolerance check on rows [start, start + len)
        const exact = pe.rows(s.start, s.len, s.d);
        const approx = new Float64Array(s.len * s.d);
        const row = new Float64Array(s.d);
        for (let r = 0; r < s.len; r++) approx.set(float32Row(s.start + r, s.d, row), r * s.d);
        const tolerance = s.tol;
        tolCode.textContent = toleranceSnippet(tolerance, t('code.pitfalls.tolerance'));
        const verdict = new Float32Array(s.len * s.d);
        let failed = 0;
        let worst = 0;
        for (let i = 0; i < verdict.length; i++) {
          const diff = Math.abs(approx[i] - exact[i]);
          worst = Math.max(worst, diff);
          const pass = diff < tolerance;
          if (!pass) failed++;
          verdict[i] = pass ? 1 : -1; // True ↦ +1 end of the colormap, False ↦ −1 end
        }
        current = { s, buggy, correct, difference, exact, approx };
        tolMap.draw({ rgba: valuesToRGBA(verdict, s.cmap), columns: s.d, rows: s.len, x0: 0, y0: s.start, scale: { cmap: s.cmap, vmin: -1, vmax: 1, label: t('lessons.pitfalls.tolScale') } });
        tolSummary.textContent = t('lessons.pitfalls.tolSummary', {
          first: s.start,
          last: s.start + s.len - 1,
          tolerance: String(tolerance),
          failed,
          total: verdict.length,
          worst: worst.toExponential(2),
        });
        describeBug(Math.min(1, s.len - 1), Math.min(1, s.d - 1));
        describeTolerance(0, 0);

        // float32 error against position, for this d (recomputed only when d changes)
        if (errorKey !== `${s.d}`) {
          errorKey = `${s.d}`;
          const points = [];
          const fr = new Float64Array(s.d);
          for (let e = 3; e < 24; e++) {
            let worstInOctave = 0;
            const positions = octaveSample(e);
            const exactRows = pe.encode(positions, s.d);
            positions.forEach((p, j) => {
              float32Row(p, s.d, fr);
              for (let c = 0; c < s.d; c++) worstInOctave = Math.max(worstInOctave, Math.abs(fr[c] - exactRows[j * s.d + c]));
            });
            points.push([2 ** (e + 1), Math.max(worstInOctave, 1e-9)]);
          }
          errorChart.draw({
            series: [{ name: t('lessons.pitfalls.errorSeries', { d: s.d }), points, dots: points }],
            xDomain: [8, 2 ** 24],
            yDomain: [1e-8, 1],
            marks: [{ y: 2.5e-7, label: t('lessons.pitfalls.sinpeBound') }, { y: 1e-3, label: t('lessons.pitfalls.seedTolerance') }],
          });
          // the largest error over all positions below p (the errors of every octave up to p)
          const below = (p) => Math.max(...points.filter(([x]) => x <= p).map(([, v]) => v));
          const sci = (v) => v.toExponential(1).replace(/-/g, '−');
          errorText.textContent = t('lessons.pitfalls.errorSummary', { d: s.d, e4096: sci(below(4096)), e65536: sci(below(65536)), e1m: sci(below(2 ** 20)) });
        }
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
