// The site's string table of one language: the site's own strings
// (i18n/<lang>.js) and each lesson's (lessons/<id>/strings.<lang>.js), every
// one written at its full key path (lessons.<id>.…, questions.<id>.…,
// summary.<id>, …). A key defined twice is an error, not a silent override.

const isTable = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A new table holding every key of `tables`, deeply merged; throws an Error naming a key two of them define. */
export function mergeStrings(...tables) {
  const out = {};
  const into = (target, table, path) => {
    for (const [key, value] of Object.entries(table)) {
      const at = path ? `${path}.${key}` : key;
      if (isTable(value)) {
        if (key in target && !isTable(target[key])) throw new Error(`strings: ${at} is defined twice`);
        target[key] ??= {};
        into(target[key], value, at);
      } else {
        if (key in target) throw new Error(`strings: ${at} is defined twice`);
        target[key] = value;
      }
    }
  };
  for (const table of tables.flat()) into(out, table, '');
  return out;
}

/**
 * The table with every lesson reference {lesson:<id>} in its text replaced
 * by that lesson's number: its place in `ids` (the registry's order, which
 * the menu numbers from 0). A lesson's text names another lesson by id, so
 * inserting a lesson renumbers every reference. Throws an Error naming an
 * unknown id.
 */
export function numberLessons(table, ids) {
  const number = (text, at) =>
    text.replace(/\{lesson:([\w-]+)\}/g, (m, id) => {
      if (!ids.includes(id)) throw new Error(`strings: ${at} names the lesson "${id}", which the registry does not have`);
      return String(ids.indexOf(id));
    });
  const walk = (value, at) => {
    if (typeof value === 'string') return number(value, at);
    if (Array.isArray(value)) return value.map((v) => walk(v, at));
    if (isTable(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, at ? `${at}.${k}` : k)]));
    return value;
  };
  return walk(table, '');
}
