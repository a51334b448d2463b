// English strings of the pitfalls lesson, merged into the site's table at
// these same key paths (i18n/merge.js). Lesson text may use $tex$, `code` and **bold**.
export default {
  // what the learner can do after this lesson, on the course map
  courseMap: { outcomes: { pitfalls: 'find the common bugs (a doubled exponent, float32 angles) and test against a reference with a tolerance' } },
  code: {
    pitfalls: {
      buggy: 'original tutorial notebook (wrong)',
      fixed: 'correct: 2i is already even, use it once; cos shares sin’s ω',
      tolerance: 'True where they agree',
    },
  },
  lessons: {
    pitfalls: {
      nav: '{lesson:pitfalls} · Pitfalls',
      title: 'Pitfalls',
      intro: ['Two ways a positional encoding goes subtly wrong: a typo in the exponent that still produces a plausible-looking table, and float32 arithmetic that loses accuracy as positions grow.'],
      bugTitle: 'A bug in a tutorial notebook',
      bugText: [
        'One of the original tutorial notebooks writes `10000 ** (2 * torch.arange(0, d, 2) / d)`. But `arange(0, d, 2)` already yields $2i$, so the exponent becomes $4i/d$: the frequencies fall twice as fast. Its cosine line uses `arange(1, d, 2)`, so column $2i+1$ gets the exponent $2(2i+1)/d$, a different frequency from its sine partner, and the pairs no longer rotate together.',
      ],
      bugAfter: ['Row 0 is identical in both (every angle is 0), which is why a quick look does not catch the bug. Column 0 is identical too. Everything else differs; the difference grows down the table.', 'The same notebook says that for d_model = 512 “i ranges over 0 … 511”: that is the column index. $i$ counts sin/cos pairs, so there are 256 frequencies, $i = 0 … 255$ (lesson {lesson:formula}).'],
      buggyTitle: 'Tutorial notebook (buggy)',
      correctTitle: 'Correct (sinpe)',
      differenceTitle: 'Difference buggy − correct',
      buggyLabel: 'Heatmap of the buggy table',
      correctLabel: 'Heatmap of the correct table',
      differenceLabel: 'Heatmap of the difference',
      bugReadout: 'Position {position}, column {column}: buggy {buggy} (exponent {buggyExp}), correct {correct} (exponent {correctExp}), difference {difference}.',
      floatTitle: 'float32 angles lose precision',
      floatText: [
        'The usual recipe computes `div_term` and `position * div_term` in float32. A float32 number has 24 significant bits: just below position 65,536 neighbouring float32 values are 1/256 ≈ 0.004 apart, so the angle can be off by half that, and the tiny error of the float32 frequency is multiplied by the position as well. The error of sin and cos therefore grows in proportion to the position. sinpe computes frequencies and angles in float64 and rounds only the final value, so its error stays below 2.5e−7 at every position below $2^{24}$.',
      ],
      errorAxis: 'largest |float32 − exact|',
      errorLabel: 'Largest error of the float32 recipe against position, log-log',
      errorSeries: 'float32 recipe, d = {d}',
      sinpeBound: 'sinpe ≤ 2.5e−7',
      seedTolerance: 'tolerance 1e−3',
      errorSummary: 'For d = {d}, the largest error of the float32 recipe reaches {e4096} below position 4096, {e65536} below 65,536 and {e1m} below 2²⁰.',
      tolTitle: 'A tolerance check, NumPy style',
      tolText: ['Another tutorial notebook compares two tables with `np.abs(a - b) < tolerance`. Here the float32 recipe is checked against sinpe’s exact rows, cell by cell: the +1 end of the colormap means True, the −1 end False. Scroll to large positions, or tighten the tolerance, and watch cells fail.'],
      tolScale: 'check: False ↦ −1, True ↦ +1',
      tolLabel: 'Tolerance check of the float32 recipe against the exact values',
      jump: 'Rows from position',
      tolSummary: 'Rows {first} to {last}, tolerance {tolerance}: {failed} of {total} cells fail; the largest difference is {worst}.',
      tolReadout: 'Position {position}, column {column}: float32 {float32}, exact {exact}, |difference| = {difference} → {verdict}.',
    },
  },
  summary: {
    pitfalls: [
      'A doubled exponent (2·(2i)/d where 2i/d is meant, because arange(0, d, 2) already yields 2i) gives wrong but plausible-looking tables.',
      'Angles p·ω computed in float32 lose accuracy in proportion to the position.',
      'Compare tables with a tolerance that suits float32, not with equality.',
    ],
  },
  questions: {
    pitfalls: {
      findBug: {
        prompt: 'Find the bug. A popular notebook fills its table with the lines below. Which of them is wrong?',
        choices: {
          pos: '`pos = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)`',
          sin: '`pe[:, 0::2] = torch.sin(pos / (10000 ** (2 * torch.arange(0, d_model, 2) / d_model)))`',
          cos: '`pe[:, 1::2] = torch.cos(pos / (10000 ** (2 * torch.arange(1, d_model, 2) / d_model)))`',
          both: 'both the sin line and the cos line',
        },
        explain: '`torch.arange(0, d_model, 2)` is already $2i$ = 0, 2, 4, …; the extra `2 *` doubles the exponent to $4i/d$, so the sin columns turn too slowly. The cos line uses `arange(1, d_model, 2)` = 1, 3, 5, …, an exponent that belongs to no sin column. The difference map shows it from column 1 on: at position 1, column 1 is {buggy1} in the notebook and {correct1} by the formula, column 2 {buggy2} against {correct2}.',
      },
      howMany: {
        prompt: 'The notebook with the bug above also says that for d_model = 512 “i ranges over 0 … 511”. How many different frequencies $\\omega_i$ does the encoding have?',
        choices: { all: 'd, one per column', half: 'd/2, one per sin/cos pair', minusOne: 'd − 1' },
        explain: '$i$ counts sin/cos pairs, not columns: $i = 0 \\dots d/2 - 1$ = {last} for d = {d}, and column $c$ holds frequency $\\lfloor c/2 \\rfloor$. The package returns {count} frequencies for d = {d}. For d = 512, i runs over 0 … 255.',
      },
    },
  },
};
