// The page's language as the browser remembers it (localStorage), else the
// browser's own language; the URL's lang= wins over both (state.js).

const LANG_KEY = 'sinpe.lang';

/** The remembered language if it is one of `langs`, or the browser's ('zh…' → zh, else en). */
export function storedLang(langs) {
  try {
    const v = localStorage.getItem(LANG_KEY);
    if (langs.includes(v)) return v;
  } catch {
    // storage may be disabled; fall through
  }
  return (navigator.language || '').toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

/** Remembers the language chosen (not at all where storage is disabled). */
export function rememberLang(lang) {
  try {
    localStorage.setItem(LANG_KEY, lang);
  } catch {
    // not remembered; the URL still carries it
  }
}
