// Predict, then reveal: questions a learner answers before looking, each
// settled by the live figure. Choosing is required before revealing (the
// prediction is the point). Revealing marks the right choice, explains it
// with numbers computed for the current state, and points the figure's cursor
// at the answer (question.show) without changing the state or scrolling away
// from the feedback. If the state changes afterwards, the explanation follows it.
import { h, rich, clear } from './dom.js';

let uid = 0;

/**
 * createQuiz(app, { title, intro, questions, scope })
 * question: { id, prompt, choices: [{ value, label }], answer(state) → value,
 *   explain(state) → string (rich text), show?(state) }
 * scope: the lesson; revealing a question shows its elements held back until
 *   then (data-answers="<id>" with data-reveal, hidden).
 * → { element, update(state) }
 */
export function createQuiz(app, { title, intro, questions, scope }) {
  const { t } = app;
  const element = h('section', { class: 'lesson-section quiz', 'aria-label': title }, h('h2', {}, title), intro ? rich(intro) : null);
  const entries = [];

  for (const q of questions) {
    const name = `quiz-${q.id}-${++uid}`;
    const inputs = [];
    const fieldset = h('fieldset', { class: `quiz-question${q.kind === 'code' ? ' quiz-code' : ''}`, 'data-question': q.id });
    fieldset.append(h('legend', {}, rich(q.prompt, 'span')));
    const choiceList = h('div', { class: 'quiz-choices' });
    for (const c of q.choices) {
      const input = h('input', { type: 'radio', name, value: c.value, 'data-choice': c.value });
      inputs.push(input);
      choiceList.append(h('label', { class: 'quiz-choice', 'data-choice': c.value }, input, ' ', rich(c.label, 'span')));
    }
    const reveal = h('button', { type: 'button', class: 'button quiz-reveal', disabled: true }, t('quiz.reveal'));
    const hint = h('small', { class: 'quiz-hint' }, t('quiz.predictFirst'));
    const feedback = h('div', { class: 'quiz-feedback', 'aria-live': 'polite' });
    fieldset.append(choiceList, h('div', { class: 'quiz-actions' }, reveal, hint), feedback);
    element.append(fieldset);

    const entry = { q, inputs, fieldset, feedback, revealed: false };
    entries.push(entry);
    choiceList.addEventListener('change', () => {
      reveal.disabled = false;
      hint.hidden = true;
      if (entry.revealed) render(entry, app.state);
    });
    reveal.addEventListener('click', () => {
      entry.revealed = true;
      render(entry, app.state);
      for (const el of scope?.querySelectorAll(`[data-reveal][data-answers~="${q.id}"]`) ?? []) el.hidden = false;
      // show only points the figure's cursor: the settings stay the learner's
      q.show?.(app.state);
      // the answer is read where it was asked for
      feedback.scrollIntoView({ block: 'nearest' });
    });
  }

  function render(entry, state) {
    const { q, inputs, fieldset, feedback } = entry;
    const right = String(q.answer(state));
    const chosen = inputs.find((i) => i.checked)?.value;
    for (const label of fieldset.querySelectorAll('.quiz-choice')) {
      label.classList.toggle('correct', label.dataset.choice === right);
      label.classList.toggle('wrong', label.dataset.choice === chosen && chosen !== right);
    }
    fieldset.dataset.result = chosen === right ? 'right' : 'wrong';
    clear(feedback).append(
      h('strong', { class: 'quiz-verdict' }, chosen === right ? t('quiz.right') : t('quiz.wrong')),
      ' ',
      rich(q.explain(state), 'span'),
    );
  }

  return {
    element,
    update(state) {
      for (const entry of entries) if (entry.revealed) render(entry, state);
    },
  };
}
