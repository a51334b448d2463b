// The SVG and PNG buttons of every heatmap and chart of a lesson.
import { h } from '../dom.js';
import { download } from '../export.js';
import { figureSVG } from './compose.js';
import { figurePNG } from './png.js';
import { figureSpec, figureName } from './caption.js';

export async function downloadFigurePNG(name, element, spec) {
  const bytes = await figurePNG(element, spec);
  download(name, new Blob([bytes], { type: 'image/png' }));
}

export async function downloadFigureSVG(name, element, spec) {
  download(name, new Blob([await figureSVG(element, spec)], { type: 'image/svg+xml' }));
}

/**
 * The two figure buttons of a chart or heatmap. spec() builds the figure from
 * the live view when clicked; name() is the file name without extension,
 * to which the page's language is added (a figure's words are in it: -en, -zh).
 */
export function figureButtons(app, { element, spec, name, className = '' }) {
  return h(
    'span',
    { class: `figure-buttons ${className}`.trim(), role: 'group', 'aria-label': app.t('figure.group') },
    h('button', { type: 'button', class: 'button export-figure-svg', onclick: () => downloadFigureSVG(`${name()}-${app.state.lang}.svg`, element, spec()) }, app.t('figure.svg')),
    h('button', { type: 'button', class: 'button export-figure-png', onclick: () => downloadFigurePNG(`${name()}-${app.state.lang}.png`, element, spec()) }, app.t('figure.png')),
  );
}

/**
 * The exportable pictures among a lesson's figures() (name → a figure, or a
 * group of them): every heatmap and chart element (the ones that carry a
 * figureSource), each once, in document order.
 */
export function exportableFigures(figures) {
  const found = new Set();
  const walk = (value) => {
    if (!value || typeof value !== 'object') return;
    if (value.element?.figureSource) found.add(value.element);
    else if (Object.getPrototypeOf(value) === Object.prototype) Object.values(value).forEach(walk);
  };
  walk(figures);
  return [...found].sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
}

/**
 * Gives every heatmap and chart of the lesson's figures() under root that
 * has none yet its two figure buttons (inside the <figure>, after the
 * picture). Safe to call after every render: figures made later (e.g. shown
 * on demand) get theirs then.
 */
export function attachFigureExports(root, app, lesson, figures) {
  const elements = exportableFigures(figures).filter((element) => root?.contains(element));
  elements.forEach((element, index) => {
    if (element.querySelector(':scope > .figure-buttons')) return;
    element.append(
      figureButtons(app, {
        element,
        spec: () => figureSpec(element, app, lesson),
        name: () => figureName(element, app, lesson, index),
      }),
    );
  });
}
