// Lesson 9: rotary position embedding (RoPE), on the package's RoPE API.
// Nine sections, each a component of this folder: the dials, the offset
// check, the two layouts, long-context scaling, a model's config.json, a
// text + image sequence's 3-axis positions, a patch grid's 2-D RoPE, the
// precision of float32 and bfloat16 angles at long positions, and float16 /
// bfloat16 caches rounded once.
import { h, paragraphs, tex } from '../../lib/dom.js';
import { pageHash } from '../../pages/index.js';
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

const SECTIONS = [dials, check, layouts, scaling, config, multimodal, grid, precision, half];

export default {
  id: 'rope',
  mount(root, ctx) {
    root.append(...lessonHeader(ctx, 'rope'), tex(ROTATION.tex, true), ...paragraphs(ctx.t('lessons.rope.symbols')));
    const sections = SECTIONS.map((s) => s.mount(root, ctx));
    // a model's own baked caches are checked on the "Check a model" page
    root.append(h('p', { class: 'check-model-link' }, ctx.t('checkModel.fromRope'), ' ', h('a', { href: pageHash('check-model', ctx.state.lang), 'data-page': 'check-model' }, ctx.t('checkModel.nav'))));
    return {
      update(s, prev) {
        // each section is redrawn only when a field it shows changed
        const changed = (...keys) => !prev || keys.some((k) => prev[k] !== s[k]);
        for (const section of sections) section.update(s, changed);
      },
      figures: Object.assign({}, ...sections.map((s) => s.figures)),
    };
  },
};
