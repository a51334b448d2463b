// The caption and the file name of a figure, from what the figure shows.
import { FIELDS, formatField } from '../../model/fields.js';
import { rowRangeName } from './names.js';

// ---- every heatmap and chart of a lesson ----

// The fields named in file names, when the lesson has them.
const NAME_FIELDS = ['d', 'layout', 'preset', 'cmap'];

/**
 * "name = value" for each of the lesson's fields the figure was drawn from (enum values by their
 * label): those its figure info names (fields), else all of the lesson's.
 */
function parameterText(app, lesson, state, fields = lesson.controls) {
  return fields
    .filter((key) => lesson.controls.includes(key))
    .filter((key) => FIELDS[key] && FIELDS[key].control !== 'none' && key in state)
    .map((key) => {
      const value = state[key];
      const shown = FIELDS[key].type === 'enum' ? app.t(`${key}.${value}`, null, String(value)) : formatField(key, value);
      return `${app.t(`control.${key}`)} = ${shown}`;
    })
    .join(app.t('figure.listJoin'));
}

/**
 * The state a figure was drawn from (the lesson passes it with each draw);
 * the page's state only for a figure drawn without one.
 */
export function drawnState(element, app) {
  return element.figureSource.state?.() ?? app.state;
}

/**
 * The figure of a heatmap or chart element as it is drawn now: its plot, its
 * colour bar (heatmaps), its title, and a caption naming what it shows (row
 * range, columns, the parameters of the state it was drawn from, the colour
 * scale), unless the lesson gave its own caption.
 */
export function figureSpec(element, app, lesson) {
  const source = element.figureSource;
  const state = drawnState(element, app);
  const plot = source.plot();
  const minus = (v) => String(v).replace('-', '−');
  // sentences, each closed by the language's full stop
  const sentences = [source.label.replace(/[.。]$/, '')];
  let colorbar = null;
  if (plot.kind === 'heatmap') {
    const scale = source.scale() ?? { cmap: state.cmap ?? 'rdbu', vmin: -1, vmax: 1, label: app.t('axis.value') };
    colorbar = scale;
    sentences.push(
      app.t('figure.cells', { label: plot.yLabel, first: plot.y0, last: plot.y0 + plot.rows - 1, firstColumn: plot.x0, lastColumn: plot.x0 + plot.columns - 1 }),
      app.t('figure.colour', { label: scale.label, vmin: minus(scale.vmin), vmax: minus(scale.vmax), cmap: app.t(`cmap.${scale.cmap}`, null, scale.cmap) }),
    );
  } else {
    sentences.push(app.t('figure.series', { names: plot.series.map((s) => s.name).join(app.t('figure.listJoin')) }));
  }
  sentences.push(parameterText(app, lesson, state, source.info?.fields));
  const stop = app.t('figure.stop');
  const own = source.info?.caption?.(state);
  // a lesson's own caption is closed by the full stop too, before the sentence that follows it
  const caption = own !== undefined && own !== null ? (/[.。]$/.test(own) ? own : own + stop) : sentences.map((s) => s + stop).join(app.t('figure.space'));
  const title = source.info?.title?.(state) ?? source.label.replace(/[.。]$/, '');
  return { title, caption: `${caption}${app.t('figure.space')}${app.t('figure.made', { version: app.pe?.version ?? '' })}`, plot, colorbar };
}

/**
 * The file name (without extension) of a figure: lesson, the figure's key
 * (its name in the lesson), the key parameters of the state it was drawn
 * from, the row range.
 */
export function figureName(element, app, lesson, index) {
  const source = element.figureSource;
  const state = drawnState(element, app);
  if (source.info?.name) return source.info.name(state);
  const plot = source.plot();
  const figureKey = source.key ?? `${plot.kind === 'heatmap' ? 'heatmap' : 'chart'}${index + 1}`;
  const parts = ['sinpe', lesson.id, figureKey];
  for (const key of NAME_FIELDS) {
    if (!lesson.controls.includes(key) || !(key in state)) continue;
    const value = key === 'd' ? `d${state.d}` : String(state[key]);
    if (value !== figureKey) parts.push(value);
  }
  if (plot.kind === 'heatmap') parts.push(rowRangeName(plot.y0, plot.rows));
  return parts.join('_');
}

