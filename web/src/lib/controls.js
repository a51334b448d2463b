// The controls of a lesson, built from the state keys it uses. Each control
// writes the state through app.setState and is re-synced from the state on
// every render, so the URL, the controls and the figures never disagree.
import { h } from './dom.js';
import { rangeOf, LAYOUTS, PRESETS, COLORMAPS } from '../state.js';

let uid = 0;
const id = (key) => `ctl-${key}-${++uid}`;

// Slider mapping per numeric key: value ↔ slider position.
const SLIDERS = {
  d: { step: 4 },
  len: { step: 1 },
  base: { log: true, step: 0.01 },
  start: { step: 1, sliderMax: 100000 },
  bits: { step: 1 },
  scale: { step: 0.05 },
  dropout: { step: 0.05 },
  seed: { step: 1 },
  pos: { step: 1, sliderMax: 1000 },
  k: { step: 1, sliderMin: -64, sliderMax: 64 },
  tol: { step: 1 },
};

function formatValue(key, v) {
  if (key === 'tol') return `1e${v}`;
  if (key === 'dropout' || key === 'scale') return v.toFixed(2);
  return String(v);
}

/** Builds the controls for `keys`; returns { element, sync(state) }. */
export function createControls(keys, app) {
  const { t } = app;
  const syncs = [];
  const element = h('div', { class: 'controls', role: 'group', 'aria-label': t('site.controls') });

  for (const key of keys) {
    const label = t(`control.${key}`);
    const help = t(`control.help.${key}`, null, '');
    if (SLIDERS[key]) {
      const cfg = SLIDERS[key];
      const sliderId = id(key);
      const numberId = id(key);
      const slider = h('input', { type: 'range', id: sliderId, class: 'slider', step: cfg.step, 'data-key': key });
      const number = h('input', {
        type: key === 'tol' ? 'text' : 'number',
        id: numberId,
        class: 'number',
        inputmode: 'decimal',
        'aria-label': label,
        'data-key': key,
      });
      const toSlider = (v) => (cfg.log ? Math.log10(v) : v);
      const fromSlider = (s) => (cfg.log ? +(10 ** s).toPrecision(3) : s);
      slider.addEventListener('input', () => app.setState({ [key]: fromSlider(Number(slider.value)) }));
      number.addEventListener('change', () => {
        const raw = key === 'tol' ? number.value.replace(/^1e/i, '') : number.value;
        app.setState({ [key]: raw }, { fromUser: true });
      });
      const row = h(
        'div',
        { class: `control control-range control-${key}` },
        h('label', { for: sliderId }, label),
        h('div', { class: 'control-inputs' }, slider, number),
        help ? h('small', { class: 'control-help' }, help) : null,
      );
      element.append(row);
      syncs.push((state) => {
        const [min, max] = rangeOf(key, state);
        const smin = Math.max(min, cfg.sliderMin ?? min);
        const smax = Math.min(max, cfg.sliderMax ?? max);
        slider.min = toSlider(smin);
        slider.max = toSlider(Math.max(smax, Math.min(state[key], max)));
        slider.value = toSlider(state[key]);
        slider.setAttribute('aria-valuetext', formatValue(key, state[key]));
        if (key !== 'tol') {
          number.min = min;
          number.max = max;
          number.step = cfg.log ? 'any' : cfg.step;
        }
        if (document.activeElement !== number) number.value = formatValue(key, state[key]);
      });
    } else if (key === 'layout' || key === 'cmap' || key === 'preset') {
      const values = { layout: LAYOUTS, cmap: COLORMAPS, preset: PRESETS }[key];
      const selectId = id(key);
      const select = h(
        'select',
        { id: selectId, 'data-key': key, onchange: (e) => app.setState({ [key]: e.target.value }) },
        values.map((v) => h('option', { value: v }, t(`${key}.${v}`, null, v))),
      );
      element.append(h('div', { class: `control control-select control-${key}` }, h('label', { for: selectId }, label), select));
      syncs.push((state) => {
        select.value = state[key];
      });
    } else if (key === 'cols' || key === 'tokens') {
      const inputId = id(key);
      const input = h('input', {
        type: 'text',
        id: inputId,
        class: 'text',
        'data-key': key,
        spellcheck: 'false',
        autocomplete: 'off',
        onchange: (e) => app.setState({ [key]: e.target.value }, { fromUser: true }),
      });
      element.append(
        h('div', { class: `control control-text control-${key}` }, h('label', { for: inputId }, label), input, help ? h('small', { class: 'control-help' }, help) : null),
      );
      syncs.push((state) => {
        if (document.activeElement !== input) input.value = Array.isArray(state[key]) ? state[key].join(', ') : state[key];
      });
    }
  }
  return {
    element,
    sync(state) {
      for (const s of syncs) s(state);
    },
  };
}

/** A segmented radio group (used for the layout toggle inside a lesson). */
export function createRadioGroup({ key, values, label, app }) {
  const name = id(key);
  const inputs = [];
  const fieldset = h('fieldset', { class: 'segmented' }, h('legend', {}, label));
  for (const v of values) {
    const input = h('input', { type: 'radio', name, value: v, 'data-key': key, onchange: () => app.setState({ [key]: v }) });
    inputs.push(input);
    fieldset.append(h('label', {}, input, h('span', {}, app.t(`${key}.${v}`, null, v))));
  }
  return {
    element: fieldset,
    sync(state) {
      for (const input of inputs) input.checked = input.value === state[key];
    },
  };
}

/** Export buttons; each getter returns what to save when clicked. */
export function createExportBar(app, { csv, npy, png }) {
  const bar = h('div', { class: 'export-bar' });
  const add = (label, action, cls) => bar.append(h('button', { type: 'button', class: `button ${cls}`, onclick: action }, label));
  if (csv) add(app.t('export.csv'), csv, 'export-csv');
  if (npy) add(app.t('export.npy'), npy, 'export-npy');
  if (png) add(app.t('export.png'), png, 'export-png');
  return bar;
}
