// Lesson 9: rotary position embedding (RoPE), on the package's RoPE API.
// Nine sections, each a component of this folder: the dials, the offset
// check, the two layouts, long-context scaling, a model's config.json, a
// text + image sequence's 3-axis positions, a patch grid's 2-D RoPE, the
// precision of float32 and bfloat16 angles at long positions, and float16 /
// bfloat16 caches rounded once.
//
// The first render draws the first sections (what the reader sees first); the
// others draw one a slice in the frames after it (lib/sliced.js), each
// aria-busy until drawn, so the lesson shows at once.
import { paragraphs, tex } from '../../lib/dom.js';
import { lessonHeader } from '../../lib/lesson.js';
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

const SECTIONS = [dials, check, layouts, scaling, config, multimodal, grid, precision, half];
const AT_ONCE = 2; // sections drawn in the first render

export default {
  id: 'rope',
  mount(root, ctx) {
    root.append(...lessonHeader(ctx, 'rope'), tex(ROTATION.tex, true), ...paragraphs(ctx.t('lessons.rope.symbols')));
    const sections = SECTIONS.map((s) => {
      const from = root.children.length;
      const section = s.mount(root, ctx);
      return { ...section, elements: [...root.children].slice(from), drawn: false };
    });
    const all = () => true;
    const busy = (section, on) => section.elements.forEach((el) => (on ? el.setAttribute('aria-busy', 'true') : el.removeAttribute('aria-busy')));
    const later = createSlicedWork();
    // one slice: the next section not drawn yet, from the state as it is now
    const drawNext = () => {
      const section = sections.find((x) => !x.drawn);
      if (!section) return true;
      section.update(ctx.state, all);
      section.drawn = true;
      busy(section, false);
      return false;
    };
    // text the late sections wrote gets its glossary links (lessons/guide.js)
    const done = () => root.dispatchEvent(new CustomEvent('lesson-drawn', { bubbles: true }));
    return {
      update(s, prev) {
        // each section is redrawn only when a field it shows changed
        const changed = (...keys) => !prev || keys.some((k) => prev[k] !== s[k]);
        sections.forEach((section, i) => {
          if (section.drawn) section.update(s, changed);
          else if (i < AT_ONCE) {
            section.update(s, all);
            section.drawn = true;
          } else busy(section, true);
        });
        if (sections.some((x) => !x.drawn)) later.start(drawNext, done);
      },
      destroy: () => later.cancel(),
      figures: Object.assign({}, ...sections.map((s) => s.figures)),
    };
  },
};
