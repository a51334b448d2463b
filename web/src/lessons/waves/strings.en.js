// English strings of the waves lesson, merged into the site's table at
// these same key paths (i18n/merge.js). Lesson text may use $tex$, `code` and **bold**.
export default {
  // what the learner can do after this lesson, on the course map
  courseMap: { outcomes: { waves: 'say which columns turn fast and which slowly, and why the wavelengths run from 2π to base·2π' } },
  lessons: {
    waves: {
      nav: '{lesson:waves} · Waves and wavelengths',
      title: 'Waves and wavelengths',
      intro: ['Read the table down a column instead of across a row: every column is a sine or cosine wave over the positions. Here are any columns you choose, and the wavelength of every frequency.'],
      try: 'Try:',
      d2l: 'd2l figure: columns 6–9, d = 32',
      sinCols: 'sin columns 0, 2, 4, 6',
      pair: 'one sin/cos pair',
      curvesTitle: 'Columns as curves',
      curvesText: ['Column $2i$ holds the sine and column $2i+1$ the cosine of the same frequency $i$, so the two curves of a pair are a quarter period apart. Moving right in the table always means slower waves.'],
      curvesNow: 'In the plot: {parts}.',
      curvesPair: 'columns {sin} and {cos} are the sine and cosine of $i = {i}$',
      curvesSin: 'column {column} is the sine of $i = {i}$',
      curvesCos: 'column {column} is the cosine of $i = {i}$',
      curvesJoin: '; ',
      curvesOrder: 'The larger $i$, the slower the wave: here $i = {fast}$ is the fastest and $i = {slow}$ the slowest.',
      curvesLabel: 'Chosen columns of the encoding plotted against position',
      colName: 'col {column} ({kind}, i = {i})',
      colValue: 'col {column} = {value}',
      readoutPosition: 'Position {position}: {values}.',
      lengthsTitle: 'A geometric progression of wavelengths',
      lengthsText: [
        'Frequency $i$ repeats every $\\lambda_i$ positions. The wavelengths grow by the same factor at each step, from $2\\pi$ for $i = 0$ up to almost $\\text{base}\\cdot 2\\pi$, so on a log axis they lie on a straight line.',
        'Which factor? Answer the question above first, then read it off the chart.',
      ],
      lengthsLabel: 'Wavelength of each frequency on a logarithmic axis, with max_len marked',
      lengthSeries: 'wavelength λ_i',
      maxLenMark: 'max_len = {len}',
      baseMark: 'base · 2π',
      readoutFrequency: 'i = {i} (columns {sinColumn} and {cosColumn}): ω = {frequency}, wavelength = {wavelength} positions, {cycles} cycles within max_len.',
      never: '{count} of the {half} frequencies (i ≥ {first}, columns {firstColumn} and up) never finish a cycle within max_len = {len}: the first of them covers {firstCycles} of a cycle, the slowest barely move. Each wavelength is {ratio} times the previous one.',
      allCycle: 'Every frequency completes at least one full cycle within max_len = {len}.',
      tableSummary: 'All wavelengths as a table',
      thColumns: 'columns',
      thCycles: 'cycles in max_len',
      whyTitle: 'Why a spread of wavelengths?',
      why: [
        'Short waves tell neighbours apart but repeat quickly; long waves never repeat inside the sequence but change too slowly to separate neighbours. Together, like the hands of a clock, they give every position a distinct pattern while keeping nearby positions similar.',
      ],
    },
  },
  clock: {
    title: 'The clock picture',
    text: [
      'Row $p$ of the table, read as clocks: the sin and cos columns of pair $i$ are the vertical and horizontal reach of a hand at angle $p\\,\\omega_i$. Step the position: the first hand turns one radian (57°) per position, each later one more slowly, and the last ones barely move. The strip is the same row as colours, and the two squares under each dial are that pair’s sin and cos cells.',
    ],
    back: '◀ position − 1',
    forward: 'position + 1 ▶',
    stripLabel: 'The row of the table at this position, as colours',
    stripCaption: 'Row {p}, columns 0 to {last} (interleaved: sin, cos, sin, cos, …).',
    dialsLabel: 'Each sin/cos pair of the row as a clock hand',
    dialTitle: 'i = {i} (cols {sin}, {cos})',
    dialRate: 'ω = {omega}, λ = {wavelength}',
    dialValues: 'sin {sin}, cos {cos}',
    dialDescription: 'Pair {i}: angle {angle} rad, sin {sin}, cos {cos}.',
    someShown: '{shown} of the {half} pairs are drawn, spread from the fastest to the slowest.',
    readout: 'Position {p}: the hand of pair 0 points at {fast}°, the hand of pair {last} at {slow}° (it turns {slowRate}° per position).',
  },
  summary: {
    waves: [
      'Every column is a sine or cosine wave over the positions, with wavelength $\\lambda_i = 2\\pi/\\omega_i$.',
      'Wavelengths grow by the same factor from pair to pair, from 2π to almost base·2π.',
      'Like the hands of a clock, fast and slow pairs together give every position a distinct row.',
    ],
  },
  questions: {
    waves: {
      firstTurn: {
        prompt: 'As the position grows, which sin/cos pair is first to come round a full turn?',
        choices: { first: 'pair 0, the first', last: 'the last pair', together: 'they all turn together' },
        explain: 'Pair 0 turns one radian per position and is back where it started after {fast} positions (set the dials’ position to 6 to see it). The last pair, $i = {last}$, turns at {slow} rad per position and needs {wavelength} positions for one turn.',
      },
      ratio: {
        prompt: 'Each wavelength is a fixed multiple of the one before: $\\lambda_{i+1} / \\lambda_i$ = ?',
        choices: { rootBase: '$\\text{base}^{1/d}$', base2d: '$\\text{base}^{2/d}$', two: '2, as in binary counting' },
        explain: '$\\lambda_i = 2\\pi\\,\\text{base}^{2i/d}$, so the ratio is $\\text{base}^{2/d}$ = {ratio} for d = {d}, base {baseValue}; the chart’s first two frequencies give {measured}. The ratio $10000^{1/d}$ that some notes give ({wrong} here) is the square root of the true one: $i$ counts pairs, and the exponent steps by $2/d$.',
      },
    },
  },
};
