// The attention lesson: why attention needs positions. One self-attention
// head, live, on a sentence the learner edits: it cannot tell word orders
// apart until a position encoding (the package's sinusoidal table, or RoPE
// through applyRope) is added; and what position information alone gives
// attention. Each section is a component of this folder with the lessons'
// one contract, mount(root, ctx) → { update(state, changed), figures() };
// each asks its questions right under its title. The course map opens the site.
import { h } from '../../lib/dom.js';
import { lessonHeader } from '../../lib/lesson.js';
import { markAnswers } from '../../lib/guide.js';
import { createCourseMap } from './course-map.js';
import * as head from './head.js';
import * as shuffle from './shuffle.js';
import * as distance from './distance.js';
import { createQuizzes } from './questions.js';

const SECTIONS = { head, shuffle, distance };

export default {
  id: 'attention',
  mount(root, ctx) {
    // each section: its component and its <section> element (what its questions stand for)
    const parts = {};
    const quizzes = createQuizzes(ctx, () => parts);
    root.append(...lessonHeader(ctx, 'attention'), createCourseMap(ctx), h('div', { class: 'lesson-controls' }, ctx.controls));
    for (const [key, component] of Object.entries(SECTIONS)) {
      const from = root.children.length;
      parts[key] = { ...component.mount(root, ctx), element: root.children[from] };
      // the section's questions, right under its title
      parts[key].element.querySelector(':scope > h2').after(quizzes[key].element);
    }
    markAnswers(root, quizzes.questions);
    return {
      figures: () => Object.assign({}, ...Object.values(parts).map((part) => part.figures())),
      update(s, changed) {
        for (const part of Object.values(parts)) part.update(s, changed);
        for (const quiz of [quizzes.head, quizzes.shuffle, quizzes.distance]) quiz.update(s);
      },
    };
  },
};
