// The lesson site: loads the sinpe.wasm package, keeps the one state object in
// sync with the URL hash, and renders the current lesson as a function of it.
import 'katex/dist/katex.min.css';
import './style.css';
import sinpe from 'sinpe.wasm';
import { LESSONS, LANGS, defaultState, normalize, parseHash, toHash, validateField, rangeOf, oneMessagePerField, sectionHash } from './state.js';
import { renderMessages } from './lib/messages.js';
import { LESSONS as REGISTRY, lessonById } from './lessons/index.js';
import { h, clear } from './lib/dom.js';
import { createControls } from './lib/controls.js';
import { formatInteger } from './lib/numbers.js';
import { attachFigureExports } from './lib/figure/buttons.js';
import { figureDraws, paintedTexts, computations } from './lib/probe.js';
import { attachGuide } from './lib/guide.js';
import { changedSince } from './lib/lesson.js';
import { reasonOf, reasonText } from './lib/reasons.js';
import { readingPosition, keepReadingPosition, landAt, trackJumps, returnFromJump } from './lib/position.js';
import { pageOf, pageHash, pageLang } from './pages/index.js';
import { pageLinks, mountPage } from './pages/host.js';
import { storedLang, rememberLang, langSwitch } from './lib/language.js';
import { createHashWriter } from './lib/hash-writer.js';
import { createRenderScheduler } from './lib/render-scheduler.js';
import en from './i18n/en.js';
import zh from './i18n/zh.js';

const STRINGS = { en, zh };
const lessonModules = new Map(); // id → the lesson's module (all loaded at start)

let pe = null;
let state = null;
let view = null; // the mounted lesson
let guide = null; // its questions and Previous/Next
let controls = null;
let lastHash = '';
let previous = null;
// A page that is not a lesson (pages/index.js), shown instead of the state's lesson while set.
let page = null;
// Each lesson's last state (Previous / Next come back to it) and each
// lesson's own memory of what lives outside the state (the rope lesson's pasted
// config): both outlive a lesson's page, which a lesson or language change rebuilds.
const keptStates = new Map();
const lessonMemory = new Map();

/** The string at a dotted key in the current language (English if missing). */
function t(key, vars, fallback) {
  const lookup = (table) => key.split('.').reduce((o, k) => (o && typeof o === 'object' ? o[k] : undefined), table);
  let s = lookup(STRINGS[state?.lang ?? 'en']);
  if (s === undefined) s = lookup(en);
  if (s === undefined) return fallback !== undefined ? fallback : key;
  // integers as the page's language writes them (grouped from 10,000 on), like every readout and axis
  const show = (v) => (Number.isInteger(v) ? formatInteger(v, state?.lang) : String(v));
  if (vars && typeof s === 'string') s = s.replace(/\{(\w+)\}/g, (m, name) => (name in vars ? show(vars[name]) : m));
  return s;
}

// ---- messages (validation problems of URL or typed values) ----

function showMessages(messages) {
  renderMessages(messages, { t, state, rangeOf });
}

// ---- state changes ----

/**
 * Applies a patch to the state. Values are validated like URL values; with
 * fromUser, problems are shown as messages. `lesson` switches to that
 * lesson's defaults (keeping language and colormap).
 */
function setState(patch, { fromUser = false } = {}) {
  let next = { ...state };
  const messages = [];
  if (patch.lesson && patch.lesson !== state.lesson && LESSONS.includes(patch.lesson)) {
    const kept = keptStates.get(patch.lesson);
    next = kept ? { ...kept, lang: state.lang } : { ...defaultState(patch.lesson, state.lang), cmap: state.cmap };
  }
  if (LANGS.includes(patch.lang)) next.lang = patch.lang;
  for (const [key, raw] of Object.entries(patch)) {
    if (key === 'lesson' || key === 'lang') continue;
    const { value, problem } = validateField(key, raw, next);
    if (value !== null) next[key] = value;
    if (problem && fromUser) messages.push({ key, problem, value: next[key], typed: String(raw) });
  }
  const normalized = normalize(next, { check: dModelCheck, previous: state });
  next = normalized.state;
  // a refused d_model is always reported: the value shown changed
  messages.splice(0, messages.length, ...oneMessagePerField([...messages, ...normalized.messages]));
  const langChanged = next.lang !== state.lang;
  // a lesson chosen while a page is shown leaves the page, even the state's own lesson
  const lessonChanged = next.lesson !== state.lesson || (page !== null && patch.lesson !== undefined);
  // the lesson (or page) left behind keeps its own history entry, with all of its state and its language
  if (lessonChanged) flushHash();
  if (lessonChanged) page = null;
  state = next;
  keptStates.set(state.lesson, state);
  if (langChanged) rememberLang(state.lang);
  if (langChanged || lessonChanged) {
    // a language switch keeps the reader where they were: the same section in view
    buildPage(lessonChanged ? null : readingPosition());
    if (lessonChanged) {
      lastHash = toHash(state);
      history.pushState(null, '', lastHash);
      landAtTitle();
    }
  } else scheduleRender();
  // after a rebuild, so that each message finds its control
  if (fromUser || normalized.messages.length) showMessages(messages);
  hashWriter.schedule();
}

/** Scrolls the new lesson's title (or the section a link named, `section=`) to the top; focus to the lesson. */
const landAtTitle = (section = null) => landAt(document.getElementById('lesson'), section);

const renderer = createRenderScheduler(render);
const scheduleRender = renderer.schedule;

function render() {
  if (page) return; // a page draws itself
  const t0 = performance.now();
  controls?.sync(state);
  view?.update(state, changedSince(previous, state));
  guide?.update(state);
  attachFigureExports(document.querySelector('article.lesson'), app, lessonById(state.lesson), view?.figures?.() ?? {});
  previous = { ...state };
  siteProbe.renders.push({ time: t0, duration: performance.now() - t0 });
  if (siteProbe.renders.length > 2000) siteProbe.renders.splice(0, 1000);
}

const hashWriter = createHashWriter(
  () => (page ? pageHash(page, state.lang) : toHash(state)),
  (hash) => (lastHash = hash),
);
const flushHash = hashWriter.flush;

// A jump within the lesson (a glossary link) is a history entry (lib/position.js).
trackJumps(flushHash);

// Back/Forward (popstate) and a hash edited by hand (hashchange): the state follows the URL.
function followLocation(event) {
  if (location.hash === lastHash) {
    if (event?.type === 'popstate' && typeof event.state?.returnTo === 'number') returnFromJump(event.state);
    return;
  }
  hashWriter.cancel();
  const named = pageOf(location.hash);
  if (named) {
    const changed = named !== page;
    page = named;
    state = { ...state, lang: pageLang(location.hash, LANGS) ?? state.lang };
    lastHash = location.hash;
    buildPage();
    if (changed) landAtTitle();
    return;
  }
  const leftPage = page !== null;
  page = null;
  const { state: parsed, messages, section } = parseHash(location.hash, state.lang, { check: dModelCheck });
  const lessonChanged = parsed.lesson !== state.lesson;
  const rebuild = leftPage || lessonChanged || parsed.lang !== state.lang;
  state = parsed;
  keptStates.set(state.lesson, state);
  lastHash = location.hash;
  if (rebuild) buildPage();
  else scheduleRender();
  showMessages(messages);
  if (lessonChanged || leftPage || section) landAtTitle(section);
  // Back to the place a glossary jump left, on the page rebuilt in that entry's language
  else if (rebuild && event?.type === 'popstate' && typeof event.state?.returnTo === 'number') returnFromJump(event.state, { rebuilt: true });
}
window.addEventListener('popstate', followLocation);
window.addEventListener('hashchange', followLocation);

// ---- page ----

function buildNav() {
  const nav = clear(document.getElementById('lesson-nav'));
  const list = h('ol', { class: 'lesson-list' });
  REGISTRY.forEach(({ id }) => {
    const params = new URLSearchParams({ lesson: id, lang: state.lang });
    const a = h(
      'a',
      {
        href: `#${params}`,
        'data-lesson': id,
        'aria-current': !page && id === state.lesson ? 'page' : null,
        onclick: (e) => {
          e.preventDefault();
          setState({ lesson: id });
        },
      },
      t(`lessons.${id}.nav`),
    );
    list.append(h('li', {}, a));
  });
  nav.setAttribute('aria-label', t('site.lessons'));
  nav.append(h('h2', { class: 'nav-title' }, t('site.lessons')), list, pageLinks({ t, current: page, lang: state.lang, open: openPage }));
}

/** On a narrow screen the menu is one scrolling row: bring the current lesson into its middle. */
function showCurrentInNav() {
  const nav = document.getElementById('lesson-nav');
  const current = nav.querySelector('a[aria-current="page"]');
  if (!current || nav.scrollWidth <= nav.clientWidth) return;
  const offset = current.getBoundingClientRect().left - nav.getBoundingClientRect().left;
  nav.scrollLeft += offset - (nav.clientWidth - current.offsetWidth) / 2;
}

function buildLangSwitch() {
  langSwitch(document.getElementById('lang-switch'), { langs: LANGS, t, current: state.lang, choose: (lang) => setState({ lang }) });
}

/** Shows a page that is not a lesson (its own history entry). */
function openPage(id) {
  if (page === id) return;
  flushHash();
  page = id;
  buildPage();
  lastHash = pageHash(id, state.lang);
  history.pushState(null, '', lastHash);
  landAtTitle();
}

// A page's module is loaded on first use; a later build (another language) supersedes one still loading.
let pageBuild = 0;
async function buildOtherPage(anchor) {
  const [build, id] = [++pageBuild, page];
  const mounted = await mountPage(id, document.getElementById('lesson'), { app, t }, () => build === pageBuild && page === id);
  if (!mounted) return;
  view?.destroy?.();
  [view, controls, guide] = [mounted, null, null];
  if (anchor) keepReadingPosition(anchor);
  document.documentElement.dataset.ready = 'true';
}

/** Builds the lesson (or page) of the state; `anchor`: a reading position (lib/position.js) to keep. */
function buildPage(anchor = null) {
  document.documentElement.lang = state.lang === 'zh' ? 'zh-CN' : 'en';
  document.title = `${t(`lessons.${state.lesson}.title`)} · sinpe`;
  document.getElementById('tagline').textContent = t('site.tagline');
  document.querySelector('.skip-link').textContent = t('site.skip');
  buildLangSwitch();
  buildNav();
  if (page) return void buildOtherPage(anchor); // it sets the document's title
  pageBuild++;
  const main = document.getElementById('lesson');
  for (const el of [...main.children]) if (el.id !== 'messages') el.remove();
  view?.destroy?.();
  const lesson = lessonById(state.lesson);
  const module = lessonModules.get(state.lesson);
  controls = createControls(lesson.controls.filter((k) => !(lesson.own ?? []).includes(k)), app, lesson);
  const container = h('article', { class: `lesson lesson-${state.lesson}`, 'data-lesson': state.lesson });
  main.append(container);
  const ctx = lessonContext(lesson, controls.element);
  view = module.mount(container, ctx);
  guide = attachGuide(container, ctx, view, module.questions);
  previous = null;
  renderer.run();
  if (anchor) keepReadingPosition(anchor);
  showCurrentInNav();
  document.documentElement.dataset.ready = 'true';
}

const app = {
  get pe() {
    return pe;
  },
  get state() {
    return state;
  },
  t,
  setState,
  // a lesson section's URL in the page's language and its heading's string key (pages link to sections)
  section: (lesson, id) => ({ href: sectionHash(lesson, id, state.lang), title: lessonById(lesson).sections.find((s) => s.id === id).title }),
};

/**
 * What a lesson (and each of its sections) is given: the app's package,
 * state, strings and setState, its own registry entry, the shared control
 * panel, and the lesson ids in order (for Previous / Next). A lesson never
 * imports the registry. Every lesson and section has one contract:
 * mount(root, ctx) → { update(state, changed), figures() } (docs/lesson-authoring.md).
 */
function lessonContext(lesson, controlsElement) {
  return {
    app,
    get pe() {
      return pe;
    },
    get state() {
      return state;
    },
    t,
    // the package's reason for an error it threw, in the page's language
    reason: (error) => reasonText(error, state?.lang),
    setState,
    lesson,
    // what the lesson keeps outside the state across rebuilds of its page
    memory: lessonMemory.get(lesson.id) ?? lessonMemory.set(lesson.id, {}).get(lesson.id),
    controls: controlsElement,
    lessonIds: LESSONS,
  };
}

// A read-only probe for the browser tests and the FPS benchmark.
const siteProbe = { renders: [], figures: figureDraws, painted: paintedTexts, computations, get state() { return { ...state }; } };
Object.defineProperty(window, 'sinpeSite', { value: siteProbe });

/**
 * Whether the package accepts d_model d for the lesson's own call (its
 * registry probe): null if it does, else the package's reason for its
 * RangeError ({ message, status, values }).
 */
function dModelCheck(d, s) {
  try {
    lessonById(s.lesson).probe(pe, { ...s, d });
    return null;
  } catch (error) {
    if (error instanceof RangeError) return reasonOf(error);
    throw error;
  }
}

async function start() {
  try {
    const [instance, modules] = await Promise.all([sinpe(), Promise.all(REGISTRY.map((l) => l.module()))]);
    pe = instance;
    REGISTRY.forEach((l, i) => lessonModules.set(l.id, modules[i].default));
  } catch (error) {
    document.getElementById('loading').textContent = `WebAssembly could not be loaded: ${error.message}`;
    throw error;
  }
  siteProbe.simd = pe.simd;
  page = pageOf(location.hash);
  const hash = page ? '' : location.hash;
  const { state: parsed, messages, section } = parseHash(hash, (page && pageLang(location.hash, LANGS)) || storedLang(LANGS), { check: dModelCheck });
  state = parsed;
  // Previous / Next come back to the settings the page opened with
  keptStates.set(state.lesson, state);
  buildPage();
  showMessages(messages);
  if (section) landAtTitle(section);
  hashWriter.write();
}

// the sticky header's height, for what is pinned under it and for what is scrolled to (style.css: --header-h)
new ResizeObserver(([entry]) => {
  document.documentElement.style.setProperty('--header-h', `${Math.ceil(entry.target.getBoundingClientRect().height)}px`);
}).observe(document.querySelector('.site-header'));

start();
