// English strings of the binary lesson, merged into the site's table at
// these same key paths (i18n/merge.js). Lesson text may use $tex$, `code` and **bold**.
export default {
  // what the learner can do after this lesson, on the course map
  courseMap: { outcomes: { binary: 'relate the columns to the bits of a binary counter, and say where the analogy stops' } },
  lessons: {
    binary: {
      nav: '{lesson:binary} · Binary counting',
      title: 'The binary counting analogy',
      intro: ['Write the positions 0, 1, 2, … in binary. The lowest bit flips at every step, the next every 2 steps, the next every 4. The encoding does something similar with waves.'],
      bitsTitle: 'Binary digits',
      peTitle: 'Positional encoding',
      bitAxis: 'bit (most significant on the left)',
      bitsLabel: 'Binary digits of each position: 1 drawn as +1, 0 as −1',
      peLabel: 'Positional encoding of the same positions',
      readoutPosition: 'Position {position} = {binary} in binary.',
      readoutBit: 'Bit {bit} is {value}; it flips every {period} position(s).',
      readoutColumn: 'Column {column} ({kind}, i = {i}) = {value}; its wavelength is {wavelength} positions.',
      explain: 'Read the bits from the right and the encoding from the left: both go from fast to slow. Bit $n$ has period $2^{n+1}$, so the periods double from bit to bit. The encoding’s wavelengths $2\\pi\\cdot\\text{base}^{2i/d}$ also grow geometrically, but by the factor $\\text{base}^{2/d}$ ({ratio} for d = {d}, base {baseValue}) instead of 2.',
      chartTitle: 'Square waves and sine waves',
      chartWindow: 'The chart shows positions 0 … {last} of the {count}; the dots are the integer positions, the table’s rows.',
      chartText: ['Bits {b0} and {b1} as square waves (1 ↦ +1, 0 ↦ −1, periods {p0} and {p1}) beside columns {c0} and {c1} of the encoding, the sines of $i = {i0}$ and $i = {i1}$ (wavelengths {w0} and {w1} positions for d = {d}, base {base}).'],
      chartLabel: 'Bits 0 and 1 as square waves beside encoding columns 0 and 2',
      bitSeries: 'bit {bit}',
      colSeries: 'PE column {column}',
      diffTitle: 'Where the analogy stops',
      diff: [
        'Bits jump between two values; the encoding moves smoothly through every value between −1 and +1, so nearby positions get nearby vectors. Bits need more digits as numbers grow; the encoding has a fixed width $d$ for every position. And because every frequency comes as a sine–cosine pair, a shift by $m$ positions is a rotation (lesson {lesson:relative}), which a binary code does not offer.',
      ],
      tableSummary: 'Positions, binary digits and the first encoding values as a table',
      binary: 'binary',
    },
  },
  summary: {
    binary: [
      'Binary counting also has fast and slow digits: bit n has period 2^(n+1).',
      'The encoding’s wavelengths grow by base^(2/d) per pair instead of 2, and its values move smoothly.',
      'Smooth values are what a model can interpolate between; bits jump.',
    ],
  },
  questions: {
    binary: {
      fastest: {
        prompt: 'Bit 0 flips at every position, the fastest bit. Which columns of the encoding change fastest?',
        choices: { first: 'columns 0 and 1', last: 'the last column', middle: 'the middle columns' },
        explain: 'Columns 0 and 1 ($i = 0$) have the shortest wavelength, {wavelength} positions, like the lowest bit; the slowest columns (up to {last}) have wavelengths of about {slow} positions.',
      },
      smooth: {
        prompt: 'Between positions 0 and 1 a bit can only jump. What does column 0 of the encoding do between them?',
        choices: { jumps: 'it jumps too', smooth: 'it moves smoothly through the values in between' },
        explain: 'The encoding is defined for any position, not only whole ones: at position 0.5 the package gives column 0 = {value}, which is $\\sin 0.5$ = {expected}. Bits have nothing in between.',
      },
    },
  },
};
