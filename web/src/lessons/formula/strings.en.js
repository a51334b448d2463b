// English strings of the formula lesson, merged into the site's table at
// these same key paths (i18n/merge.js). Lesson text may use $tex$, `code` and **bold**.
export default {
  // what the learner can do after this lesson, on the course map
  courseMap: { outcomes: { formula: 'compute any entry of the sinusoidal table by hand: frequency, angle, sin or cos' } },
  code: {
    formula: {
      even: 'one sin and one cos per frequency',
      pos: 'shape (max_len, 1)',
      twoI: '2i = 0, 2, 4, …',
      omega: '1 / base^(2i/d)',
      sin: 'even columns',
      cos: 'odd columns, same ω',
    },
    perColumn: {
      pos: 'shape (max_len, 1)',
      column: 'column index, shape (1, d_model)',
      rates: 'columns 2i and 2i+1 share a rate',
      sin: 'even columns: sine',
      cos: 'odd columns: cosine',
    },
  },
  lessons: {
    formula: {
      nav: '{lesson:formula} · The formula',
      title: 'The formula, step by step',
      intro: [
        'A Transformer sees its input tokens all at once, so by itself it cannot tell the first word from the fifth. The sinusoidal positional encoding gives every position a fixed vector of sines and cosines that is added to the token embedding. Nothing is learned: the whole table follows from one formula.',
      ],
      symbols: [
        '$pos$ is the position (the row), $d$ is `d_model` (the width of a row), and $i = 0, 1, \\dots, d/2-1$ numbers the frequencies. Column $2i$ holds a sine and column $2i+1$ the cosine of the same angle. The result is a matrix of shape (`max_len`, `d_model`): one row per position.',
      ],
      examples: 'Examples from the original tutorials:',
      example3x4: '3 positions, d = 4',
      example8x16: '8 positions, d = 16',
      step1: 'Step 1 · the position column',
      step1Text: ['Positions $0, 1, \\dots, \\text{max\\_len}-1$ as a column of shape (max_len, 1), like `torch.arange(max_len).unsqueeze(1)`. Broadcasting this column against a row of frequencies gives every (position, frequency) pair.'],
      step2: 'Step 2 · the index row, 2i/d and the frequencies',
      step2Text: ['For each pair index $i$ the exponent $2i/d$ runs from 0 towards 1. Raising the base to it gives the divisor $\\text{base}^{2i/d}$, and its inverse is the angular frequency $\\omega_i$. The frequencies fall geometrically: each is $\\text{base}^{-2/d}$ times the previous one.'],
      step3: 'Step 3 · the angle matrix',
      step3Text: ['Multiply each position by each frequency: $\\theta_{pos,i} = pos \\cdot \\omega_i$, a matrix of shape (max_len, d/2). Column $i = 0$ grows by one radian per position; each later column grows more slowly, down to {omega} rad per position for the last one, $i = {last}$.'],
      step4: 'Step 4 · sin into even columns, cos into odd columns',
      step4Text: ['Take the sine of every angle for the even columns and the cosine of the same angle for the odd columns. The cell colours use the colormap of the heatmap lessons (−1 to +1). Point at or focus any cell, here or in the tables above, to see how it is computed.'],
      posCaption: 'pos, shape ({len}, 1).',
      indexCaption: 'frequency index, {half} pairs.',
      angleCaption: 'angles θ = pos · ω_i, shape ({len}, {half}).',
      peCaption: 'PE, shape ({len}, {d}).',
      hoverHint: 'Point at a cell, or tab into a table and use the arrow keys.',
      readoutPos: 'Row {position}: every cell of this row uses position {position}.',
      readoutIndex: 'i = {i}: 2i = {twoI}, 2i/d = {twoI}/{d} = {ratio}, frequency ω = {frequency}, wavelength 2π/ω = {wavelength} positions.',
      readoutAngle: 'Position {position}, i = {i}: 2i/d = {twoI}/{d} = {ratio}, ω = {frequency}, angle θ = {position} × ω = {angle} rad.',
      readoutValue: 'Position {position}, column {column} = {kind} (i = {i}): ω = {frequency}, angle = {angle} rad, value = {value}.',
      heatmapTitle: 'The same matrix as a picture',
      heatmapText: ['Colour each cell instead of printing it and you get the heatmap of the next lesson. Row 0 alternates between the middle colour (sin 0 = 0) and the end colour (cos 0 = 1).'],
      heatmapLabel: 'The table above as a heatmap',
      codeTitle: 'The same in PyTorch',
      codeText: ['Computed in float64 and rounded once to float32, this gives exactly the numbers above (sinpe computes them the same way).'],
      evenTitle: 'Why d_model must be even',
      even: [
        'Every frequency fills two columns, a sine and a cosine of the same angle, so a row is $d/2$ pairs and d_model must be even. That is why the tutorial checks it first: `if d_model % 2 != 0: raise ValueError(...)`. Type an odd d_model above and the package refuses it with that rule; lesson {lesson:variants} shows the libraries that accept an odd width anyway (by padding a zero column, or ending with a lone sine).',
      ],
      readingTitle: 'Column j, pair i: reading the tutorials right',
      reading: [
        '$i$ counts pairs, not columns. For d_model = 512 there are 256 frequencies, $i$ runs over 0 … 255, and the column index $2i$ or $2i+1$ runs over 0 … 511. (One tutorial says that $i$ ranges over 0 … 511: that is the column index, not $i$.)',
        'Written per column $c$ instead of per pair, the rate is $1/10000^{2\\lfloor c/2\\rfloor/d}$: the NumPy tutorial’s `angle_rates = 1 / np.power(10000, 2 * (i // 2) / d_model)` with its `i` the column index, so `i // 2` gives columns $2i$ and $2i+1$ the same rate.',
      ],
      perColumnTitle: 'The same per column, NumPy style',
    },
  },
  summary: {
    formula: [
      '$PE[pos, 2i] = \\sin(pos\\cdot\\omega_i)$ and $PE[pos, 2i+1] = \\cos(pos\\cdot\\omega_i)$, with $\\omega_i = \\text{base}^{-2i/d}$.',
      'Frequency i is shared by the two columns of a pair; the frequencies fall geometrically from 1 to almost 1/base.',
      'The whole table follows from the formula: nothing is learned, and d_model must be even for it.',
    ],
  },
  questions: {
    formula: {
      row0cos: {
        prompt: 'Row 0 is position 0. What value sits in every cos column (1, 3, 5, …) of that row?',
        choices: { zero: '0', one: '1', minusOne: '−1', varies: 'it differs from column to column' },
        explain: 'Every angle of row 0 is $0 \\cdot \\omega_i = 0$, and $\\cos 0 = 1$ whatever the frequency: the cos columns of row 0 read {values}. (The sin columns are all $\\sin 0 = 0$.)',
      },
      slowest: {
        prompt: 'Going down the rows, which columns change most slowly?',
        choices: { first: 'columns 0 and 1', last: 'the last two columns', same: 'they all change equally fast' },
        explain: 'The last pair, $i = {last}$ (columns {c0} and {c1}), turns at only {omega} rad per position; columns 0 and 1 turn at {fast} rad per position. The cursor marks the last cell of the last column.',
      },
    },
  },
};
