// What a lesson gets besides its own content: its predict-then-reveal
// questions, each asked before the text and figure that answer it, then its
// three-point summary, the glossary and the Previous / Next links.
import { createQuiz } from './quiz.js';
import { createPager } from './pager.js';
import { createSummary, createGlossary, termLinker } from './learn.js';
import { attachPanelToggles } from './panel.js';
import { createNotation } from './notation.js';

/**
 * Appends the questions and the pager to a mounted lesson (ctx: the lesson's
 * context, with its registry entry and the lesson ids; questions(app, view):
 * the lesson module's own questions, if it has any); returns { update(state) }.
 */
export function attachGuide(container, ctx, view, questions = () => []) {
  const app = ctx;
  const id = ctx.lesson.id;
  // the letters of the lesson's formulas, under its introduction
  const notation = createNotation(app, ctx.lesson);
  let intro = container.querySelector('h1.lesson-title');
  while (intro?.nextElementSibling?.matches('p')) intro = intro.nextElementSibling;
  if (notation && intro) intro.after(notation);
  const quizzes = placeQuestions(container, app, questions(app, view), view);
  const glossary = createGlossary(app);
  container.append(...[createSummary(app, id), glossary].filter(Boolean), createPager(app, ctx.lessonIds, id));
  const panels = attachPanelToggles(container, app);
  const terms = termLinker(container, glossary);
  // a lesson that draws parts of itself after the render says when they are drawn
  container.addEventListener('lesson-drawn', () => terms.link(app.t('glossary.words')));
  return {
    update(state) {
      for (const quiz of quizzes) quiz.update(state);
      panels.update(state);
      // after each draw: some of the lesson's text is written (and rewritten) by update
      terms.link(app.t('glossary.words'));
    },
  };
}

/**
 * The elements that state a question's answer, from its `answeredBy`. A
 * section that asks its own questions (the attention lesson) stands for its content below them.
 */
function answeringElements(container, question, view) {
  const found = question.answeredBy?.(container, view) ?? [];
  const below = (sec) => [...sec.children].filter((c) => c.querySelector('.quiz') === null && !c.matches('h2, .quiz'));
  return found.filter(Boolean).flatMap((el) => (el.matches('section.lesson-section') && el.querySelector(':scope > .quiz') ? below(el) : [el]));
}

/**
 * Marks the elements that state each question's answer
 * data-answers="<question id> …" (read by the teaching-order test); returns,
 * per question, the first of them in document order (null if none).
 */
export function markAnswers(container, questions, view) {
  return questions.map((q) => {
    const answers = answeringElements(container, q, view);
    for (const el of answers) el.dataset.answers = [...new Set([...(el.dataset.answers ?? '').split(' ').filter(Boolean), q.id])].join(' ');
    return answers.reduce((a, b) => (a && !(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_PRECEDING) ? a : b), null);
  });
}

/**
 * Asks each question right before the first element that answers it. A
 * question nothing answers is asked at the end of the lesson. Returns the quizzes.
 */
function placeQuestions(container, app, questions, view) {
  const firsts = markAnswers(container, questions, view);
  return questions.map((q, k) => {
    // the intro once, with the lesson's first question
    const quiz = createQuiz(app, { title: app.t('quiz.title'), intro: k === 0 ? app.t('quiz.intro') : null, questions: [q], scope: container });
    if (firsts[k]) firsts[k].before(quiz.element);
    else container.append(quiz.element);
    return quiz;
  });
}
