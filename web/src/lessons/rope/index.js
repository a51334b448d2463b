// The rope lesson: rotary position embedding (RoPE), on the package's RoPE
// API. Nine sections, each a component of this folder with the lessons' one
// contract, mount(root, ctx) → { update(state, changed), figures(), shows }: the dials, the offset
// check, the two layouts, long-context scaling, a model's config.json, a
// text + image sequence's 3-axis positions, a patch grid's 2-D RoPE, the
// precision of float32 and bfloat16 angles at long positions, and float16 /
// bfloat16 caches rounded once.
//
// A render draws at once the sections on (or near) the screen, and the
// first two on the first render; the others, when a field they show changed
// (each section's `shows`), follow one a slice after the frame that shows
// the render (lib/sliced.js), each aria-busy until it shows the state, so a
// step of a lesson-wide control (the base) repaints within a frame and the
// lesson shows at once.
import { h, paragraphs, formula } from '../../lib/dom.js';
import { pageHash } from '../../pages/index.js';
import { lessonHeader, changedSince } from '../../lib/lesson.js';
import { ROTATION } from '../../lib/maths/rope.js';
import * as dials from './dials.js';
import * as check from './check.js';
import * as layouts from './layouts.js';
import * as scaling from './scaling.js';
import * as config from './config.js';
import * as precision from './precision.js';
import * as multimodal from './multimodal.js';
import * as grid from './grid.js';
import * as half from './half.js';
import { createSlicedWork } from '../../lib/sliced.js';
import { questions } from './questions.js';

// each section's component by its id; the lesson registry's `sections` gives their order (and the ids a link opens at)
const MODULES = { dials, check, layouts, scaling, config, multimodal, grid, precision, half };
const AT_ONCE = 2; // sections drawn in the first render (before the page knows what is on screen)

export default {
  id: 'rope',
  questions,
  mount(root, ctx) {
    root.append(...lessonHeader(ctx, 'rope'), formula(ROTATION, ctx.t('formulaText')), ...paragraphs(ctx.t('lessons.rope.symbols')));
    const sections = ctx.lesson.sections.map(({ id }, i) => {
      const from = root.children.length;
      const section = MODULES[id].mount(root, ctx);
      root.children[from].dataset.section = id;
      // seen: the state the section last drew; shown: its elements on or near the screen (null: not known yet)
      return { ...section, elements: [...root.children].slice(from), seen: null, shown: null, first: i < AT_ONCE };
    });
    // a model's own baked caches are checked on the "Check a model" page
    root.append(h('p', { class: 'check-model-link' }, ctx.t('checkModel.fromRope'), ' ', h('a', { href: pageHash('check-model', ctx.state.lang), 'data-page': 'check-model' }, ctx.t('checkModel.nav'))));
    const owner = new Map(sections.flatMap((section) => section.elements.map((el) => [el, section])));
    const screen = new IntersectionObserver(
      (entries) => {
        for (const { target, isIntersecting } of entries) {
          const section = owner.get(target);
          section.shown ??= new Set();
          section.shown[isIntersecting ? 'add' : 'delete'](target);
        }
      },
      { rootMargin: '200px 0px' },
    );
    owner.forEach((_, el) => screen.observe(el));
    const onScreen = (section) => (section.shown ? section.shown.size > 0 : section.first);
    const busy = (section, on) => section.elements.forEach((el) => (on ? el.setAttribute('aria-busy', 'true') : el.removeAttribute('aria-busy')));
    // each section is redrawn only when a field it shows changed since it last drew
    function draw(section, s) {
      const seen = section.seen;
      section.update(s, changedSince(seen, s));
      section.seen = s;
      busy(section, false);
    }
    // a section's draw may take longer than a slice's budget: none runs inside the render
    const later = createSlicedWork({ eager: false });
    // one slice: the next section behind the state, drawn from the state as it is now
    const drawNext = () => {
      const section = sections.find((x) => x.seen !== ctx.state);
      if (!section) return true;
      draw(section, ctx.state);
      return false;
    };
    // text the late sections wrote gets its glossary links (lib/guide.js)
    const done = () => root.dispatchEvent(new CustomEvent('lesson-drawn', { bubbles: true }));
    return {
      update(s) {
        let behind = false;
        for (const section of sections) {
          if (section.seen === s) continue;
          // out of view, a section none of whose fields changed is brought up to date at once (its
          // update draws nothing): only those with something to draw are marked busy and drawn later
          if (onScreen(section) || !changedSince(section.seen, s)(...section.shows)) draw(section, s);
          else {
            busy(section, true);
            behind = true;
          }
        }
        if (behind) later.start(drawNext, done);
      },
      destroy() {
        later.cancel();
        screen.disconnect();
      },
      figures: () => Object.assign({}, ...sections.map((s) => s.figures())),
    };
  },
};
