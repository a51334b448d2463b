// Labels with subscripts. The strings write a subscript as TeX does, with an
// underscore: "λ_i", "p·ω_j", "G_t", "L/l_f", "β_fast", "ω_{k}". A label drawn
// in a figure (SVG text, an HTML legend or caption, a PNG's canvas) shows the
// part after the `_` lowered and smaller, never the `_` itself.
//
// A subscript is the letters or digits after an underscore that follows a
// one-letter symbol (a letter with no Latin or Greek letter, digit or `_`
// before it: Chinese words may touch it), or a
// {…} group after an underscore: "d_model", "λ_j" and "cos_{exact}" are
// subscripted; a code name such as "rope_theta", "max_len" or
// "<|vision_start|>" (a word of more than one letter before its `_`) is left
// as it is, as it is written in code.
const SUBSCRIPT = /(?:(?<![\p{Script=Latin}\p{Script=Greek}\p{N}_])(\p{L})_([\p{L}\p{N}]+))|(?:([^\s_])_(\{[^{}]*\}))/gu;

/** The runs of a label: [{ text, sub }], in order, the `_` and braces gone. */
export function subscriptRuns(label) {
  const text = String(label);
  const runs = [];
  let at = 0;
  for (const m of text.matchAll(SUBSCRIPT)) {
    const [symbol, group] = m[1] !== undefined ? [m[1], m[2]] : [m[3], m[4]];
    const base = m.index + symbol.length;
    if (base > at) runs.push({ text: text.slice(at, base), sub: false });
    runs.push({ text: group.startsWith('{') ? group.slice(1, -1) : group, sub: true });
    at = m.index + m[0].length;
  }
  if (at < text.length || runs.length === 0) runs.push({ text: text.slice(at), sub: false });
  return runs;
}

/** Whether a label has a subscript. */
export function hasSubscript(label) {
  return subscriptRuns(label).some((r) => r.sub);
}

/** The label as read aloud or searched: its subscripts written after their symbol ("λi"). */
export function plainLabel(label) {
  return subscriptRuns(label)
    .map((r) => r.text)
    .join('');
}

// SVG: a subscript is a tspan lowered by dy and set at 75 % (dy, not baseline-shift: the PNG's text
// layer reads each run's place from the layout, and every SVG renderer honours dy)
const SUB_SIZE = 0.75;
const SUB_DROP = 0.3; // em of the label

/**
 * Sets an SVG <text>'s content to `label`, its subscripts as tspans
 * (class "sub"); `size`: the label's font size in px (for the drop).
 * Unchanged content is left alone (a redraw of a chart keeps its labels).
 */
export function setSvgLabel(el, label, size = 11) {
  const key = String(label);
  if (el.getAttribute('data-label') === key && el.firstChild) return el;
  el.setAttribute('data-label', key);
  while (el.firstChild) el.firstChild.remove();
  const drop = +(SUB_DROP * size).toFixed(2);
  let lowered = false;
  for (const run of subscriptRuns(key)) {
    if (!run.sub && !lowered) {
      el.append(document.createTextNode(run.text));
      continue;
    }
    const span = document.createElementNS('http://www.w3.org/2000/svg', 'tspan');
    span.textContent = run.text;
    if (run.sub) {
      span.setAttribute('class', 'sub');
      span.setAttribute('font-size', `${Math.round(SUB_SIZE * 100)}%`);
    }
    // lowered for a subscript, back up after it
    span.setAttribute('dy', String(run.sub ? (lowered ? 0 : drop) : -drop));
    lowered = run.sub;
    el.append(span);
  }
  return el;
}

/** The label as HTML nodes: text and <sub> elements (for a legend, a caption, a table head). */
export function htmlLabel(label) {
  return subscriptRuns(label).map((r) => {
    if (!r.sub) return document.createTextNode(r.text);
    const sub = document.createElement('sub');
    sub.textContent = r.text;
    return sub;
  });
}
