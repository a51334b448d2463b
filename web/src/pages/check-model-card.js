// One RoPE site's card on the "Check a model" page (pages/check-model.js): its
// tensors, verdict and diagnosis, each with a link to the lesson section that
// teaches it, and the chart of its deviation from exact by position (drawn
// once the card is in the page: pushed to `charts`). T: the page's strings
// (checkModel.*), t: the site's, app: the site (app.section gives a lesson
// section's URL and heading).
import { h } from '../lib/dom.js';
import { createLineChart } from '../lib/chart.js';
import { verdictKey, mistakeKey, groupKey, layoutKey, chartPoints, teachingSection } from '../model/check-model.js';

const FLOOR = 1e-10; // a deviation of 0 is drawn here on the log axis
const sci = (v) => (v === 0 ? '0' : v.toExponential(2));

export function siteCard(site, curve, index, { T, t, app, charts }) {
  const names = site.kind === 'cache' ? `${site.cos.name} / ${site.sin.name}` : site.invFreq.name;
  const shape = site.kind === 'cache' ? `[${site.cos.shape.join(' × ')}]` : `[${site.invFreq.shape.join(' × ')}]`;
  const rows = [
    [T('names'), names],
    [T('shape'), shape],
    [T('dtype'), site.dtype],
    [T('rows'), site.kind === 'cache' ? t('checkModel.rowsValue', { rows: site.rows }) : '—'],
    [T('rotaryWidth'), String(site.rotaryDim)],
    [T('layoutLabel'), T(layoutKey(site.interleaved).slice('checkModel.'.length))],
    [T('groupLabel'), T(groupKey(site.group).slice('checkModel.'.length))],
  ];
  const table = h('table', { class: 'check-model-site-table' }, h('tbody', {}, ...rows.map(([k, v]) => h('tr', {}, h('th', { scope: 'row' }, k), h('td', {}, v)))));
  const verdict = h('p', { class: `check-model-verdict verdict-${site.verdict}`, 'data-verdict': site.verdict }, T(verdictKey(site.verdict).slice('checkModel.'.length)));
  const parts = [h('h2', {}, names), table, verdict, lessonLink('verdict', site.verdict, T, t, app)];
  if (site.diagnosis) {
    parts.push(h('p', { class: 'check-model-diagnosis', 'data-mistake': site.diagnosis.mistake }, T(mistakeKey(site.diagnosis.mistake).slice('checkModel.'.length))));
    parts.push(lessonLink('mistake', site.diagnosis.mistake, T, t, app));
  }
  if (site.short) parts.push(h('p', { class: 'check-model-short' }, T('short', { rows: site.rows, expected: site.expected.maxPositions })));
  if (curve) {
    const m = curve.cache.max;
    // a cache that is the exact values bit for bit says so, rather than "largest |Δ| 0 at row 0"
    parts.push(h('p', { class: 'check-model-deviation' }, m.value === 0 ? T('bitExact', { rows: site.rows }) : T('maxDeviation', { value: sci(m.value), row: m.row, col: m.col, which: m.which })));
    parts.push(chartOf(site, curve, index, T, charts));
  }
  return h('section', { class: 'check-model-site', 'data-site': String(index), 'data-cos': site.cos?.name ?? site.invFreq?.name }, ...parts);
}

// the lesson section that teaches a verdict or diagnosis, in the page's language (null: none does)
function lessonLink(kind, code, T, t, app) {
  const at = teachingSection(kind, code);
  if (!at) return null;
  const { href, title } = app.section(at.lesson, at.section);
  return h(
    'p',
    { class: 'check-model-learn', 'data-for': kind },
    T('learn'),
    ' ',
    h('a', { href, class: 'check-model-lesson-link', 'data-lesson': at.lesson, 'data-section': at.section }, T('learnWhere', { lesson: t(`lessons.${at.lesson}.title`), section: t(title) })),
  );
}

function chartOf(site, curve, index, T, charts) {
  const chart = createLineChart({ xLabel: T('axisPosition'), yLabel: T('axisDeviation'), label: T('chartLabel', { name: site.cos.name }), yLog: true, height: 240, key: `check-model-${index}` });
  const a = chartPoints(curve.cache.perRow, 600, FLOOR);
  const b = chartPoints(curve.recipe.perRow, 600, FLOOR);
  const top = Math.max(FLOOR * 10, ...a.map((p) => p[1]), ...b.map((p) => p[1]));
  const figure = h('div', { class: 'check-model-chart' }, chart.element, h('p', { class: 'check-model-caption figure-caption' }, T('caption', { name: site.cos.name, sin: site.sin.name, rows: site.rows, last: site.rows - 1 })));
  charts.push(() =>
    chart.draw({
      series: [
        // drawn first and wider: where the two coincide (a cache made by the float32 recipe) the cache's
        // line still shows on both sides of the recipe's, instead of being hidden under it
        { name: T('seriesCache'), points: a, width: 4 },
        { name: T('seriesRecipe'), points: b },
      ],
      xDomain: [0, Math.max(1, site.rows - 1)],
      yDomain: [FLOOR, 10 ** Math.ceil(Math.log10(top))],
    }),
  );
  return figure;
}
