// Messages about values the site changed or refused (typed, or from the URL).
import { h, clear } from './dom.js';
import { FIELDS, formatField } from '../model/fields.js';
import { reasonText } from './reasons.js';
import { afterPaint } from './after-paint.js';

/** The text of one message, with the field's allowed range when it has one. */
function messageText(m, { t, state, rangeOf }) {
  if (m.problem === 'unknown') return t('message.unknown', { count: m.count });
  if (m.key === 'section') return t('message.section'); // the URL's text is never shown
  const name = t(`control.${m.key}`, null, m.key);
  if (m.problem === 'rule') {
    const first = m.rounded !== undefined && String(m.rounded) !== String(m.typed) ? 'message.ruleRounded' : 'message.rule';
    // the package's reason in the page's language
    const rule = m.reason && typeof m.reason === 'object' ? reasonText(m.reason, state?.lang) : m.rule;
    return t(first, { name, typed: m.typed, rounded: m.rounded, value: m.value, rule });
  }
  const value = Array.isArray(m.value) ? m.value.join(', ') : m.value;
  const numeric = FIELDS[m.key] && ['int', 'number', 'dModel'].includes(FIELDS[m.key].type);
  const [min, max] = numeric && state ? rangeOf(m.key, state) : [];
  let problem = m.problem;
  // typed by the learner: the message names what was typed; a number inside the range was only rounded
  if (m.typed !== undefined) {
    const typed = Number(m.typed);
    if (problem === 'clamped' && numeric && m.typed.trim() !== '' && typed >= min && typed <= max) problem = 'rounded';
    problem = { clamped: 'clampedTyped', rejected: 'rejectedTyped', rounded: 'rounded' }[problem] ?? problem;
  }
  const text = t(`message.${problem}`, { name, value, typed: m.typed });
  if (!numeric || !state) return text;
  return `${text} ${t('message.range', { min: formatField(m.key, min), max: formatField(m.key, max) })}`;
}

/**
 * Shows messages: each one about a control of the lesson also beside that
 * control (a polite live region there announces it), where the learner
 * looks; all of them in the box above the lesson, which announces only
 * those no control shows. ctx: { t, state, rangeOf(key, state) }.
 */
export function renderMessages(messages, ctx) {
  const { t } = ctx;
  const box = document.getElementById('messages');
  clear(box);
  for (const slot of document.querySelectorAll('#lesson .control-message')) slot.textContent = '';
  let unplaced = 0;
  for (const m of messages) {
    const text = messageText(m, ctx);
    box.append(h('p', { class: 'message' }, text));
    const slot = m.key && document.querySelector(`#lesson .control-${m.key} .control-message`);
    if (slot) {
      slot.textContent = slot.textContent ? `${slot.textContent} ${text}` : text;
      // typed into this control: the message below it must not sit under the fold
      // (after the redraw queued for this frame, which may move it, and again
      // once the page's fonts have arrived, which move it too: 简体中文's)
      if (slot.parentElement.contains(document.activeElement)) {
        // in a task after the frame's paint, when its layout is done (lib/after-paint.js):
        // scrolling from the frame's own callbacks laid the page out a second time within the
        // frame (a variants d step, whose odd values its preset refuses, spent 3.7 ms a step
        // on it); asking for document.fonts.ready lays the page out too, so it is asked there as well
        const show = () => slot.scrollIntoView({ block: 'nearest' });
        afterPaint(() => {
          show();
          document.fonts?.ready.then(show);
        });
      }
    } else unplaced++;
  }
  box.setAttribute('aria-live', unplaced ? 'assertive' : 'off');
  box.setAttribute('role', unplaced ? 'alert' : 'status');
  if (messages.length) {
    box.append(
      h('button', { type: 'button', class: 'button message-dismiss', onclick: () => clear(box) }, t('message.dismiss')),
    );
  }
}
