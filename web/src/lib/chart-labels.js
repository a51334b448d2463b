// Where a chart's reference-line labels go (lib/chart.js): each label is put at
// the first of its candidate places whose box meets no drawn curve and no
// label placed before it ("original context L" once sat on the default curve,
// "half an ulp" on the bfloat16 one, on the page and in the PNG export alike).
import { plainLabel } from './subscript.js';
const LABEL_SIZE = 11; // px, the labels' font size (style.css .chart-mark-label)
const LABEL_ASCENT = 10.5; // px above the baseline its box reaches, and below it
const LABEL_DESCENT = 3.5;
const LABEL_CLEAR = 2; // px kept between a label's box and a curve (the curve's half width, and air)
let labelContext = null;
let labelFont = '';

/** A label's width in px: its text measured in the chart's font (no layout read), subscripts as written. */
export function labelWidth(svg, text) {
  labelContext ??= document.createElement('canvas').getContext('2d');
  labelFont ||= `${LABEL_SIZE}px ${getComputedStyle(svg).fontFamily}`;
  labelContext.font = labelFont;
  return Math.ceil(labelContext.measureText(plainLabel(text)).width) + 2;
}

/** The drawn curves as line segments in the plot's pixels, and the label boxes placed so far. */
export function labelObstacles(series, x, y) {
  const segments = [];
  for (const s of series) {
    let previous = null;
    for (const p of s.points) {
      const point = [x(p[0]), y(p[1])];
      if (!Number.isFinite(point[0]) || !Number.isFinite(point[1])) {
        previous = null;
        continue;
      }
      if (previous) segments.push([previous[0], previous[1], point[0], point[1]]);
      else segments.push([point[0], point[1], point[0], point[1]]);
      previous = point;
    }
  }
  return { segments, boxes: [] };
}

/** Whether segment (x1, y1)–(x2, y2) meets box [left, top, right, bottom] (Liang–Barsky clipping). */
function segmentMeetsBox([x1, y1, x2, y2], [left, top, right, bottom]) {
  let [t0, t1] = [0, 1];
  const dx = x2 - x1;
  const dy = y2 - y1;
  for (const [p, q] of [[-dx, x1 - left], [dx, right - x1], [-dy, y1 - top], [dy, bottom - y1]]) {
    if (p === 0) {
      if (q < 0) return false;
    } else {
      const r = q / p;
      if (p < 0) t0 = Math.max(t0, r);
      else t1 = Math.min(t1, r);
      if (t0 > t1) return false;
    }
  }
  return true;
}

const overlaps = (a, b) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];

/**
 * The place of a mark's label: the first of its candidate places (for a
 * horizontal line: above it at the right end, then below it, then further
 * left; for a vertical one: right of it, then left, at the top and then lower)
 * whose box meets no curve and no label placed before, else the one meeting
 * the fewest. → { x, y, anchor, box }.
 */
export function placeLabel(mark, w, { x, y, width, height, margin }, avoid) {
  const [plotLeft, plotRight, plotTop, plotBottom] = [margin.left, width - margin.right, margin.top, height - margin.bottom];
  const candidates = [];
  const at = (lx, baseline, anchor) => {
    const left = anchor === 'end' ? lx - w : anchor === 'middle' ? lx - w / 2 : lx;
    candidates.push({ x: lx, y: baseline, anchor, box: [left, baseline - LABEL_ASCENT, left + w, baseline + LABEL_DESCENT] });
  };
  if (mark.y !== undefined) {
    const ly = y(mark.y);
    const span = plotRight - plotLeft;
    for (const f of [1, 0, 0.5, 0.75, 0.25]) {
      const anchor = f === 1 ? 'end' : f === 0 ? 'start' : 'middle';
      const lx = f === 1 ? plotRight - 4 : f === 0 ? plotLeft + 4 : plotLeft + f * span;
      for (const baseline of [ly - 4, ly + LABEL_ASCENT + 3]) at(lx, baseline, anchor);
    }
  } else {
    const lx = x(mark.x);
    for (let baseline = plotTop + 12; baseline + LABEL_DESCENT <= plotBottom; baseline += 13) {
      at(lx + 4, baseline, 'start');
      at(lx - 4, baseline, 'end');
    }
  }
  // inside the plot (a label of a line at its edge may reach into the margin above it)
  const inside = candidates.filter((c) => c.box[0] >= plotLeft - 1 && c.box[2] <= plotRight + 1 && c.box[1] >= 0 && c.box[3] <= plotBottom + LABEL_DESCENT);
  let best = null;
  for (const c of inside.length ? inside : candidates) {
    const grown = [c.box[0] - LABEL_CLEAR, c.box[1] - LABEL_CLEAR, c.box[2] + LABEL_CLEAR, c.box[3] + LABEL_CLEAR];
    let hits = avoid.boxes.filter((b) => overlaps(b, grown)).length * 1000;
    for (const segment of avoid.segments) {
      if (segmentMeetsBox(segment, grown)) hits++;
      if (best && hits >= best.hits) break;
    }
    if (!best || hits < best.hits) best = { ...c, hits };
    if (hits === 0) break;
  }
  return best;
}
