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
