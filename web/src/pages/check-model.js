// The "Check a model" page (#page=check-model): drop an ONNX model (its
// external data files) and its config.json; the RoPE caches the package's
// inspector (sinpe.wasm/onnx) finds are shown with their verdicts, a chart
// of their deviation from exact by position, and an extended model to
// download. Everything stays on the machine: files are read with
// Blob.slice through readModel's options, nothing is fetched or sent.
import { readModel, findRope, inspectModel, extendModel, referenceCaches } from 'sinpe.wasm/onnx';
import { h, clear } from '../lib/dom.js';
import { MAX_POSITION } from '../model/fields.js';
import { createLineChart } from '../lib/chart.js';
import { sortFiles, looksLikeModel, externalPlan, extendProposal, verdictKey, mistakeKey, groupKey, errorKey, layoutKey, quotedNames, rowDeviation, chartPoints, decodeCache } from '../model/check-model.js';

const FLOOR = 1e-10; // a deviation of 0 is drawn here on the log axis
// A cache's rows are positions 0 … rows − 1: the core's limit on |position| (the vocabulary's) bounds them.
const MAX_ROWS = MAX_POSITION;

export default {
  id: 'check-model',
  mount(root, ctx) {
    const { t } = ctx;
    const T = (key, vars) => t(`checkModel.${key}`, vars);
    const memory = ctx.memory; // { files: { model, config, data: Map }, result } kept across language changes
    memory.data ??= new Map();
    const sci = (v) => (v === 0 ? '0' : v.toExponential(2));
    // a string with a singular and a plural form (key.one / key.other)
    const plural = (key, count, vars) => T(`${key}.${count === 1 ? 'one' : 'other'}`, { count, ...vars });
    const quoted = (names) => names.map((n) => `“${n}”`).join(', ');

    const input = h('input', { type: 'file', multiple: true, accept: '.onnx,.json,.data,application/octet-stream', class: 'check-model-input', id: 'check-model-input' });
    const drop = h(
      'div',
      { class: 'check-model-drop', 'data-drop': 'true' },
      h('p', {}, T('dropHint')),
      h('label', { class: 'button', for: 'check-model-input' }, T('choose')),
      input,
    );
    const errors = h('div', { class: 'check-model-errors', role: 'alert', 'aria-live': 'assertive' });
    const loaded = h('ul', { class: 'check-model-files' });
    const status = h('p', { class: 'check-model-status', 'aria-live': 'polite' });
    const results = h('div', { class: 'check-model-results' });
    const extendBox = h('section', { class: 'check-model-extend', hidden: true });
    root.append(
      h('h1', { class: 'lesson-title' }, T('title')),
      h('p', {}, T('intro')),
      h('p', { class: 'check-model-private' }, T('private')),
      h('div', { class: 'check-model-inputs' }, drop, errors),
      loaded,
      status,
      results,
      extendBox,
    );

    input.addEventListener('change', () => {
      take([...input.files]);
      input.value = '';
    });
    drop.addEventListener('dragover', (e) => {
      e.preventDefault();
      drop.classList.add('dragging');
    });
    drop.addEventListener('dragleave', () => drop.classList.remove('dragging'));
    drop.addEventListener('drop', (e) => {
      e.preventDefault();
      drop.classList.remove('dragging');
      take([...(e.dataTransfer?.files ?? [])]);
    });

    const problems = [];
    function showErrors() {
      clear(errors);
      for (const p of problems) {
        errors.append(h('p', { class: 'check-model-error', 'data-code': p.code }, p.text));
      }
    }
    function fail(code, names) {
      const vars = { names: names.length ? quoted(names) : '', maxRows: MAX_ROWS }; // t() groups it as the page's language does
      problems.push({ code, text: T(errorKey(code).slice('checkModel.'.length), vars) });
    }

    // New files join the ones already given: a .onnx whose first bytes are an ONNX model's replaces the model,
    // a .json the config; others are kept by name and used only as external data the model names.
    async function take(files) {
      problems.length = 0;
      const sorted = sortFiles(files);
      const models = [];
      for (const f of sorted.models) {
        if (looksLikeModel(new Uint8Array(await f.slice(0, 4096).arrayBuffer()), f.size)) models.push(f);
        else fail('bad_protobuf', [f.name]);
      }
      if (models.length > 1) fail('two_models', models.map((f) => f.name));
      else if (models.length === 1 && models[0] !== memory.model) [memory.model, memory.wanted] = [models[0], null];
      for (const f of sorted.data) memory.data.set(f.name, f);
      for (const f of sorted.configs) {
        try {
          const parsed = JSON.parse(await f.text());
          if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new TypeError('not an object');
          memory.config = parsed;
          memory.configName = f.name;
          memory.badConfigName = null;
        } catch {
          fail('bad_json', [f.name]);
          // the config in use (if any) stays; without one, the page says the one given was unreadable
          if (!memory.config) memory.badConfigName = f.name;
        }
      }
      showErrors();
      listFiles();
      await analyse();
    }

    function listFiles() {
      clear(loaded);
      if (memory.model) loaded.append(h('li', {}, T('fileModel', { name: memory.model.name })));
      if (memory.configName) loaded.append(h('li', {}, T('fileConfig', { name: memory.configName })));
      // external data: the files the model names; before the model is read, what may be
      for (const name of memory.data.keys()) {
        if (!memory.wanted) loaded.append(h('li', { class: 'check-model-waiting' }, T('fileWaiting', { name })));
        else if (memory.wanted.has(name)) loaded.append(h('li', {}, T('fileData', { name })));
      }
    }

    let run = 0;
    async function analyse() {
      const mine = ++run;
      memory.result = null;
      clear(results);
      extendBox.hidden = true;
      if (!memory.model) {
        if (memory.configName || memory.data.size) status.textContent = T('needModel');
        return;
      }
      status.textContent = T('reading', { name: memory.model.name });
      try {
        const model = await readModel(memory.model, { name: memory.model.name });
        // the external data files the model names: given ones are used, missing ones named, others not used
        memory.wanted = new Set(model.externalLocations());
        const plan = externalPlan(memory.wanted, memory.data);
        if (mine !== run) return;
        listFiles();
        if (plan.unused.length) {
          const wanted = [...memory.wanted];
          problems.push({ code: 'not_named', text: wanted.length ? T('notNamed', { names: quoted(plan.unused), model: memory.model.name, wanted: quoted(wanted) }) : T('notNamedNone', { names: quoted(plan.unused), model: memory.model.name }) });
          for (const name of plan.unused) memory.data.delete(name);
          showErrors();
        }
        if (plan.missing.length) {
          status.textContent = '';
          problems.push({ code: 'missing_data', text: plural('error.missing_data', plan.missing.length, { names: quoted(plan.missing), model: memory.model.name }) });
          showErrors();
          return;
        }
        const externalData = Object.fromEntries(plan.used.map((n) => [n, memory.data.get(n)]));
        const modelWithData = plan.used.length ? await readModel(memory.model, { externalData, name: memory.model.name }) : model;
        const report = await inspectModel(modelWithData, { config: memory.config ?? null, encoder: ctx.pe });
        const sites = findRope(modelWithData);
        const curves = [];
        for (let i = 0; i < report.sites.length; i++) curves.push(await deviation(modelWithData, sites[i], report.sites[i]));
        if (mine !== run) return;
        memory.result = { report, curves, model: modelWithData };
      } catch (error) {
        if (mine !== run) return;
        status.textContent = '';
        fail(error.code ?? 'other', [memory.model.name, ...quotedNames(error.message)].filter((n, i, a) => a.indexOf(n) === i));
        showErrors();
        return;
      }
      draw();
    }

    // |cache − exact| and |float32 recipe − exact| per row, in the cache's own dtype (exact: the float64 values
    // rounded once to it, so a bit-exact cache is 0 everywhere; the recipe cast to it, as an exporter would).
    async function deviation(model, site, rep) {
      if (rep.kind !== 'cache' || !rep.expected || rep.rows === 0 || rep.rotaryDim !== rep.expected.rotaryDim) return null;
      const width = rep.rotaryDim / 2;
      const rows = rep.rows;
      const cache = {
        cos: decodeCache(await model.tensorBytes(site.cos.tensor), rep.cos.dtype),
        sin: decodeCache(await model.tensorBytes(site.sin.tensor), rep.sin.dtype),
      };
      const { exact, recipe } = referenceCaches(ctx.pe, rep.rotaryDim, rep.expected.options, rows, rep.cos.dtype);
      return { cache: rowDeviation(cache, exact, rows, width), recipe: rowDeviation(recipe, exact, rows, width) };
    }

    // charts waiting for their card to be in the page (a chart measures its width when it draws)
    const charts = [];
    function draw() {
      const { report, curves } = memory.result;
      status.textContent = report.sites.length ? plural('found', report.sites.length, { name: report.model }) : '';
      if (!report.sites.length && !problems.some((p) => p.code === 'no_rope')) fail('no_rope', [report.model]);
      // no config: none given, or the one given could not be read (its message says so above)
      if (!report.config) results.append(h('p', { class: 'check-model-noconfig' }, T(memory.badConfigName ? 'configUnread' : 'noConfig')));
      showErrors();
      report.sites.forEach((site, i) => results.append(card(site, curves[i], i)));
      for (const drawChart of charts.splice(0)) drawChart();
      if (report.config && report.sites.some((s) => s.kind === 'cache')) buildExtend(report);
      // how many reports the page has shown, set once the whole report is there (the tests wait on it)
      memory.drawn = (memory.drawn ?? 0) + 1;
      results.dataset.drawn = String(memory.drawn);
    }

    function card(site, curve, index) {
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
      const parts = [h('h2', {}, names), table, verdict];
      if (site.diagnosis) {
        parts.push(h('p', { class: 'check-model-diagnosis', 'data-mistake': site.diagnosis.mistake }, T(mistakeKey(site.diagnosis.mistake).slice('checkModel.'.length))));
      }
      if (site.short) parts.push(h('p', { class: 'check-model-short' }, T('short', { rows: site.rows, expected: site.expected.maxPositions })));
      if (curve) {
        const m = curve.cache.max;
        // a cache that is the exact values bit for bit says so, rather than "largest |Δ| 0 at row 0"
        parts.push(h('p', { class: 'check-model-deviation' }, m.value === 0 ? T('bitExact', { rows: site.rows }) : T('maxDeviation', { value: sci(m.value), row: m.row, col: m.col, which: m.which })));
        parts.push(chartOf(site, curve, index));
      }
      return h('section', { class: 'check-model-site', 'data-site': String(index), 'data-cos': site.cos?.name ?? site.invFreq?.name }, ...parts);
    }

    function chartOf(site, curve, index) {
      const chart = createLineChart({ xLabel: T('axisPosition'), yLabel: T('axisDeviation'), label: T('chartLabel', { name: site.cos.name }), yLog: true, height: 240, key: `check-model-${index}` });
      const a = chartPoints(curve.cache.perRow, 600, FLOOR);
      const b = chartPoints(curve.recipe.perRow, 600, FLOOR);
      const top = Math.max(FLOOR * 10, ...a.map((p) => p[1]), ...b.map((p) => p[1]));
      const figure = h('div', { class: 'check-model-chart' }, chart.element, h('p', { class: 'check-model-caption figure-caption' }, T('caption', { name: site.cos.name, sin: site.sin.name, rows: site.rows, last: site.rows - 1 })));
      charts.push(() =>
        chart.draw({
          series: [
            { name: T('seriesCache'), points: a },
            { name: T('seriesRecipe'), points: b },
          ],
          xDomain: [0, Math.max(1, site.rows - 1)],
          yDomain: [FLOOR, 10 ** Math.ceil(Math.log10(top))],
        }),
      );
      return figure;
    }

    function buildExtend(report) {
      clear(extendBox);
      extendBox.hidden = false;
      const max = report.sites.find((s) => s.expected?.maxPositions)?.expected.maxPositions ?? null;
      // a longer cache than it holds: the config's length when that is more, else the page asks
      const { now, proposal } = extendProposal(report.sites.filter((s) => s.kind === 'cache').map((s) => s.rows), max);
      const rowsInput = h('input', { type: 'number', min: 1, max: MAX_ROWS, step: 1, value: proposal ?? '', placeholder: T('rowsPlaceholder', { rows: 2 * Math.max(...now) }), class: 'check-model-rows', id: 'check-model-rows', 'aria-describedby': 'check-model-plan' });
      const ask = proposal === null ? h('p', { class: 'check-model-ask' }, T('askRows', { rows: Math.max(...now) })) : null;
      // what the button will do, as the rows are typed: "4096 → 8192 rows"; the same rows as now is no change
      const plan = h('p', { class: 'check-model-plan', id: 'check-model-plan', 'aria-live': 'polite' });
      const wanted = () => {
        const rows = Number(rowsInput.value);
        return rowsInput.value.trim() !== '' && Number.isInteger(rows) && rows >= 1 && rows <= MAX_ROWS ? rows : null;
      };
      const same = (rows) => now.length === 1 && now[0] === rows;
      const showPlan = () => {
        const rows = wanted();
        plan.textContent = rows === null ? '' : same(rows) ? T('planSame', { rows }) : T('plan', { from: now.map((n) => t('checkModel.rowsValue', { rows: n })).join(' / '), to: t('checkModel.rowsValue', { rows }) });
        plan.classList.toggle('check-model-plan-same', rows !== null && same(rows));
        button.disabled = rows !== null && same(rows);
      };
      rowsInput.addEventListener('input', showPlan);
      const recipe = h(
        'select',
        { class: 'check-model-recipe', id: 'check-model-recipe' },
        h('option', { value: 'exact' }, T('recipeExact')),
        h('option', { value: 'float32' }, T('recipeFloat32')),
      );
      const links = h('div', { class: 'check-model-downloads' });
      const button = h('button', { type: 'button', class: 'button check-model-build' }, T('build'));
      button.addEventListener('click', async () => {
        problems.length = 0;
        showErrors();
        clear(links);
        const rows = wanted();
        if (rows === null) {
          fail('bad_rows', [rowsInput.value]);
          showErrors();
          return;
        }
        if (same(rows)) {
          fail('same_rows', [String(rows)]);
          showErrors();
          return;
        }
        button.disabled = true;
        try {
          const { bytes, replaced } = await extendModel(memory.result.model, { config: memory.config, rows, recipe: recipe.value, encoder: ctx.pe });
          const url = URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }));
          const name = memory.model.name.replace(/\.onnx$/i, '') + `-${rows}.onnx`;
          links.append(h('p', {}, h('a', { href: url, download: name, class: 'check-model-download', 'data-kind': 'model' }, T('downloadModel', { name }))));
          links.append(h('p', { class: 'check-model-replaced' }, plural('replaced', replaced.length, { rows })));
          // the extended model still reads its external data from the same files: offer them beside it
          const locations = new Set(memory.result.model.proto.graph ? externalLocations(memory.result.model.proto.graph) : []);
          for (const loc of locations) {
            const file = memory.data.get(loc);
            if (file) links.append(h('p', {}, h('a', { href: URL.createObjectURL(file), download: loc, class: 'check-model-download', 'data-kind': 'data' }, T('downloadData', { name: loc }))));
          }
        } catch (error) {
          fail(error.code ?? 'other', [memory.model.name, ...quotedNames(error.message)].filter((n, i, a) => a.indexOf(n) === i));
          showErrors();
        } finally {
          showPlan();
        }
      });
      extendBox.append(
        h('h2', {}, T('extendTitle')),
        h('p', {}, T('extendText')),
        ...(ask ? [ask] : []),
        h('div', { class: 'check-model-extend-controls' }, h('label', { for: 'check-model-rows' }, T('rowsField')), rowsInput, h('label', { for: 'check-model-recipe' }, T('recipeField')), recipe, button),
        plan,
        links,
      );
      showPlan();
    }

    // on a language change the page is rebuilt: what was given is shown again
    listFiles();
    if (memory.result) draw();
    else if (memory.model) analyse();

    return { update() {}, destroy() {} };
  },
};

// The `location`s of the external data the graph's initializers (and subgraphs') name.
function externalLocations(graph) {
  const out = [];
  for (const t of graph.initializer) for (const e of t.externalData) if (e.key === 'location') out.push(e.value);
  for (const node of graph.node) for (const a of node.attribute) if (a.g) out.push(...externalLocations(a.g));
  return out;
}
