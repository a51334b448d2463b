// The variants lesson's pure part: which package call makes a preset's table, as code
// text and as a function, and the snippet that reproduces the view.

/** The grid a 2-D (MAE) preset uses for `len` cells: as square as possible. */
export function maeGrid(len) {
  const width = Math.max(1, Math.ceil(Math.sqrt(len)));
  const height = Math.max(1, Math.ceil(len / width));
  return { height, width };
}

/**
 * The package call (as source text and as a function) that makes the table of
 * a preset; `layout` ('preset' or absent = the preset's own) overrides its layout.
 */
export function presetCall(preset, len, d, layout = 'preset') {
  const override = layout && layout !== 'preset' ? { layout } : {};
  const options = { preset, ...override };
  // the options as they would be written in code (vaswani is the default preset)
  const shown = preset === 'vaswani' ? override : options;
  const text = (extra = {}) => {
    const all = { ...shown, ...extra };
    const parts = Object.entries(all).map(([k, v]) => (v === true ? k : `${k}: '${v}'`));
    return parts.length ? `, { ${parts.join(', ')} }` : '';
  };
  if (preset === 'mae') {
    const { height, width } = maeGrid(len);
    return {
      options,
      source: `pe.grid2d(${height}, ${width}, ${d}${text()})`,
      rows: height * width,
      run: (pe) => pe.grid2d(height, width, d, options),
      heatmap: null,
    };
  }
  return {
    options,
    source: `pe.table(${len}, ${d}${text()})`,
    heatmapSource: `pe.heatmap(0, ${len}, ${d}${text({ colormap: true })})`,
    rows: len,
    run: (pe) => pe.table(len, d, options),
    heatmap: (pe, lut) => pe.heatmap(0, len, d, { ...options, colormap: lut }),
  };
}

/**
 * Series that are the same numbers, merged: entries [{ name, values }] →
 * [{ names: [...], values }] in first-seen order; two series are the same when
 * they have the same length and agree to 1e-12 (relative) everywhere. Lines
 * drawn over each other would otherwise hide all but the last.
 */
export function mergeEqualSeries(entries) {
  const groups = [];
  for (const { name, values } of entries) {
    const same = groups.find((g) => g.values.length === values.length && g.values.every((v, i) => Math.abs(v - values[i]) <= 1e-12 * Math.abs(values[i])));
    if (same) same.names.push(name);
    else groups.push({ names: [name], values });
  }
  return groups;
}

/**
 * The snippet that reproduces a preset's table with the package API. Every
 * name it uses is defined in it: the colormap LUT is built from a d3
 * interpolator and the canvas context from a canvas element.
 * comment(key, vars) gives the text of its comments 'rows', 'pixels' and 'lut'.
 */
export function variantsSnippet(call, d, comment) {
  const imports = [`import sinpe from 'sinpe.wasm';`];
  if (call.heatmap) imports.push(`import { interpolateRdBu } from 'd3-scale-chromatic';`, `import { rgb } from 'd3-color';`);
  const lines = [
    ...imports,
    ``,
    `const pe = await sinpe();`,
    `const table = ${call.source};`,
    `// ${comment('rows', { rows: call.rows, d })}`,
  ];
  if (call.heatmap) {
    lines.push(
      ``,
      `// ${comment('pixels')}`,
      `// ${comment('lut')}`,
      `const colormap = new Uint8Array(1024);`,
      `for (let i = 0; i < 256; i++) {`,
      `  const { r, g, b } = rgb(interpolateRdBu(1 - i / 255));`,
      `  colormap.set([r, g, b, 255], 4 * i);`,
      `}`,
      `const rgba = ${call.heatmapSource};`,
      `const canvas = document.querySelector('canvas');`,
      `canvas.width = ${d};`,
      `canvas.height = ${call.rows};`,
      `canvas.getContext('2d').putImageData(new ImageData(rgba, ${d}, ${call.rows}), 0, 0);`,
    );
  }
  return lines.join('\n');
}
