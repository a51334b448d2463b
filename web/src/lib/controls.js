// The controls of a lesson, built from the field registry: each field's
// `control` kind decides the widget, its range, step and format come from the
// registry (narrowed by the lesson). Each control writes the state through
// app.setState and is re-synced from the state on every render, so the URL,
// the controls and the figures never disagree.
import { h, rich, htmlLabel } from './dom.js';
import { plainLabel } from './subscript.js';
import { FIELDS, formatField, rangeOf, stepOf, valuesOf } from '../model/fields.js';

let uid = 0;
const id = (key) => `ctl-${key}-${++uid}`;

// value ↔ slider position, per control kind
const SCALES = {
  slider: { to: (v) => v, from: (s) => s },
  'log-slider': { to: (v) => Math.log10(v), from: (s) => +(10 ** s).toPrecision(3) },
};

/** A control's label: the lesson's own name for the field (lessons.<id>.control.<key>) or the site's. */
function controlLabel(app, key, lesson) {
  return app.t(`lessons.${lesson?.id}.control.${key}`, null, app.t(`control.${key}`));
}

/** A label element (tag: label or legend) of a control's label, its $…$ maths typeset as in the text ("frames $G_t$"). */
function labelEl(tag, label, attrs = {}) {
  return Object.assign(rich(label, tag), attrs);
}

/** The label read aloud: its maths as plain letters ("frames Gt"). */
const spokenLabel = (label) => plainLabel(String(label).replace(/\$([^$]*)\$/g, '$1'));

/** Where a message about the control's value is shown (and announced), beside it. */
function messageSlot() {
  return h('p', { class: 'control-message', role: 'status', 'aria-live': 'polite' });
}

function rangeControl(key, field, lesson, app) {
  const { t } = app;
  const label = controlLabel(app, key, lesson);
  const help = t(`control.help.${key}`, null, '');
  const scale = SCALES[field.control];
  const sliderId = id(key);
  const slider = h('input', { type: 'range', id: sliderId, class: 'slider', step: stepOf(key, lesson), 'data-key': key });
  const number = h('input', {
    type: 'number',
    id: id(key),
    class: 'number',
    inputmode: 'decimal',
    // any value in range may be typed; the state decides what it becomes
    step: 'any',
    'aria-label': spokenLabel(label),
    'data-key': key,
  });
  slider.addEventListener('input', () => {
    // the browser snaps the slider to whole steps from its minimum: a last step that
    // would pass the maximum stops short of it (End gave 9,800,000 of 10,000,000),
    // so the slider's last position is its maximum
    const at = Number(slider.value);
    const top = Number(slider.max);
    app.setState({ [key]: scale.from(at + Number(slider.step) > top ? top : at) });
    // a value the state corrected (an odd d_model made even) shows at once, not at the next render:
    // a key pressed before that render steps from the value in use (65 → 66, then 67 → 68), not
    // from the refused one again (65 → 66 → 66: a lost step)
    put(slider, 'value', scale.to(app.state[key]));
  });
  number.addEventListener('change', () => {
    app.setState({ [key]: number.value }, { fromUser: true });
    // the box shows the value now in use, even while it keeps the focus
    number.value = formatField(key, app.state[key]);
  });
  const element = h(
    'div',
    { class: `control control-range control-${key}` },
    labelEl('label', label, { htmlFor: sliderId }),
    h('div', { class: 'control-inputs' }, slider, number),
    help ? h('small', { class: 'control-help' }, help) : null,
    messageSlot(),
  );
  // a property or attribute is written only when it differs: every render syncs every
  // control, and each write invalidated the control's style and layout
  const put = (el, prop, value) => {
    const v = String(value);
    if (el[prop] !== v) el[prop] = v;
  };
  function sync(state) {
    const [min, max] = rangeOf(key, state, lesson);
    const smin = Math.max(min, field.sliderMin ?? min);
    const smax = Math.min(max, field.sliderMax ?? max);
    put(slider, 'min', scale.to(smin));
    put(slider, 'max', scale.to(Math.max(smax, Math.min(state[key], max))));
    put(slider, 'value', scale.to(state[key]));
    const text = formatField(key, state[key]);
    if (slider.getAttribute('aria-valuetext') !== text) slider.setAttribute('aria-valuetext', text);
    put(number, 'min', min);
    put(number, 'max', max);
    if (document.activeElement !== number) put(number, 'value', text);
    // wide enough for the longest value of the range (and the spin buttons)
    const chars = Math.max(4, ...[min, max, state[key]].map((v) => formatField(key, v).length));
    const width = `calc(${chars}ch + 2.75rem)`;
    if (number.style.width !== width) number.style.width = width;
  }
  return { element, sync };
}

function selectControl(key, field, lesson, app) {
  const { t } = app;
  const selectId = id(key);
  const select = h(
    'select',
    { id: selectId, 'data-key': key, onchange: (e) => app.setState({ [key]: e.target.value }) },
    valuesOf(key, lesson).map((v) => h('option', { value: v }, t(`${key}.${v}`, null, v))),
  );
  const element = h('div', { class: `control control-select control-${key}` }, labelEl('label', controlLabel(app, key, lesson), { htmlFor: selectId }), select);
  return {
    element,
    sync(state) {
      if (select.value !== String(state[key])) select.value = state[key];
    },
  };
}

function textControl(key, field, lesson, app) {
  const { t } = app;
  const help = t(`control.help.${key}`, null, '');
  const inputId = id(key);
  const input = h('input', {
    type: 'text',
    id: inputId,
    class: 'text',
    'data-key': key,
    spellcheck: 'false',
    autocomplete: 'off',
    onchange: (e) => {
      app.setState({ [key]: e.target.value }, { fromUser: true });
      // refused text does not stay in the box: it shows the value in use (the message names what was refused)
      input.value = formatField(key, app.state[key]);
    },
  });
  const element = h(
    'div',
    { class: `control control-text control-${key}` },
    labelEl('label', controlLabel(app, key, lesson), { htmlFor: inputId }),
    input,
    help ? h('small', { class: 'control-help' }, help) : null,
    messageSlot(),
  );
  return {
    element,
    sync(state) {
      const text = formatField(key, state[key]);
      if (document.activeElement !== input && input.value !== text) input.value = text;
    },
  };
}

function radioControl(key, field, lesson, app) {
  return createRadioGroup({ key, values: valuesOf(key, lesson), label: controlLabel(app, key, lesson), app });
}

const CONTROLS = { slider: rangeControl, 'log-slider': rangeControl, select: selectControl, text: textControl, radio: radioControl };

/** Builds the controls for `keys` of a lesson (a registry entry); returns { element, sync(state) }. */
export function createControls(keys, app, lesson) {
  const element = h('div', { class: 'controls', role: 'group', 'aria-label': app.t('site.controls') });
  const syncs = [];
  for (const key of keys) {
    const field = FIELDS[key];
    const make = CONTROLS[field.control];
    if (!make) continue;
    const control = make(key, field, lesson, app);
    element.append(control.element);
    syncs.push(control.sync);
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
  const fieldset = h('fieldset', { class: 'segmented' }, labelEl('legend', label));
  for (const v of values) {
    const input = h('input', { type: 'radio', name, value: v, 'data-key': key, onchange: () => app.setState({ [key]: v }) });
    inputs.push(input);
    fieldset.append(h('label', {}, input, h('span', {}, htmlLabel(app.t(`${key}.${v}`, null, v)))));
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
