// The site's pages that are not numbered lessons, reached by `#page=<id>&lang=…`
// from the menu (below the lessons) and from the lessons that mention them.
// A page keeps no state in the URL besides the language; what it was given
// (files) it keeps in its memory for the session. Loaded on demand: the
// lessons never load a page's code (the model checker's ONNX reader).
export const PAGES = Object.freeze([{ id: 'check-model', module: () => import('./check-model.js') }]);
export const PAGE_IDS = Object.freeze(PAGES.map((p) => p.id));

/** The page a location hash names (null: a lesson) and its language (null: none given). */
export function pageOf(hash) {
  const params = new URLSearchParams(String(hash ?? '').replace(/^#/, '').slice(0, 2000));
  const id = params.get('page');
  return PAGE_IDS.includes(id) ? id : null;
}

/** The hash of a page in a language. */
export function pageHash(id, lang) {
  return `#${new URLSearchParams({ page: id, lang })}`;
}

/** The language a page hash names, if it is one of `langs`. */
export function pageLang(hash, langs) {
  const lang = new URLSearchParams(String(hash ?? '').replace(/^#/, '')).get('lang');
  return langs.includes(lang) ? lang : null;
}

/** The string-table section of a page: 'check-model' → 'checkModel'. */
export const pageKey = (id) => id.replace(/-(\w)/g, (m, c) => c.toUpperCase());
