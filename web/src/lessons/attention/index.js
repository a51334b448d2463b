// Lesson 0: why attention needs positions. One self-attention head, live, on
// a sentence the learner edits: it cannot tell word orders apart until a
// position encoding (the package's sinusoidal table, or RoPE through
// applyRope) is added; and what position information alone gives attention.
// Sections are separate components; the course map opens the site.
import { h } from '../../lib/dom.js';
import { lessonHeader } from '../../lib/lesson.js';
import { createCourseMap } from './course-map.js';
import { createHeadSection } from './head.js';
import { createShuffleSection } from './shuffle.js';
import { createDistanceSection } from './distance.js';
import { createQuizzes } from './questions.js';
import { runLesson } from './run.js';
import { markAnswers } from '../guide.js';

export default {
  id: 'attention',
  mount(root, ctx) {
    const app = ctx;
    const controlsElement = ctx.controls;
    const parts = {};
    const quizzes = createQuizzes(app, () => parts);
    const { lesson } = ctx;
    parts.head = createHeadSection(app, { quiz: quizzes.head.element });
    parts.shuffle = createShuffleSection(app, { quiz: quizzes.shuffle.element, lesson });
    parts.distance = createDistanceSection(app, { quiz: quizzes.distance.element, lesson });
    root.append(
      ...lessonHeader(app, 'attention'),
      createCourseMap(app),
      h('div', { class: 'lesson-controls' }, controlsElement),
      parts.head.element,
      parts.shuffle.element,
      parts.distance.element,
    );
    markAnswers(root, quizzes.questions);
    return {
      figures: { distance: parts.distance.chart },
      update(s, prev) {
        const run = runLesson(app.pe, s);
        parts.head.update(run);
        parts.shuffle.update(run);
        parts.distance.update(s, prev);
        for (const quiz of [quizzes.head, quizzes.shuffle, quizzes.distance]) quiz.update(s);
      },
    };
  },
};
