// Numbers as the page's language writes them, through Intl.NumberFormat, by
// one rule everywhere: integers are grouped from 10,000 on (useGrouping
// 'min2': 4096, 65,536, 10,000,291), so a readout, an axis tick and a
// sentence write the same position the same way. Grouping separators of
// en-US and zh-CN are commas, which never break a line inside a number.
// Pure module: the page's language is read from <html lang> when there is a
// page (English in Node).
const LOCALES = { en: 'en-US', zh: 'zh-CN' };
const formats = new Map();

/** The page's language: 'zh' or 'en'. */
export function pageLang() {
  return String(globalThis.document?.documentElement?.lang ?? '').startsWith('zh') ? 'zh' : 'en';
}

/** The (cached) Intl.NumberFormat of a language with these options. */
export function numberFormat(options = {}, lang = pageLang()) {
  const key = `${lang} ${JSON.stringify(options)}`;
  if (!formats.has(key)) formats.set(key, new Intl.NumberFormat(LOCALES[lang] ?? LOCALES.en, options));
  return formats.get(key);
}

/** An integer in full, grouped from 10,000 on; a negative one with the minus sign (−3, as every other number of the page), not a hyphen. */
export function formatInteger(v, lang) {
  return numberFormat({ maximumFractionDigits: 0, useGrouping: 'min2' }, lang).format(v).replace('-', '−');
}

/**
 * A difference (≥ 0) as the page writes it: 0 as 0, a rounding-sized one below
 * 10⁻³ in 3 significant digits with its exponent (5.55e−17), any other to 3
 * significant digits (1.1, 0.0234), never "1.1e+0".
 */
export function formatGap(v, lang) {
  if (v === 0) return '0';
  if (Math.abs(v) < 1e-3) return v.toExponential(2).replace('-', '−');
  return numberFormat({ maximumSignificantDigits: 3, useGrouping: 'min2' }, lang).format(v).replace('-', '−');
}

/** A number to `digits` significant digits at least (never fewer than its integer part has), ungrouped: for tables to be read back. */
export function formatSignificant(v, digits = 6, lang) {
  const intDigits = v === 0 ? 1 : Math.floor(Math.log10(Math.abs(v))) + 1;
  return numberFormat({ maximumSignificantDigits: Math.min(21, Math.max(digits, intDigits)), useGrouping: false }, lang).format(v);
}
