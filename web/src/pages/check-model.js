// The "Check a model" page (#page=check-model): drop an ONNX model (its
// external data files) and its config.json; the RoPE caches the package's
// inspector (sinpe.wasm/onnx) finds are shown with their verdicts, a chart
// of their deviation from exact by position, and an extended model to
// download. Everything stays on the machine: files are read with
// Blob.slice through readModel's options, nothing is fetched or sent.
import { readModel, findRope, inspectModel, extendModel, referenceCaches } from 'sinpe.wasm/onnx';
import { h, clear } from '../lib/dom.js';
import { MAX_POSITION } from '../model/fields.js';
import { sortFiles, looksLikeModel, externalPlan, extendProposal, errorKey, quotedNames, rowDeviation, decodeCache } from '../model/check-model.js';
import { siteCard } from './check-model-card.js';

// A cache's rows are positions 0 … rows − 1: the core's limit on |position| (the vocabulary's) bounds them.
const MAX_ROWS = MAX_POSITION;

export default {
  id: 'check-model',
  mount(root, ctx) {
    const { t } = ctx;
    const T = (key, vars) => t(`checkModel.${key}`, vars);
    // what was given and found, kept across language changes (the page is rebuilt in the new language from it):
    // { model, config, data: Map, result, problems, pending, run }
    const memory = ctx.memory;
    memory.data ??= new Map();
    // the messages shown, as string keys and values (worded in the page's language each time they are shown)
    const problems = (memory.problems ??= []);
    memory.run ??= 0;
    let gone = false; // this page was replaced (a language change): an analysis under way draws in the new one
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

    function showErrors() {
      clear(errors);
      for (const p of problems) {
        const text = p.count === undefined ? T(p.key, p.vars) : plural(p.key, p.count, p.vars);
        errors.append(h('p', { class: 'check-model-error', 'data-code': p.code }, text));
      }
    }
    function fail(code, names) {
      const vars = { names: names.length ? quoted(names) : '', maxRows: MAX_ROWS }; // t() groups it as the page's language does
      problems.push({ code, key: errorKey(code).slice('checkModel.'.length), vars });
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

    // an analysis: memory.pending until it ends; a newer one (new files, on this page or the rebuilt one) supersedes it
    function analyse() {
      const pending = analysing();
      memory.pending = pending;
      pending.finally(() => memory.pending === pending && (memory.pending = null));
      return pending;
    }
    async function analysing() {
      const mine = ++memory.run;
      const current = () => mine === memory.run && !gone;
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
        if (mine !== memory.run) return;
        listFiles();
        if (plan.unused.length) {
          const wanted = [...memory.wanted];
          problems.push(wanted.length ? { code: 'not_named', key: 'notNamed', vars: { names: quoted(plan.unused), model: memory.model.name, wanted: quoted(wanted) } } : { code: 'not_named', key: 'notNamedNone', vars: { names: quoted(plan.unused), model: memory.model.name } });
          for (const name of plan.unused) memory.data.delete(name);
          if (current()) showErrors();
        }
        if (plan.missing.length) {
          status.textContent = '';
          problems.push({ code: 'missing_data', key: 'error.missing_data', count: plan.missing.length, vars: { names: quoted(plan.missing), model: memory.model.name } });
          if (current()) showErrors();
          return;
        }
        const externalData = Object.fromEntries(plan.used.map((n) => [n, memory.data.get(n)]));
        const modelWithData = plan.used.length ? await readModel(memory.model, { externalData, name: memory.model.name }) : model;
        const report = await inspectModel(modelWithData, { config: memory.config ?? null, encoder: ctx.pe });
        const sites = findRope(modelWithData);
        const curves = [];
        for (let i = 0; i < report.sites.length; i++) curves.push(await deviation(modelWithData, sites[i], report.sites[i]));
        if (mine !== memory.run) return;
        memory.result = { report, curves, model: modelWithData };
      } catch (error) {
        if (mine !== memory.run) return;
        status.textContent = '';
        fail(error.code ?? 'other', [memory.model.name, ...quotedNames(error.message)].filter((n, i, a) => a.indexOf(n) === i));
        if (current()) showErrors();
        return;
      }
      if (current()) draw();
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
      report.sites.forEach((site, i) => results.append(siteCard(site, curves[i], i, { T, t, app: ctx.app, charts })));
      for (const drawChart of charts.splice(0)) drawChart();
      if (report.config && report.sites.some((s) => s.kind === 'cache')) buildExtend(report);
      // how many reports the page has shown, set once the whole report is there (the tests wait on it)
      memory.drawn = (memory.drawn ?? 0) + 1;
      results.dataset.drawn = String(memory.drawn);
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
      // the downloads prepared for this result, kept in memory: a language change shows them again, worded anew
      // (the same object URLs: nothing is built or read again)
      const showDownloads = (prepared) => {
        clear(links);
        links.append(h('p', {}, h('a', { href: prepared.url, download: prepared.name, class: 'check-model-download', 'data-kind': 'model' }, T('downloadModel', { name: prepared.name }))));
        links.append(h('p', { class: 'check-model-replaced' }, plural('replaced', prepared.replaced, { rows: prepared.rows })));
        for (const { loc, url } of prepared.data) links.append(h('p', {}, h('a', { href: url, download: loc, class: 'check-model-download', 'data-kind': 'data' }, T('downloadData', { name: loc }))));
      };
      const button = h('button', { type: 'button', class: 'button check-model-build' }, T('build'));
      button.addEventListener('click', async () => {
        problems.length = 0;
        showErrors();
        clear(links);
        memory.extended = null;
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
          // the extended model still reads its external data from the same files: offer them beside it
          const locations = new Set(memory.result.model.proto.graph ? externalLocations(memory.result.model.proto.graph) : []);
          const data = [...locations].filter((loc) => memory.data.get(loc)).map((loc) => ({ loc, url: URL.createObjectURL(memory.data.get(loc)) }));
          memory.extended = { result: memory.result, url, name, rows, recipe: recipe.value, replaced: replaced.length, data };
          showDownloads(memory.extended);
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
      // after a language change: the form as it was left and the downloads already prepared for this result
      const prepared = memory.extended?.result === memory.result ? memory.extended : null;
      if (prepared) {
        rowsInput.value = String(prepared.rows);
        recipe.value = prepared.recipe;
        showDownloads(prepared);
      }
      showPlan();
    }

    // on a language change the page is rebuilt: what was given, found and said is shown again in the new
    // language, from what was kept (the files are not read again); an analysis under way shows here when it ends
    listFiles();
    showErrors();
    if (memory.result) draw();
    else if (memory.pending) {
      status.textContent = T('reading', { name: memory.model.name });
      memory.pending.then(() => {
        if (gone) return;
        status.textContent = '';
        if (memory.result) draw();
        else showErrors();
      });
    } else if (memory.model && !problems.length) analyse();

    return {
      update() {},
      destroy() {
        gone = true;
      },
    };
  },
};

// The `location`s of the external data the graph's initializers (and subgraphs') name.
function externalLocations(graph) {
  const out = [];
  for (const t of graph.initializer) for (const e of t.externalData) if (e.key === 'location') out.push(e.value);
  for (const node of graph.node) for (const a of node.attribute) if (a.g) out.push(...externalLocations(a.g));
  return out;
}
