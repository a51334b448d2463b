// Lesson 9: rotary position embedding (RoPE), on the package's RoPE API.
// Six sections, each a component of this folder: the dials, the offset
// check, the two layouts, long-context scaling, a model's config.json, and
// the precision of float32 and bfloat16 angles at long positions.
import { paragraphs, tex } from '../../lib/dom.js';
import { lessonHeader } from '../../lib/lesson.js';
import { ROTATION } from '../../lib/maths/rope.js';
import * as dials from './dials.js';
import * as check from './check.js';
import * as layouts from './layouts.js';
import * as scaling from './scaling.js';
import * as config from './config.js';
import * as precision from './precision.js';

const SECTIONS = [dials, check, layouts, scaling, config, precision];

export default {
  id: 'rope',
  mount(root, ctx) {
    root.append(...lessonHeader(ctx, 'rope'), tex(ROTATION.tex, true), ...paragraphs(ctx.t('lessons.rope.symbols')));
    const sections = SECTIONS.map((s) => s.mount(root, ctx));
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
