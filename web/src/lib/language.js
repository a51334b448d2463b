// The site's language: the one the reader chose last (localStorage), else
// the browser's; the header's buttons that switch it.
import { h, clear } from './dom.js';

const LANG_KEY = 'sinpe.lang';

/** The language to show: the reader's last choice among `langs`, else the browser's. */
export function storedLang(langs) {
  try {
    const v = localStorage.getItem(LANG_KEY);
    if (langs.includes(v)) return v;
  } catch {
    // storage may be disabled; fall through
  }
  return (navigator.language || '').toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

export function rememberLang(lang) {
  try {
    localStorage.setItem(LANG_KEY, lang);
  } catch {
    // not remembered; the URL still carries it
  }
}

/** The header's language buttons in `box`: `current` pressed, choose(lang) on a click. */
export function langSwitch(box, { langs, t, current, choose }) {
  const group = h('div', { class: 'lang-buttons', role: 'group', 'aria-label': t('site.language') });
  for (const lang of langs) {
    const attrs = { type: 'button', class: 'button lang-button', lang, 'data-lang': lang, 'aria-pressed': String(lang === current), onclick: () => choose(lang) };
    group.append(h('button', attrs, t(`lang.${lang}`)));
  }
  clear(box).append(group);
}
