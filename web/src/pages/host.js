// How main.js shows the pages of pages/index.js: their links below the
// lessons in the menu, and a page mounted in place of a lesson.
import { h } from '../lib/dom.js';
import { PAGES, pageHash, pageKey } from './index.js';

/** The menu's list of pages: `current` the page shown (or null), open(id) shows one. */
export function pageLinks({ t, current, lang, open }) {
  const list = h('ul', { class: 'page-list' });
  for (const { id } of PAGES) {
    const onclick = (e) => {
      e.preventDefault();
      open(id);
    };
    list.append(h('li', {}, h('a', { href: pageHash(id, lang), 'data-page': id, 'aria-current': current === id ? 'page' : null, onclick }, t(`${pageKey(id)}.nav`))));
  }
  return list;
}

const memories = new Map(); // each page's memory (the files given) for the session

/**
 * Loads a page's module and mounts it in main (after `stillWanted()` says the
 * page is still the one to show, as a load takes time). ctx: { app, t }; the
 * page gets { app, pe, state, t, memory }. Returns its view, or null if it was no longer wanted.
 */
export async function mountPage(id, main, { app, t }, stillWanted) {
  const module = (await PAGES.find((p) => p.id === id).module()).default;
  if (!stillWanted()) return null;
  for (const el of [...main.children]) if (el.id !== 'messages') el.remove();
  const container = h('article', { class: `page page-${id}`, 'data-page': id });
  main.append(container);
  document.title = `${t(`${pageKey(id)}.title`)} · sinpe`;
  const memory = memories.get(id) ?? memories.set(id, {}).get(id);
  return module.mount(container, { app, t, memory, get pe() { return app.pe; }, get state() { return app.state; } });
}
