// The one state object of the site and its URL form.
//
// Every control reads and writes this object; every lesson draws itself from
// it. It is serialised into the location hash (`#lesson=heatmap&d=128&…`) so
// any view can be shared. Values coming from a URL are untrusted: each one is
// parsed strictly by its field's type (model/fields.js), clamped into its
// range (or rejected), and every change is reported as a message the page
// shows. No URL value ever reaches the DOM except as a validated number or
// one of a fixed list of names.
//
// Whether the package accepts a d_model is the package's to say: `env.check`
// (made by main.js from the lesson's probe call) returns the package's
// reason for a refused value (its message, or { message, status, values } so
// the page can word it in its language), and the nearest accepted value is used.
//
// Pure module: no DOM access, so Node tests can import it.
import { FIELDS, FIELD_KEYS, fieldDefaults, rangeOf as fieldRange, validateField as validateFieldIn, serializeField } from './model/fields.js';
import { LESSONS as LESSON_REGISTRY, LESSON_IDS, lessonById } from './lessons/index.js';

export { MAX_POSITION, EDIT_LIMIT, LAYOUTS, PRESETS, COLORMAPS, parseEdits, formatEdits } from './model/fields.js';
export { LESSON_REGISTRY };
export const LESSONS = LESSON_IDS;
export const LANGS = Object.freeze(['en', 'zh']);

/** The ids of the sections a link can open a lesson at (the registry's `sections`). */
export function sectionIds(lesson) {
  return (lessonById(lesson)?.sections ?? []).map((s) => s.id);
}

/** The URL of a lesson opened at one of its sections, in a language: `#lesson=rope&section=precision&lang=zh`. */
export function sectionHash(lesson, section, lang) {
  if (!LESSON_IDS.includes(lesson)) throw new RangeError(`sectionHash: lesson must be one of ${LESSON_IDS.join(', ')}, got ${String(lesson)}`);
  const ids = sectionIds(lesson);
  if (!ids.includes(section)) throw new RangeError(`sectionHash: section must be one of the ${lesson} lesson's sections (${ids.join(', ') || 'none'}), got ${String(section)}`);
  if (!LANGS.includes(lang)) throw new RangeError(`sectionHash: lang must be one of ${LANGS.join(', ')}, got ${String(lang)}`);
  return '#' + new URLSearchParams({ lesson, section, lang }).toString();
}

/** The default state of a lesson. */
export function defaultState(lesson = LESSON_IDS[0], lang = 'en') {
  return { ...fieldDefaults(), ...structuredClone(lessonById(lesson).defaults), lesson, lang };
}

/** The range [min, max] of a numeric field in the state's lesson (and given the rest of the state). */
export function rangeOf(key, state) {
  return fieldRange(key, state, lessonById(state.lesson));
}

/**
 * Validates one field for the state's lesson. Returns { value, problem }
 * where problem is null, 'clamped' (value changed to fit) or 'rejected'
 * (value is null: keep the old one).
 */
export function validateField(key, raw, state) {
  return validateFieldIn(key, raw, state, lessonById(state?.lesson));
}

/**
 * The nearest d_model to state.d that the package accepts for the lesson
 * (env.check), searching first in the direction of the change from
 * env.previous (ties go down when there is no direction).
 * Returns { value, rule, reason } (rule: the package's message for state.d,
 * reason: what env.check gave) or null if state.d is accepted.
 */
function acceptedDModel(key, state, env) {
  const reason = env.check(state[key], state);
  if (!reason) return null;
  const rule = typeof reason === 'string' ? reason : reason.message;
  const [min, max] = rangeOf(key, state);
  const from = state[key];
  const direction = env.previous && env.previous[key] < from ? 1 : -1;
  for (let delta = 1; delta <= 64; delta++) {
    for (const v of [from + direction * delta, from - direction * delta]) {
      if (v >= min && v <= max && !env.check(v, { ...state, [key]: v })) return { value: v, rule, reason };
    }
  }
  return { value: defaultState(state.lesson, state.lang)[key], rule, reason };
}

/**
 * Brings every field of a state into the ranges of its lesson (after a lesson
 * change or a change of a field that moves other fields' ranges), and every
 * d_model to one the package accepts (env.check). Returns { state, messages }:
 * messages for d_model values the package refused ({ key, problem: 'rule',
 * value, typed, rule }). Range adjustments here are silent: the value that
 * moved them was reported where it was set.
 */
export function normalize(state, env = {}) {
  const out = { ...state };
  const messages = [];
  const lesson = lessonById(state.lesson);
  const keys = FIELD_KEYS.filter((k) => lesson.controls.includes(k));
  for (const key of keys) {
    const { value } = validateField(key, out[key], out);
    // a value this lesson does not take (say a diverging colormap carried over) becomes its default
    out[key] = value !== null ? value : defaultState(state.lesson, state.lang)[key];
    if (FIELDS[key].type === 'dModel' && env.check) {
      const fix = acceptedDModel(key, out, env);
      if (fix) {
        messages.push({ key, problem: 'rule', value: fix.value, typed: out[key], rule: fix.rule, reason: fix.reason });
        out[key] = fix.value;
      }
    }
  }
  return { state: out, messages };
}

/**
 * One message per field: a value first corrected to fit its range (12.5 →
 * 13) and then refused by the package (13 → 12) is one 'rule' message that
 * names what was given (typed: 12.5), the corrected value (rounded: 13) and
 * the value in use, never two messages that contradict each other.
 */
export function oneMessagePerField(messages) {
  const out = [];
  for (const m of messages) {
    const earlier = m.key ? out.findIndex((o) => o.key === m.key) : -1;
    if (earlier >= 0 && m.problem === 'rule') {
      const first = out[earlier];
      out[earlier] = { ...m, typed: first.typed ?? m.typed, rounded: m.typed };
    } else out.push(m);
  }
  return out;
}

/**
 * Parses a location hash. Returns { state, messages, section }: section, the
 * lesson section to open at (one of the lesson's sectionIds, else null; a
 * name it does not have is rejected with a message). It is not part of the
 * state: a link opens the lesson there, and the URL written next drops it. Messages are
 * { key, problem: 'clamped'|'rejected'|'rule', value } for known keys (value is the
 * value now in use) and { problem: 'unknown', count } for unknown keys.
 * `fallbackLang` is used when the hash names no language; env as for normalize.
 */
export function parseHash(hash, fallbackLang = 'en', env = {}) {
  const params = new URLSearchParams(String(hash ?? '').replace(/^#/, '').slice(0, 2000));
  const messages = [];
  let lesson = params.get('lesson');
  if (lesson !== null && !LESSON_IDS.includes(lesson)) {
    messages.push({ key: 'lesson', problem: 'rejected', value: LESSON_IDS[0] });
    lesson = null;
  }
  let lang = params.get('lang');
  if (lang !== null && !LANGS.includes(lang)) {
    messages.push({ key: 'lang', problem: 'rejected', value: fallbackLang });
    lang = null;
  }
  const state = defaultState(lesson ?? LESSON_IDS[0], lang ?? (LANGS.includes(fallbackLang) ? fallbackLang : 'en'));
  // in the field registry's order: ranges depend only on fields before them
  for (const key of FIELD_KEYS) {
    const raw = params.get(key);
    if (raw === null) continue;
    const { value, problem } = validateField(key, raw, state);
    if (value !== null) state[key] = value;
    if (problem) messages.push({ key, problem, value: state[key] });
  }
  let section = params.get('section');
  if (section !== null && !sectionIds(state.lesson).includes(section)) {
    messages.push({ key: 'section', problem: 'rejected', value: null });
    section = null;
  }
  let unknown = 0;
  for (const key of params.keys()) if (!['lesson', 'lang', 'section'].includes(key) && !(key in FIELDS)) unknown++;
  if (unknown > 0) messages.push({ problem: 'unknown', count: unknown });
  const normalized = normalize(state, env);
  return { state: normalized.state, messages: oneMessagePerField([...messages, ...normalized.messages]), section };
}

/** The hash of a state: the lesson, what differs from the lesson's defaults, and the language. */
export function toHash(state) {
  const defaults = defaultState(state.lesson, state.lang);
  const params = new URLSearchParams();
  params.set('lesson', state.lesson);
  for (const key of lessonById(state.lesson).controls) {
    const value = serializeField(key, state[key]);
    if (value !== serializeField(key, defaults[key])) params.set(key, value);
  }
  params.set('lang', state.lang);
  return '#' + params.toString();
}
