// A horizontal colour bar: the colormap's 256 entries on a canvas, a d3 axis
// under it. The figure export draws its colour bar with the same two pieces
// (colorStrip, colorbarAxis), so the file's bar is the page's bar.
import { axisBottom } from 'd3-axis';
import { scaleLinear } from 'd3-scale';
import { select } from 'd3-selection';
import { h, svgEl } from './dom.js';
import { colormapLUT } from './colormap.js';
import { htmlLabel } from './subscript.js';

/** Paints the colormap's 256 entries, vmin at the left, on a 256 × 1 canvas (made if not given). */
export function colorStrip(cmap, canvas = h('canvas', { width: 256, height: 1 })) {
  const img = new ImageData(256, 1);
  img.data.set(colormapLUT(cmap));
  canvas.getContext('2d').putImageData(img, 0, 0);
  return canvas;
}

/** Draws the bar's axis ([vmin, vmax] over `width` px, 5 ticks) into the SVG group g. */
export function colorbarAxis(g, domain, width) {
  select(g).call(axisBottom(scaleLinear().domain(domain).range([0, width])).ticks(5).tickSizeOuter(0));
  return g;
}

/** A horizontal colour bar for [vmin, vmax] with a d3 axis. */
export function createColorBar({ label, vmin = -1, vmax = 1 }) {
  const canvas = h('canvas', { class: 'colorbar-canvas', width: 256, height: 1 });
  const svg = svgEl('svg', { class: 'colorbar-axis', height: 22, 'aria-hidden': 'true' });
  const caption = h('span', { class: 'colorbar-label' }, htmlLabel(label));
  const element = h('div', { class: 'colorbar' }, caption, h('div', { class: 'colorbar-body' }, canvas, svg));
  let domain = [vmin, vmax];
  let cmap = 'rdbu';
  let width = 0; // the bar's width, from the ResizeObserver (no layout forced by a draw)
  let drawn = '';
  let painted = '';
  function layout() {
    const w = width;
    if (!w) return;
    const key = `${w} ${domain}`;
    if (key === drawn) return;
    drawn = key;
    svg.setAttribute('width', w + 20);
    let g = svg.querySelector('g');
    if (!g) svg.append((g = svgEl('g', { class: 'axis' })));
    g.setAttribute('transform', 'translate(10,0)');
    colorbarAxis(g, domain, w);
  }
  function draw(name, min = domain[0], max = domain[1]) {
    domain = [min, max];
    cmap = name;
    if (painted !== cmap) {
      colorStrip(cmap, canvas);
      painted = cmap;
    }
    layout();
  }
  new ResizeObserver(() => {
    width = canvas.getBoundingClientRect().width;
    layout();
  }).observe(element);
  return { element, draw };
}
