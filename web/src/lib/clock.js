// Dials: each (sin, cos) pair of a row drawn as a clock hand. The hand of
// pair i points at the angle θ = p·ω_i (counter-clockwise from 3 o'clock),
// so its horizontal reach is cos θ and its vertical reach sin θ. Used for the
// sinusoidal table (the clock picture) and for RoPE's rotated query pairs.
// The hands are drawn from the values the caller passes (the package's),
// and the faint trail shows where the hand was at the previous positions.
import { h, htmlLabel, setAttr, svgEl } from './dom.js';

const R = 30; // dial radius in SVG units
const SIZE = 2 * R + 16;

/**
 * createDials({ label, className }) → { element, draw(dials) }
 * dials: [{ key, title, subtitle, a, b, ghost?: [a, b], trail?: [[a, b], …], colors?: [css a, css b], scale? }]
 * (a, b) is the hand's end point in units of the dial radius (a → right, b → up).
 */
export function createDials({ label, className = '' } = {}) {
  const list = h('ol', { class: `dials ${className}`.trim(), 'aria-label': label });
  const element = h('div', { class: 'dials-wrap' }, list);
  const items = new Map();

  function dialFor(key) {
    if (items.has(key)) return items.get(key);
    const svg = svgEl('svg', { class: 'dial-svg', viewBox: `${-SIZE / 2} ${-SIZE / 2} ${SIZE} ${SIZE}`, width: SIZE, height: SIZE, 'aria-hidden': 'true' });
    svg.append(
      svgEl('circle', { class: 'dial-face', r: R }),
      svgEl('line', { class: 'dial-axis', x1: -R, x2: R, y1: 0, y2: 0 }),
      svgEl('line', { class: 'dial-axis', x1: 0, x2: 0, y1: -R, y2: R }),
    );
    const trail = svgEl('g', { class: 'dial-trail' });
    const ghost = svgEl('line', { class: 'dial-ghost', x1: 0, y1: 0 });
    const projA = svgEl('line', { class: 'dial-proj dial-proj-a' });
    const projB = svgEl('line', { class: 'dial-proj dial-proj-b' });
    const hand = svgEl('line', { class: 'dial-hand', x1: 0, y1: 0 });
    const tip = svgEl('circle', { class: 'dial-tip', r: 3 });
    svg.append(trail, ghost, projA, projB, hand, tip, svgEl('circle', { class: 'dial-hub', r: 2 }));
    const title = h('span', { class: 'dial-title' });
    const subtitle = h('span', { class: 'dial-subtitle' });
    const swatchA = h('span', { class: 'dial-swatch dial-swatch-a' });
    const swatchB = h('span', { class: 'dial-swatch dial-swatch-b' });
    const values = h('span', { class: 'dial-values' });
    const li = h('li', { class: 'dial', 'data-key': key }, svg, title, subtitle, h('span', { class: 'dial-cells' }, swatchA, swatchB), values);
    const item = { li, svg, trail, ghost, projA, projB, hand, tip, title, subtitle, swatchA, swatchB, values };
    items.set(key, item);
    return item;
  }

  /** Draws the dials (in order); dials not in the list are removed. */
  function draw(dials) {
    const keep = new Set(dials.map((d) => String(d.key)));
    for (const [key, item] of items) {
      if (!keep.has(key)) {
        item.li.remove();
        items.delete(key);
      }
    }
    dials.forEach((d, index) => {
      const item = dialFor(String(d.key));
      if (list.children[index] !== item.li) list.insertBefore(item.li, list.children[index] ?? null);
      const scale = d.scale ?? 1;
      const x = R * d.a * scale;
      const y = -R * d.b * scale; // SVG y grows downwards
      for (const [el, attrs] of [
        [item.hand, { x2: x, y2: y }],
        [item.tip, { cx: x, cy: y }],
        [item.projA, { x1: 0, y1: y, x2: x, y2: y }],
        [item.projB, { x1: x, y1: 0, x2: x, y2: y }],
      ])
        for (const [k, v] of Object.entries(attrs)) setAttr(el, k, v);
      setAttr(item.hand, 'data-a', d.a);
      setAttr(item.hand, 'data-b', d.b);
      if (d.ghost) {
        setAttr(item.ghost, 'x2', R * d.ghost[0] * scale);
        setAttr(item.ghost, 'y2', -R * d.ghost[1] * scale);
        setAttr(item.ghost, 'data-a', d.ghost[0]);
        setAttr(item.ghost, 'data-b', d.ghost[1]);
        item.ghost.removeAttribute('visibility');
      } else setAttr(item.ghost, 'visibility', 'hidden');
      // the trail's dots are kept and moved (a step of the position moves each of them)
      const trail = d.trail ?? [];
      while (item.trail.childElementCount > trail.length) item.trail.lastChild.remove();
      while (item.trail.childElementCount < trail.length) item.trail.append(svgEl('circle', { r: 2.2 }));
      trail.forEach(([ta, tb], k) => {
        const dot = item.trail.children[k];
        setAttr(dot, 'cx', R * ta * scale);
        setAttr(dot, 'cy', -R * tb * scale);
        setAttr(dot, 'fill-opacity', ((trail.length - k) / (trail.length + 1)) * 0.7);
      });
      // texts written only when they change (a rewritten text is laid out again)
      const put = (el, prop, value) => el[prop] !== value && (el[prop] = value);
      put(item.title, 'textContent', d.title);
      // a subtitle's subscripts (ω_{k}) as <sub> (lib/subscript.js)
      if (item.subtitle.dataset.label !== (d.subtitle ?? '')) {
        item.subtitle.dataset.label = d.subtitle ?? '';
        item.subtitle.replaceChildren(...htmlLabel(d.subtitle ?? ''));
      }
      put(item.swatchA.style, 'backgroundColor', d.colors?.[0] ?? '');
      put(item.swatchB.style, 'backgroundColor', d.colors?.[1] ?? '');
      put(item.swatchA, 'title', d.cellTitles?.[0] ?? '');
      put(item.swatchB, 'title', d.cellTitles?.[1] ?? '');
      put(item.swatchA, 'hidden', !d.colors);
      put(item.swatchB, 'hidden', !d.colors);
      put(item.values, 'textContent', d.values ?? '');
      setAttr(item.li, 'aria-label', d.description ?? d.title);
      item.li.classList.toggle('highlight', !!d.highlight);
    });
  }

  return { element, draw, get list() { return list; } };
}

/**
 * A row of the table as a coloured strip: one canvas pixel per column,
 * scaled up by CSS. draw(rgba, columns).
 */
export function createStrip({ label, className = '' } = {}) {
  const canvas = h('canvas', { class: 'row-strip-canvas', width: 1, height: 1, role: 'img', 'aria-label': label });
  const element = h('div', { class: `row-strip ${className}`.trim() }, canvas);
  const ctx = canvas.getContext('2d');
  function draw(rgba, columns) {
    if (canvas.width !== columns) canvas.width = columns;
    canvas.height = 1;
    const img = new ImageData(columns, 1);
    img.data.set(rgba.subarray(0, columns * 4));
    ctx.putImageData(img, 0, 0);
  }
  return { element, canvas, draw };
}

/**
 * Which pairs get a dial: all of them up to `max`; otherwise `max` pairs
 * spread from the fastest (0) to the slowest (count − 1).
 */
export function dialPairs(count, max = 16) {
  if (count <= max) return Array.from({ length: count }, (_, i) => i);
  const out = new Set();
  for (let k = 0; k < max; k++) out.add(Math.round((k * (count - 1)) / (max - 1)));
  return [...out];
}
