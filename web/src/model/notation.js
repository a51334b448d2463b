// One meaning per letter, for the whole course. SYMBOLS says what each
// letter of the lessons' formulas means (in both languages); each lesson
// lists the ones it uses (its registry entry's `letters`, lessons/index.js),
// and its notation table is drawn from these two (lib/notation.js).
// tests/web/notation.test.mjs checks that every letter a lesson's formulas
// use is listed for that lesson, so a letter cannot take a second meaning in
// some lesson unnoticed.
//
// The rope lesson's multimodal sections (strings lessons.rope.mm, .grid, .half)
// are not covered yet: they use h, w, t, s and m for image sizes, axes,
// starts and the merge size.

export const SYMBOLS = {
  p: { en: 'a position in the sequence (a row of the table), counted from 0', zh: '序列中的位置（表的一行），从 0 开始计' },
  "p'": { en: 'a second position', zh: '另一个位置' },
  pos: { en: 'the position p, as the tutorials’ code names it', zh: '位置 p（教程代码里的名字）' },
  m: { en: 'the offset between two positions: p and p + m are m apart', zh: '两个位置之间的偏移：p 与 p + m 相隔 m' },
  d: { en: 'd_model, the width of a token’s vector (the columns of the table)', zh: 'd_model，词元向量的宽度（表的列数）' },
  D: { en: 'd/2, the number of sin/cos pairs', zh: 'd/2，sin/cos 对的个数' },
  i: { en: 'the index of a sin/cos pair, that is of a frequency: columns 2i and 2i + 1', zh: 'sin/cos 对（即频率）的序号：第 2i 和 2i + 1 列' },
  j: { en: 'the index of a rotated pair in RoPE', zh: 'RoPE 中被旋转的一对维度的序号' },
  c: { en: 'a column of the table', zh: '表的一列' },
  n: { en: 'a bit of a binary counter, counted from the lowest', zh: '二进制计数器的一位，从最低位数起' },
  ω: { en: 'the frequency of a pair, in radians per position', zh: '一对维度的频率，单位是弧度/位置' },
  λ: { en: 'the wavelength 2π/ω of a pair, in positions', zh: '一对维度的波长 2π/ω，单位是位置' },
  θ: { en: 'an angle, p·ω of a pair at position p', zh: '角度，位置 p 上一对维度的 p·ω' },
  φ: { en: 'an angle (in the angle-addition rule)', zh: '角度（和角公式中）' },
  ψ: { en: 'a second angle (in the angle-addition rule)', zh: '另一个角度（和角公式中）' },
  x: { en: 'a token’s input vector (its embedding)', zh: '词元的输入向量（词嵌入）' },
  q: { en: 'a query vector of an attention head', zh: '注意力头的 query 向量' },
  k: { en: 'a key vector of an attention head', zh: '注意力头的 key 向量' },
  v: { en: 'a value vector of an attention head', zh: '注意力头的 value 向量' },
  W: { en: 'a head’s projection matrix: W_q, W_k, W_v', zh: '注意力头的投影矩阵：W_q、W_k、W_v' },
  α: { en: 'an attention weight (a softmax of the scores)', zh: '注意力权重（分数的 softmax）' },
  PE: { en: 'the sinusoidal positional encoding (a row of the table)', zh: '正弦位置编码（表的一行）' },
  R: { en: 'RoPE’s rotation R(p): pair i of a vector turned by p·ω', zh: 'RoPE 的旋转 R(p)：向量的每一对转过 p·ω' },
  M: { en: 'the rotation M(m) that moves a row of the table m positions on', zh: '把表中一行往后移 m 个位置的旋转 M(m)' },
  b: { en: 'the base of the frequencies (base, rope_theta)', zh: '频率的底数（base、rope_theta）' },
  "b'": { en: 'the larger base of dynamic NTK scaling', zh: '动态 NTK 缩放后更大的底数' },
  e: { en: 'Euler’s number, e ≈ 2.718', zh: '自然常数 e ≈ 2.718' },
  r: { en: 'RoPE’s rotary dimension: the rotated dimensions of a head', zh: 'RoPE 的旋转维数：一个头中被旋转的维度' },
  a: { en: 'the first dimension of a rotated pair', zh: '一对被旋转维度中的第一个' },
  s: { en: 'the scaling factor of a longer context', zh: '加长上下文时的缩放因子' },
  L: { en: 'the context length the model was trained on', zh: '模型训练时的上下文长度' },
  N: { en: 'the current sequence length (dynamic NTK)', zh: '当前序列长度（动态 NTK）' },
  β: { en: 'YaRN’s turn counts β_fast, β_slow', zh: 'YaRN 的圈数门槛 β_fast、β_slow' },
  ℓ: { en: 'YaRN’s first ramp pair', zh: 'YaRN 斜坡的第一对' },
  h: { en: 'YaRN’s last ramp pair; h_f: llama3’s high-frequency factor', zh: 'YaRN 斜坡的最后一对；h_f：llama3 的高频因子' },
  l: { en: 'l_f: llama3’s low-frequency factor', zh: 'l_f：llama3 的低频因子' },
  f: { en: 'the f of h_f and l_f: llama3’s frequency factors', zh: 'h_f、l_f 中的 f：llama3 的频率因子' },
};


/** A lesson's notation table (letters: its registry entry's list): [{ symbol, meaning }] in the page's language. */
export function notationOf(letters, lang) {
  return (letters ?? []).map((symbol) => ({ symbol, meaning: SYMBOLS[symbol][lang] ?? SYMBOLS[symbol].en }));
}
