// Data exports of the current view: CSV and NumPy .npy (float32, C order).
// Figures (SVG, PNG) are exported by lib/figure/.

/** CSV text of a row-major matrix with a header row and a first column of row labels. */
export function toCSV(values, rows, columns, { header, rowLabels, rowName = 'position' } = {}) {
  const lines = [[rowName, ...(header ?? Array.from({ length: columns }, (_, j) => `dim${j}`))].join(',')];
  for (let r = 0; r < rows; r++) {
    const cells = [rowLabels ? rowLabels[r] : r];
    for (let c = 0; c < columns; c++) cells.push(String(values[r * columns + c]));
    lines.push(cells.join(','));
  }
  return lines.join('\n') + '\n';
}

/** The bytes of a .npy file (format version 1.0) holding a float32 array of the given shape. */
export function toNpy(values, shape) {
  const data = values instanceof Float32Array ? values : Float32Array.from(values);
  const dict = `{'descr': '<f4', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  // magic(6) + version(2) + header length(2) + header, padded with spaces to a multiple of 64, ending in \n
  const unpadded = 10 + dict.length + 1;
  const header = dict + ' '.repeat((64 - (unpadded % 64)) % 64) + '\n';
  const bytes = new Uint8Array(10 + header.length + data.byteLength);
  bytes.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]);
  new DataView(bytes.buffer).setUint16(8, header.length, true);
  for (let i = 0; i < header.length; i++) bytes[10 + i] = header.charCodeAt(i);
  const body = new DataView(bytes.buffer, 10 + header.length);
  for (let i = 0; i < data.length; i++) body.setFloat32(4 * i, data[i], true);
  return bytes;
}

export function download(name, blob) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

export function downloadCSV(name, text) {
  download(name, new Blob([text], { type: 'text/csv' }));
}

export function downloadNpy(name, values, shape) {
  download(name, new Blob([toNpy(values, shape)], { type: 'application/octet-stream' }));
}
