// What follows every lesson: its predict-then-reveal questions and the
// Previous / Next links, in the order of the lesson registry.
import { createQuiz } from '../lib/quiz.js';
import { createPager } from '../lib/pager.js';
import { questionsFor } from './questions.js';

/**
 * Appends the questions and the pager to a mounted lesson (ctx: the lesson's
 * context, with its registry entry and the lesson ids); returns { update(state) }.
 */
export function attachGuide(container, ctx, view) {
  const app = ctx;
  const id = ctx.lesson.id;
  const questions = questionsFor(id, app, view);
  const quiz = questions.length ? createQuiz(app, { title: app.t('quiz.title'), intro: app.t('quiz.intro'), questions }) : null;
  if (quiz) container.append(quiz.element);
  container.append(createPager(app, ctx.lessonIds, id));
  return {
    update(state) {
      quiz?.update(state);
    },
  };
}
