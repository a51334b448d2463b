// The words inside a displayed formula's \text{…} in the reader's language.
// A formula's TeX (lib/maths/*.js) is written in English; formulaText in a
// language's strings (i18n/<lang>.js) maps each \text{…} content to its
// translation. Code names (mrope_section, β_fast) are left as they are.
//
// Pure module (no DOM).

/**
 * formula.tex (or another of its forms, e.g. key 'narrow': the same formula on
 * more lines) with each \text{X} that `words` translates replaced by
 * \text{words[X]}; null where the formula has no such form.
 */
export function texIn(formula, words, key = 'tex') {
  const source = formula[key];
  if (typeof source !== 'string') return null;
  if (!words || typeof words !== 'object') return source;
  return source.replace(/\\text\{([^{}]*)\}/g, (whole, content) => (typeof words[content] === 'string' ? `\\text{${words[content]}}` : whole));
}
