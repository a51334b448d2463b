// Lesson 8's pure part: which package call makes a preset's table, as code
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
      source: `pe.grid2d(${height}, ${width}, ${d}${text()})`,
      rows: height * width,
      run: (pe) => pe.grid2d(height, width, d, options),
      heatmap: null,
    };
  }
  return {
    source: `pe.table(${len}, ${d}${text()})`,
    heatmapSource: `pe.heatmap(0, ${len}, ${d}${text({ colormap: true })})`,
    rows: len,
    run: (pe) => pe.table(len, d, options),
    heatmap: (pe, lut) => pe.heatmap(0, len, d, { ...options, colormap: lut }),
  };
}

/**
 * The snippet that reproduces a preset's table with the package API. Every
 * name it uses is defined in it: the colormap LUT is built from a d3
 * interpolator and the canvas context from a canvas element.
 */
export function variantsSnippet(call, d) {
  const imports = [`import sinpe from 'sinpe.wasm';`];
  if (call.heatmap) imports.push(`import { interpolateRdBu } from 'd3-scale-chromatic';`, `import { rgb } from 'd3-color';`);
  const lines = [
    ...imports,
    ``,
    `const pe = await sinpe();`,
    `const table = ${call.source};`,
    `// Float32Array(${call.rows} * ${d}), row-major: row r is table.subarray(r * ${d}, (r + 1) * ${d})`,
  ];
  if (call.heatmap) {
    lines.push(
      ``,
      `// the same view as RGBA pixels for a canvas; colormap is a Uint8Array(1024)`,
      `// lookup table: entry i (RGBA) is the colour of −1 + 2i/255`,
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
