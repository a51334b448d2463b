// What follows every lesson: its predict-then-reveal questions, its three-point
// summary, the glossary and the Previous / Next links, in the order of the lesson registry.
import { createQuiz } from '../lib/quiz.js';
import { createPager } from '../lib/pager.js';
import { questionsFor } from './questions.js';
import { createSummary, createGlossary, termLinker } from '../lib/learn.js';
import { attachPanelToggles } from '../lib/panel.js';

/**
 * Appends the questions and the pager to a mounted lesson (ctx: the lesson's
 * context, with its registry entry and the lesson ids); returns { update(state) }.
 */
export function attachGuide(container, ctx, view) {
  const app = ctx;
  const id = ctx.lesson.id;
  const questions = questionsFor(id, app, view);
  const quiz = questions.length ? createQuiz(app, { title: app.t('quiz.title'), intro: app.t('quiz.intro'), questions }) : null;
  const glossary = createGlossary(app);
  if (quiz) container.append(quiz.element);
  container.append(...[createSummary(app, id), glossary].filter(Boolean), createPager(app, ctx.lessonIds, id));
  const panels = attachPanelToggles(container, app);
  const terms = termLinker(container, glossary, id);
  // a lesson that draws parts of itself after the render says when they are drawn
  container.addEventListener('lesson-drawn', () => terms.link(app.t('glossary.words')));
  return {
    update(state) {
      quiz?.update(state);
      panels.update(state);
      // after each draw: some of the lesson's text is written (and rewritten) by update
      terms.link(app.t('glossary.words'));
    },
  };
}
