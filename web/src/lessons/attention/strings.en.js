// English strings of the attention lesson ("why attention needs positions")
// and of the course map it opens the site with (each lesson gives its own
// line of the map, courseMap.outcomes.<id>), merged into the site's table at
// these same key paths (i18n/merge.js).
export default {
  control: {
    enc: 'position information',
    order: 'word order',
    dpos: 'encoding width d',
    span: 'largest distance m',
  },
  enc: { none: 'none', sin: 'sinusoidal PE added to X', rope: 'RoPE on q and k' },
  courseMap: {
    title: 'The course',
    intro: '{count} lessons, in this order. After each one you can:',
    outcomes: {
      attention: 'explain why self-attention alone cannot tell “dog bites man” from “man bites dog”, and what a position encoding changes',
    },
  },
  lessons: {
    attention: {
      nav: '{lesson:attention} · Why attention needs positions',
      title: 'Why attention needs positions',
      intro: [
        'A Transformer has no recurrence and no convolution. Its self-attention compares every token with every other token at once, and nothing in that comparison says which token came first. This lesson runs one small attention head live on a sentence you can edit: first as it is, then with the words shuffled, then with a position encoding added.',
      ],
      quizIntro: 'Answer before you read on; then reveal: the live tables and chart below show why.',
      headTitle: '1 · Self-attention you can read',
      headText: [
        'The word at position $p$ gets a vector $x_p$ of d_model numbers (a toy embedding: seeded random values, the same for a word wherever it stands, as an embedding table gives it). One attention head turns each $x_p$ into a query $q_p = x_p W_q$, a key $k_p = x_p W_k$ and a value $v_p = x_p W_v$, with three seeded matrices $W_q$, $W_k$, $W_v$.',
        'The token at position $p$ scores the token at every position $p\'$ by $q_p \\cdot k_{p\'} / \\sqrt{d}$; a softmax turns each row of scores into weights $\\alpha_{pp\'}$ that add up to 1; the output of token $p$ is the weighted average $\\sum_{p\'} \\alpha_{pp\'} v_{p\'}$. Point at a cell (or focus a table and use the arrow keys) to read it.',
      ],
      seedNote: 'Embeddings: each word’s seeded vector, uniform in [−1, 1]. Weights: mulberry32 seeded with seed·0x9E3779B1 + 1, drawn for $W_q$, $W_k$, $W_v$ in turn, entries uniform in [−2.5/√d, 2.5/√d].',
      x: 'Token embeddings X.',
      scores: 'Scores QKᵀ/√d.',
      weights: 'Attention weights (each row sums to 1).',
      out: 'Output rows (weights · V).',
      wTitle: 'The head’s matrices $W_q$, $W_k$, $W_v$',
      wq: 'W_q.',
      wk: 'W_k.',
      wv: 'W_v.',
      rowAxis: 'token',
      readout: 'Row {row} “{token}”, column {col} “{other}”: score {score}, weight {weight}.',
      xReadout: '“{token}” (row {row}), x[{col}] = {value}.',
      outReadout: 'Output of “{token}” (row {row}), dimension {col}: {value}.',
      shuffleTitle: '2 · Shuffle the words',
      shuffleText: [
        'Now put the same words in another order. Each button is one order; the arrow keys move between them. The tables show the shuffled sentence’s weights and outputs beside the typed sentence’s, with its rows (and columns) put in the new order.',
        'Without position information the two agree up to rounding: the table’s first row shows differences of 0 or about 10⁻¹⁶, the last bits of float64 sums added in another order. Attention is **permutation-equivariant**: shuffling the words only shuffles the rows of the result, and anything that forgets the order, like the mean of the output rows, is the same up to that rounding. For this head “dog bites man” and “man bites dog” are one sentence.',
        'Add the sinusoidal encoding of lesson {lesson:formula} to X (the token at position $p$ gets $x_p + PE(p)$), or rotate $q_p$ and $k_p$ by RoPE’s angles for position $p$ (lesson {lesson:rope}), and the same check fails: the numbers below say by how much.',
      ],
      orderGroup: 'Orders of the words',
      orderButton: 'Order {order}: {sentence}',
      shuffledWeights: 'Weights, shuffled sentence.',
      originalWeights: 'Weights as typed, rows and columns in the new order.',
      shuffledOut: 'Outputs, shuffled sentence.',
      originalOut: 'Outputs as typed, rows in the new order.',
      gapCaption: 'Largest differences between the shuffled sentence and the typed one in the new order, for “{sentence}”.',
      gapEncoding: 'position information',
      gapWeights: 'a weight',
      gapOut: 'an output',
      gapPooled: 'the mean output',
      same: '✓ the same up to rounding (mean output differs by {gap}): without positions the head cannot tell the two orders apart.',
      differs: '✗ the mean output differs by {gap}: with {encoding}, the head sees the order.',
      identity: 'This is the order as typed: choose another order to compare.',
      posTitle: '3 · What attention does with positions',
      posText: [
        'Take the words away and keep only the positions, $m$ apart. With the sinusoidal encoding, the dot product of the encodings of positions $p$ and $p + m$ is $\\sum_i \\cos(\\omega_i m)$, where $\\omega_i$ is the frequency of pair $i$ (lessons {lesson:formula} and {lesson:relative}): it does not depend on $p$, it is largest at $m = 0$ and it falls, with ripples, as $m$ grows.',
        'RoPE gives the same shape to the score of one content vector seen at two positions. Write $R(p)$ for RoPE’s rotation at position $p$ (lesson {lesson:rope}): it turns pair $i$ of a vector by the angle $p\\,\\omega_i$. Then $\\langle R(p) q, R(p+m) q\\rangle$, averaged over random queries $q$, follows $\\sum_i \\cos(\\omega_i m)$ too. For an unrelated random query $q$ and key $k$ the average stays near 0 at every distance $m$. So nearby tokens look alike to attention, far ones less, and this comes from the formula alone.',
      ],
      chartLabel: 'Similarity of positions p and p + m from position information alone',
      distance: 'distance m',
      similarity: 'similarity (1 at m = 0)',
      seriesSin: 'sinusoidal PE(p)·PE(p+m) / (d/2)',
      seriesSame: 'RoPE, same q at p and p + m (mean of 64)',
      seriesUnrelated: 'RoPE, unrelated q and k (mean of 64)',
      chartReadout: 'm = {k}: sinusoidal {sin}; RoPE same content {same}; RoPE unrelated {unrelated}.',
      chartCaption: 'Similarity of positions p and p + m, m = 0–{span}, with position information alone: the sinusoidal encoding’s dot product divided by d/2, and RoPE’s score of 64 seeded random vectors (same vector at both positions, and unrelated pairs), d = {d}, base 10,000.',
    },
  },
  questions: {
    attention: {
      twice: {
        prompt: 'Type a sentence in which one word appears twice, say “dog bites dog”. With no position information, how do the two output rows of “dog” compare?',
        choices: { same: 'they are identical', close: 'close, but not equal', different: 'clearly different' },
        explain: 'Identical: both rows start from the same embedding, so they get the same query, the same scores and the same weights. In your sentence “{sentence}” the two rows of “{word}” {differ}.',
        explainAdded: 'Identical: both rows start from the same embedding, so they get the same query, the same scores and the same weights. Your sentence “{typed}” has no repeated word, so the head was run on it with “{word}” added at the end, “{sentence}”: the two rows of “{word}” {differ}.',
      },
      rowsEqual: 'are equal in every digit',
      rowsDiffer: 'differ by at most {gap}, float64 rounding',
      swap: {
        prompt: 'Swap two words, with no position information. Which output rows change their values?',
        choices: { none: 'none: rows only move with their words', two: 'the rows of the two swapped words', all: 'all of them' },
        explain: 'None: each word’s output row moves with it, unchanged. Swap “{a}” and “{b}” and match the rows up: the outputs {differ}.',
      },
      pooled: {
        prompt: 'Now add the sinusoidal encoding and swap the same two words. Is the mean of the output rows still the same?',
        choices: { yes: 'yes, the mean ignores the order anyway', no: 'no, it changes' },
        explain: 'It changes, by up to {sin} (and {rope} with RoPE), against {none} without position information: the words now sit at different positions and their inputs differ.',
      },
      distance: {
        prompt: 'With position information alone, how does the similarity of positions p and p + m behave as the distance m grows?',
        choices: { constant: 'it stays the same', falls: 'it falls, with ripples', grows: 'it grows' },
        explain: 'It falls: {k0} at m = 0, {k1} at m = 1, {k8} at m = 8 and {kLast} at m = {span} (sinusoidal, d = {d}).',
      },
    },
  },
  summary: {
    attention: [
      'Self-attention without position information treats a sentence as a bag of words: shuffle the tokens and each output row moves with its token, unchanged.',
      'Adding the sinusoidal table to the embeddings, or rotating q and k (RoPE), makes the outputs depend on the order.',
      'From position information alone, nearby positions look more alike than distant ones.',
    ],
  },
};
