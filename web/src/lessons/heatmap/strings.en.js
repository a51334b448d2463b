// English strings of the heatmap lesson, merged into the site's table at
// these same key paths (i18n/merge.js). Lesson text may use $tex$, `code` and **bold**.
export default {
  // what the learner can do after this lesson, on the course map
  courseMap: { outcomes: { heatmap: 'read a position-encoding heatmap and tell the interleaved, concatenated and cos-first layouts apart' } },
  lessons: {
    heatmap: {
      nav: '{lesson:heatmap} · Reading the heatmap',
      title: 'Reading the heatmap',
      intro: [
        'Each row of the heatmap is one position, each column one dimension of its encoding. Colour shows the value, from −1 to +1. Move the pointer over the picture, or focus it and use the arrow keys, to read a cell.',
      ],
      figureLabel: 'Heatmap of the positional encoding',
      zoomIn: 'Zoom in (fewer rows)',
      zoomOut: 'Zoom out (more rows)',
      jump: 'Jump to position',
      hoverHint: 'Point at a cell (or focus the heatmap and use the arrow keys) to read its value.',
      summary: '{rows} positions ({first} to {last}) × {d} dimensions, {layout} layout.',
      beyond: 'The rows start at position {start}. A PyTorch module would have to precompute a table this long; sinpe makes just these rows on demand (any position up to {max}). Move through the positions with PageUp/PageDown or the arrow keys on the heatmap, the start position or the jump buttons; Ctrl + wheel (⌘ + wheel, or a pinch) over the heatmap zooms.',
      row0Title: 'Row 0',
      row0: [
        'At position 0 every angle is 0, so every sin column is $\\sin 0 = 0$ (the middle colour of the bar) and every cos column is $\\cos 0 = 1$ (the far end of the bar).',
      ],
      row0Layout: {
        interleaved: 'In the interleaved layout shown now, row 0 therefore alternates: neutral, saturated, neutral, saturated, …',
        concat: 'In the concatenated layout shown now, row 0 is therefore half neutral (the sin half on the left) and half saturated (the cos half on the right).',
        'cos-first': 'In the cos-first layout shown now, row 0 is therefore half saturated (the cos half on the left) and half neutral (the sin half on the right).',
      },
      flatTitle: 'Why the right-hand columns are flat',
      flat: [
        'Column pair $i$ turns at the frequency $\\omega_i = 1/\\text{base}^{2i/d}$. The first pair turns once every $2\\pi \\approx 6.3$ positions and makes dense stripes; the last pairs have wavelengths close to $\\text{base} \\cdot 2\\pi$ (about 63,000 positions for base 10,000). Over a few hundred rows their angle barely moves, so their sin stays near 0 and their cos near 1. That takes a large base: with base 2, say, even the slowest wavelength is under $2 \\cdot 2\\pi \\approx 12.6$ positions and no column is flat (try it with the base control).',
        'Jump to position 100,000 or 10,000,000: the slow columns now show other colours, because over so many positions even a slow angle has grown, but down the rows on screen they still barely change (vertical bands). Along the rows they change only over tens of thousands of positions.',
      ],
      flatLayout: {
        interleaved: 'In the interleaved layout shown now, these slow columns are the whole right side of the picture, alternating neutral (sin) and saturated (cos).',
        concat: 'In the concatenated layout shown now, they are the right end of each half: the neutral colour in the middle of the picture (sin) and the saturated colour at the far right (cos).',
        'cos-first': 'In the cos-first layout shown now, they are the right end of each half: the saturated colour in the middle of the picture (cos) and the neutral colour at the far right (sin).',
      },
      layoutTitle: 'Three layouts, same numbers',
      layouts: [
        '**Interleaved** (the paper, PyTorch tutorial, d2l): column $2i$ is sin, column $2i+1$ is cos of the same angle.',
        '**Concatenated** (TensorFlow tutorial, tensor2tensor, fairseq, Whisper): the sin half first, then the cos half, with the same frequencies. This is the picture with a sharp vertical boundary in the middle.',
        '**Cos first** (guided-diffusion, diffusers with `flip_sin_to_cos`): the two halves swapped. The set of values is the same in all three; only the column order differs, which the model does not care about as long as training and inference agree.',
      ],
    },
  },
  summary: {
    heatmap: [
      'Rows are positions, columns dimensions: the left columns change fast, the right ones barely at all.',
      'Row 0 is sin 0 = 0 and cos 0 = 1 in every pair, whatever the layout.',
      'Interleaved, concatenated and cos-first hold the same numbers in a different column order.',
    ],
  },
  questions: {
    heatmap: {
      cosRow0: {
        prompt: 'What colour is row 0 in the cos columns?',
        choices: { plusOne: 'the colour at the +1 end of the bar', zero: 'the middle colour (0)', minusOne: 'the colour at the −1 end of the bar' },
        explain: '$\\cos 0 = 1$, so every cos cell of row 0 has the +1 colour. In the {layout} layout the first of them is column {column}; the readout gives its value, {value}.',
      },
      repeat: {
        prompt: 'Down the sine column of the fastest frequency ($i = 0$), after about how many rows does the pattern repeat?',
        choices: { six: 'about 6 (2π)', hundred: 'about 100', huge: 'about 63,000 (2π · 10,000)' },
        explain: 'That column (column {column}) turns at ω = {omega} rad per position, so it repeats every $2\\pi/\\omega$ = {wavelength} positions. Rows 0, 6 and 7 read {v0}, {v6} and {v7}: row 6 is just short of a full turn, row 7 just past it.',
      },
    },
  },
};
