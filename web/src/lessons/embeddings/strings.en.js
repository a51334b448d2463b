// English strings of the embeddings lesson, merged into the site's table at
// these same key paths (i18n/merge.js). Lesson text may use $tex$, `code` and **bold**.
export default {
  // what the learner can do after this lesson, on the course map
  courseMap: { outcomes: { embeddings: 'add the encoding to token embeddings with the right shapes, as d2l and PyTorch do' } },
  code: {
    d2l: { table: 'shape (1, max_len, d)', input: 'X: (batch, seq_len, d)', add: 'broadcast over the batch' },
    addTo: { x: 'x: Float32Array(batch * {n} * {d}), token embeddings, row-major', add: 'x += P[:, :{n}, :] in place, no table kept' },
  },
  lessons: {
    embeddings: {
      nav: '{lesson:embeddings} · Adding PE to embeddings',
      title: 'Adding PE to the embeddings',
      intro: ['The encoding is not fed to the model on its own: it is added element-wise to the token embeddings. Edit the tokens and watch the shapes and the sum.'],
      tokenAxis: 'token (position)',
      xTitle: 'X: token embeddings',
      pTitle: 'P[:, :seq_len]',
      sumTitle: 'X + P',
      dropoutTitle: 'dropout(X + P)',
      xLabel: 'Token embeddings X',
      pLabel: 'Positional encoding rows 0 to seq_len − 1',
      sumLabel: 'Sum of embeddings and positional encoding',
      dropoutLabel: 'The sum after dropout',
      range: 'colour range −{vmax} … +{vmax}',
      readout: 'Token “{token}” at position {position}, column {column}: x = {x}, p = {p}, x + p = {sum}, after dropout = {dropped}.',
      tooShort: 'max_len = {len} is shorter than the {n} tokens: P[:, :seq_len] has only {len} rows, and PyTorch would fail to broadcast. Raise max_len. (sinpe has no table to outgrow: it makes any rows you ask for.)',
      whyTitle: 'Why add rather than concatenate?',
      why: [
        'Adding keeps the width at `d_model`, so nothing else in the model changes. The encoding lives in the same space as the embeddings; training learns embeddings that coexist with it. In the original Transformer the embeddings are multiplied by $\\sqrt{d}$ first (§3.4); a common reading is that this keeps the word signal from being drowned by the ±1 of the encoding. The “embedding size” slider plays with that balance.',
      ],
      dropoutSection: 'Dropout after the sum',
      dropoutText: [
        'd2l’s module ends with `dropout(X)`: during training each value is zeroed with probability $p$ and the survivors are divided by $1-p$, so the expected sum stays the same. At inference (`model.eval()`) dropout does nothing.',
      ],
      editTitle: 'Edit the token embeddings',
      editText: ['Type a value into any cell of X (from −4 to 4) and watch X + P, dropout(X + P) and the readout follow as you type. Edited cells are marked; empty a cell to return it to its generated value. Up and Down move between tokens. Up to {limit} edited cells are kept in the URL.'],
      editTable: 'Token embeddings X, one row per token, one editable cell per column',
      cellLabel: 'X for token “{token}” (position {position}), column {column}',
      editReset: 'Undo all edits',
      editCount: '{count} of at most {limit} cells edited.',
      editInvalid: '“{value}” is not a number from −4 to 4; the cell keeps {kept}.',
      editFull: 'At most {limit} cells can be edited (they are kept in the URL); undo an edit first.',
      sameWordText: 'Identical words get identical rows of X, but after adding the encoding their rows differ, because they sit at different positions.',
      codeTitle: 'The code',
      codeText: ['With sinpe the table does not have to be stored: `addTo` adds exactly the rows it needs, in place.'],
    },
  },
  summary: {
    embeddings: [
      'The encoding is added to the token embeddings: X + P[:seq_len], same shape.',
      'The same word at two positions gets two different rows after the addition.',
      'Dropout is applied to the sum, as in the original Transformer.',
    ],
  },
  questions: {
    embeddings: {
      sameWord: {
        prompt: 'The same word at two different positions: are its two rows of X + P equal?',
        choices: { equal: 'yes, same word, same row', differ: 'no, they differ' },
        explain: '“{word}” at positions {a} and {b} has the same embedding row in X, but rows {a} and {b} of P differ by up to {difference}, so the sums differ: the model can tell the two apart.',
        explainNoRepeat: 'No word repeats in these tokens; think of “{word}” at positions {a} and {b}. Its embedding rows would be equal, but rows {a} and {b} of P differ by up to {difference}, so the sums differ.',
      },
      dropout: {
        prompt: 'Dropout in training zeroes a fraction p of the values. What happens to a value v that is kept?',
        choices: { same: 'it stays v', scaledUp: 'it becomes v / (1 − p)', scaledDown: 'it becomes v · (1 − p)' },
        explain: 'PyTorch’s dropout divides the kept values by $1 - p$ (here p = {p}, factor {scale}), so the expected value of every entry is unchanged; in evaluation mode nothing is dropped or scaled.',
      },
    },
  },
};
