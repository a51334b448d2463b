// RoPE section: float16 and bfloat16 caches. The usual path (float32 angle,
// float32 cos/sin, then a cast; computed here, as the thing the section
// criticises) against the package's correctly rounded ropeCacheRows with a
// half dtype, both in ulps of the float64 value, at every position 0 … L.
// The errors of each position are kept per base: a step of L computes only
// the positions it adds, and work that does not fit a frame (a new base at
// large L) runs in slices across frames (lib/sliced.js). While it runs, the
// chart shows the new L at once with the positions computed so far, filling
// in frame by frame (dimmed, aria-busy), so a drag of L is answered within a
// frame or two even where it adds thousands of positions; a newer L drops
// the older one's job at its next slice (only the latest value is computed).
import { h, fmt, formula, paragraphs, clear } from '../../lib/dom.js';
import { createLineChart, SERIES_COLORS } from '../../lib/chart.js';
import { createControls } from '../../lib/controls.js';
import { section } from '../../lib/lesson.js';
import { HALF_PATHS, HALF_ULPS } from '../../lib/maths/rope-multimodal.js';
import { defaultInvFreq, hfInvFreqF32 } from '../../model/rope.js';
import { PRECISION_ROTARY_DIM } from '../../model/rope-lesson.js';
import { HALF_DTYPES, bucketMax, halfErrorRows, halfErrorStore, halfWorst } from '../../model/rope-multimodal.js';
import { createSlicedWork } from '../../lib/sliced.js';
import { formatInteger, formatSignificant } from '../../lib/numbers.js';
import { strings } from './format.js';
import { recordComputation } from '../../lib/probe.js';

// the state's fields this section draws from (the lesson draws it later, when out of view, only when one changed)
const SHOWS = ['upto', 'base', 'lang'];

// The two correctly rounded lines lie on each other near half an ulp: float16's is drawn
// wide and solid under bfloat16's narrow dashed one, so both show (their swatches alike).
const ROUNDED_STYLE = { rounded: { float16: { width: 6, dash: '' }, bfloat16: { width: 2, dash: '6 4' } } };
const FLOOR = 0.1; // a log axis has no 0: errors below a tenth of an ulp (or none) are drawn at its bottom
const ROWS = 64; // positions per slice of one format (a few ms)

export function mount(root, ctx) {
  const L = strings(ctx);
  const H = (key, vars) => L(`half.${key}`, vars);
  const r = PRECISION_ROTARY_DIM;
  const controls = createControls(['upto', 'base'], ctx, ctx.lesson);
  const chart = createLineChart({
    xLabel: H('axisPosition'),
    yLabel: H('axisUlps'),
    label: H('label'),
    yLog: true,
    height: 320,
    key: 'half',
    figure: {
      title: () => H('title'),
      caption: (s) => H('caption', { L: s.upto, r, base: s.base }),
      name: (s) => `sinpe_rope_half_precision_r${r}_b${s.base}_L${s.upto}`,
    },
  });
  const summaries = h('div', { class: 'half-summaries' });
  // the base is lesson-wide: say so beside each chart it redraws
  const baseNote = h('p', { class: 'note base-shared' });
  const chartBox = h('div', { class: 'half-chart' }, chart.element);
  root.append(
    section(H('title'), ...paragraphs(H('text')), formula(HALF_PATHS, ctx.t('formulaText')), formula(HALF_ULPS, ctx.t('formulaText')), h('div', { class: 'lesson-controls' }, controls.element, baseNote), chartBox, summaries),
  );

  // per format: the base its errors are for, and positions 0 … done − 1 computed
  const known = Object.fromEntries(HALF_DTYPES.map((dtype) => [dtype, { base: null, done: 0, store: halfErrorStore(0) }]));
  const work = createSlicedWork({ busy: [chartBox, summaries] });

  function draw(s) {
    const inv = defaultInvFreq(r, s.base);
    const invF = hfInvFreqF32(r, s.base);
    const need = s.upto + 1;
    for (const dtype of HALF_DTYPES) {
      const k = known[dtype];
      if (k.base !== s.base) Object.assign(k, { base: s.base, done: 0 });
      if (k.store.usual.length < need) k.store = halfErrorStore(Math.max(need, 2 * k.store.usual.length), k.store, k.done);
    }
    const record = recordComputation('half', { upto: s.upto, base: s.base });
    // one slice: the next ROWS positions of the format furthest behind for this state (both fill in together)
    const step = () => {
      const dtype = HALF_DTYPES.filter((d) => known[d].done < need).sort((a, b) => known[a].done - known[b].done)[0];
      if (!dtype) {
        record.finished = true;
        return true;
      }
      record.slices++;
      record.lastSlice = performance.now();
      const k = known[dtype];
      // never: starting this job dropped the job of any older base
      if (k.base !== s.base) throw new Error('half precision: a slice of an older base');
      const to = Math.min(need, k.done + ROWS);
      const cache = ctx.pe.ropeCacheRows(k.done, to - k.done, r, { base: s.base, dtype });
      halfErrorRows(dtype, k.done, to, inv, invF, cache, k.store);
      k.done = to;
      return false;
    };
    work.start(step, () => show(s, inv, invF), {
      progress: () => show(s, inv, invF, true),
      // a newer L or base (a drag goes on): dropped at its next slice, before that value's render starts its job
      stale: () => ctx.state.upto !== s.upto || ctx.state.base !== s.base,
    });
  }

  // partial: the job for s is under way: the curves as far as computed, on the axes of s (the summaries
  // and the worst case wait for the whole range)
  function show(s, inv, invF, partial = false) {
    // a line needs points: a new base shows once each format has some
    if (partial && HALF_DTYPES.some((dtype) => known[dtype].done === 0)) return;
    const series = [];
    const marks = [{ y: 0.5, label: H('markHalf') }];
    if (!partial) clear(summaries);
    HALF_DTYPES.forEach((dtype, d) => {
      const { store, done } = known[dtype];
      const color = SERIES_COLORS[d];
      const shown = Math.min(s.upto + 1, done);
      for (const path of ['usual', 'rounded']) {
        const points = bucketMax(store[path].subarray(0, shown)).map(([p, v]) => [p, Math.max(FLOOR, v)]);
        series.push({ name: H(`series.${path}${dtype}`), points, color: path === 'usual' ? color : SERIES_COLORS[d + 2], ...ROUNDED_STYLE[path]?.[dtype] });
      }
      if (partial) return;
      const worst = halfWorst(dtype, s.upto, inv, invF, store);
      const w = worst.usual;
      if (dtype === 'float16') marks.push({ x: w.p, label: H('markWorst', { ulps: fmt(w.ulps, 1), p: formatInteger(w.p) }) });
      const text = H('summary', {
        dtype,
        usual: fmt(w.ulps, 1),
        p: formatInteger(w.p),
        j: w.j,
        fn: w.fn,
        value: formatSignificant(w.value, 6),
        exact: fmt(w.exact, 8),
        rounded: fmt(worst.rounded.ulps, 3),
      });
      summaries.append(
        h('p', { class: 'half-summary', 'data-dtype': dtype, 'data-usual': String(w.ulps), 'data-position': w.p, 'data-pair': w.j, 'data-fn': w.fn, 'data-rounded': String(worst.rounded.ulps) }, text),
      );
    });
    const top = Math.max(1, ...series.flatMap((x) => x.points.map(([, v]) => v)));
    chart.draw({ series, xDomain: [0, s.upto], yDomain: [FLOOR, 10 ** Math.ceil(Math.log10(top))], marks, state: { upto: s.upto, base: s.base, ...(partial ? { partial: true } : {}) } });
  }

  return {
    shows: SHOWS,
    update(s, changed) {
      controls.sync(s);
      baseNote.textContent = L('baseShared', { base: s.base });
      if (changed(...SHOWS)) draw(s);
    },
    figures: () => ({ halfChart: chart }),
  };
}
