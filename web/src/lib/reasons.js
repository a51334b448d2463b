// The package's reasons in the page's language. The package gives each error
// its reason by name (error.status for the core's statuses, error.code for
// ropeOptionsFromConfig's) with the values its message shows (error.values);
// a language with its own wording fills its string for that name with the
// same values. English is the package's own message.
import zh from '../i18n/reasons.zh.js';

const WORDING = { zh };

/**
 * A reason as plain data, kept in messages: { message, status, code, values }
 * (message without the package's "sinpe: " prefix).
 */
export function reasonOf(error) {
  return {
    message: String(error?.message ?? error).replace(/^sinpe: /, ''),
    status: typeof error?.status === 'string' ? error.status : undefined,
    code: typeof error?.code === 'string' ? error.code : undefined,
    values: error?.values && typeof error.values === 'object' ? { ...error.values } : undefined,
  };
}

/** The template for a reason in `lang`, or undefined (the package's English then). */
export function reasonTemplate(reason, lang) {
  const table = WORDING[lang];
  if (!table || !reason) return undefined;
  if (reason.status !== undefined) return table.statuses[reason.status];
  if (reason.code !== undefined) return table.config[reason.code];
  return undefined;
}

/** The text of a reason (an error or reasonOf's record) in `lang`. */
export function reasonText(reason, lang) {
  const r = reason instanceof Error ? reasonOf(reason) : reason;
  const template = reasonTemplate(r, lang);
  if (template === undefined || !r.values) return r.message;
  return template.replace(/\{(\w+)\}/g, (whole, key) => (Object.hasOwn(r.values, key) ? r.values[key] : whole));
}
