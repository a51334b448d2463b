// The clock picture of the sinusoidal table (a section of the waves lesson,
// with the lessons' one contract mount(root, ctx) → { update, figures() }): row p of
// the table as a coloured strip, and each (sin, cos) pair of that row as a
// clock hand at angle p·ω_i. Moving the position slider turns every hand at
// its own rate: the first pair by one radian per position, the last ones
// hardly at all. The hands and the strip are drawn from the package's row.
import { h, fmt, paragraphs } from '../../lib/dom.js';
import { colorOf, colormapLUT } from '../../lib/colormap.js';
import { createDials, createStrip, dialPairs } from '../../lib/clock.js';
import { createControls } from '../../lib/controls.js';
import { section, readout } from '../../lib/lesson.js';
import { drawWhenSeen } from '../../lib/offscreen.js';

const TRAIL = 4; // earlier positions shown as fading dots
const DEG = 180 / Math.PI;

/** Mounts the clock section under root (ctx: the lesson's context, whose fields include pos). */
export function mount(root, ctx) {
  const { t, pe } = ctx;
  const C = (key, vars) => t(`clock.${key}`, vars);
  const controls = createControls(['pos'], ctx, ctx.lesson);
  const steps = h(
    'div',
    { class: 'button-row clock-steps' },
    h('button', { type: 'button', class: 'button clock-back', onclick: () => ctx.setState({ pos: Math.max(0, ctx.state.pos - 1) }) }, C('back')),
    h('button', { type: 'button', class: 'button clock-forward', onclick: () => ctx.setState({ pos: ctx.state.pos + 1 }) }, C('forward')),
  );
  const strip = createStrip({ label: C('stripLabel') });
  const stripCaption = h('p', { class: 'clock-strip-caption' });
  const dials = createDials({ label: C('dialsLabel'), className: 'clock-dials' });
  const info = readout('clock-readout');
  const shown = h('p', { class: 'clock-shown note' });
  const element = section(
    C('title'),
    ...paragraphs(C('text')),
    h('div', { class: 'lesson-controls clock-controls' }, controls.element, steps),
    h('div', { class: 'clock-row' }, strip.element, stripCaption),
    dials.element,
    shown,
    info,
  );
  element.classList.add('clock-section');

  let drawn = ''; // the fields the dials and strip were last drawn for
  let titled = { key: '', titles: [] }; // each dial's title and rate, for the d, base and language they were written in

  function update(s) {
    controls.sync(s);
    // out of view (a step of d or base above it), drawn after the frame (lib/offscreen.js)
    drawWhenSeen(element, () => draw(s));
  }

  function draw(s) {
    const key = [s.pos, s.d, s.base, s.cmap, s.lang].join();
    if (key === drawn) return;
    drawn = key;
    const d = s.d;
    const half = Math.floor(d / 2);
    const p = s.pos;
    const omega = pe.frequencies(d, { base: s.base });
    const row = pe.rows(p, 1, d, { base: s.base, layout: 'interleaved' });
    const first = Math.max(0, p - TRAIL);
    const earlier = p > 0 ? pe.rows(first, p - first, d, { base: s.base, layout: 'interleaved' }) : new Float32Array(0);
    strip.draw(pe.heatmap(p, 1, d, { base: s.base, layout: 'interleaved', colormap: colormapLUT(s.cmap) }), d);
    stripCaption.textContent = C('stripCaption', { p, last: d - 1 });
    const pairs = dialPairs(half, 16);
    const titleKey = [d, s.base, s.lang].join();
    if (titled.key !== titleKey) {
      const titles = pairs.map((i) => ({
        title: C('dialTitle', { i, sin: 2 * i, cos: 2 * i + 1 }),
        subtitle: C('dialRate', { omega: fmt(omega[i], 4), wavelength: fmt((2 * Math.PI) / omega[i], 1) }),
      }));
      titled = { key: titleKey, titles };
    }
    dials.draw(
      pairs.map((i, n) => {
        const sin = row[2 * i];
        const cos = row[2 * i + 1];
        const trail = [];
        for (let q = p - 1; q >= first; q--) trail.push([earlier[(q - first) * d + 2 * i + 1], earlier[(q - first) * d + 2 * i]]);
        const angle = p * omega[i];
        return {
          key: i,
          ...titled.titles[n],
          a: cos,
          b: sin,
          trail,
          colors: [colorOf(s.cmap, sin), colorOf(s.cmap, cos)],
          cellTitles: [`sin = ${fmt(sin, 4)}`, `cos = ${fmt(cos, 4)}`],
          values: C('dialValues', { sin: fmt(sin, 3), cos: fmt(cos, 3) }),
          description: C('dialDescription', { i, angle: fmt(angle, 4), sin: fmt(sin, 4), cos: fmt(cos, 4) }),
        };
      }),
    );
    shown.textContent = pairs.length < half ? C('someShown', { shown: pairs.length, half }) : '';
    const turn = (i) => fmt((((p * omega[i]) % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI) * DEG, 1);
    const slow = (((p * omega[half - 1]) % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI) * DEG;
    info.textContent = C('readout', { p, fast: turn(0), slow: slow.toFixed(3), last: half - 1, slowRate: (omega[half - 1] * DEG).toFixed(4) });
  }

  root.append(element);
  return {
    update,
    figures: () => ({ clockDials: dials, clockStrip: strip }),
  };
}
