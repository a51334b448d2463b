// RoPE section: each pair of a query as a hand on a dial, turned by p·ω_j.
import { h, fmt, paragraphs } from '../../lib/dom.js';
import { createDials } from '../../lib/clock.js';
import { createControls } from '../../lib/controls.js';
import { section, readout } from '../../lib/lesson.js';
import { pairIndices, seededVector } from '../../model/rope.js';
import { DIAL_HEAD_DIM } from '../../model/rope-lesson.js';
import { DEG, wrapAngle, strings } from './format.js';

// the state's fields this section draws from (the lesson draws it later, when out of view, only when one changed)
const SHOWS = ['pos', 'base', 'seed'];

export function mount(root, ctx) {
  const L = strings(ctx);
  const controls = createControls(['pos', 'base'], ctx, ctx.lesson);
  const dials = createDials({ label: L('dialsLabel'), className: 'rope-dials' });
  const info = readout('rope-dial-readout');
  // ±1 steps beside the 0–1000 slider (one slider pixel is several positions)
  const step = (delta) => h('button', { type: 'button', class: 'button pos-step', 'data-step': delta, onclick: () => ctx.setState({ pos: Math.max(0, ctx.state.pos + delta) }) }, delta > 0 ? `+${delta}` : `−${-delta}`);
  const steps = h('div', { class: 'button-row', role: 'group', 'aria-label': L('posStep') }, h('span', { class: 'button-row-label' }, L('posStep')), step(-1), step(1));
  root.append(section(L('dialsTitle'), ...paragraphs(L('dialsText')), h('div', { class: 'lesson-controls' }, controls.element, steps), dials.element, info));

  function draw(s) {
    const { pe } = ctx;
    const r = DIAL_HEAD_DIM;
    const q = Float32Array.from(seededVector(r, s.seed));
    const omega = pe.ropeFrequencies(r, { base: s.base });
    // the hand now and at the four previous positions, rotated by the package
    const steps = [0, 1, 2, 3, 4].map((k) => s.pos - k).filter((p) => p >= 0);
    const x = new Float32Array(steps.length * r);
    steps.forEach((_, i) => x.set(q, i * r));
    pe.applyRope(x, steps, r, { base: s.base, layout: 'half' });
    const list = [];
    for (let j = 0; j < r / 2; j++) {
      const [a, b] = pairIndices(j, r, 'half');
      const turned = s.pos * omega[j];
      // each hand drawn to the rim (a short pair would be a dot); its length is said in words
      const length = Math.hypot(q[a], q[b]);
      list.push({
        key: j,
        title: L('dialTitle', { j, a, b }),
        subtitle: `${L('dialRate', { omega: fmt(omega[j], 4) })} · ${L('dialLength', { length: fmt(length, 3) })}`,
        a: x[a],
        b: x[b],
        ghost: [q[a], q[b]],
        trail: steps.slice(1).map((_, k) => [x[(k + 1) * r + a], x[(k + 1) * r + b]]),
        scale: 1 / length,
        values: L('dialTurned', { radians: fmt(turned, 3), degrees: (wrapAngle(turned) * DEG).toFixed(2) }),
        description: L('dialDescription', { j, radians: fmt(turned, 4), a: fmt(x[a], 4), b: fmt(x[b], 4) }),
      });
    }
    dials.draw(list);
    info.textContent = L('dialReadout', { p: s.pos, fast: (wrapAngle(s.pos * omega[0]) * DEG).toFixed(1), slow: (wrapAngle(s.pos * omega[r / 2 - 1]) * DEG).toFixed(2), last: r / 2 - 1 });
  }

  return {
    shows: SHOWS,
    update(s, changed) {
      controls.sync(s);
      if (changed(...SHOWS)) draw(s);
    },
    figures: () => ({ dials }),
  };
}
