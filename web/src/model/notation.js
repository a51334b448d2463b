// One meaning per letter, for the whole course. SYMBOLS says what each
// letter of the lessons' formulas means (in both languages); each lesson
// lists the ones it uses (its registry entry's `letters`, lessons/index.js),
// and its notation table is drawn from these two (lib/notation.js).
// tests/web/notation.test.mjs checks that every letter a lesson's text and
// displayed formulas (lib/maths) use is listed for that lesson, so a letter
// cannot take a second meaning in some lesson unnoticed. Names that are not
// letters of the notation are set upright (\mathrm{t}, the axis t) and are
// not checked: the axes t, h, w and descriptive subscripts such as E_min.

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
  W: { en: 'a head’s projection matrix: $W_q$, $W_k$, $W_v$', zh: '注意力头的投影矩阵：$W_q$、$W_k$、$W_v$' },
  α: { en: 'an attention weight (a softmax of the scores)', zh: '注意力权重（分数的 softmax）' },
  PE: { en: 'the sinusoidal positional encoding (a row of the table)', zh: '正弦位置编码（表的一行）' },
  R: { en: 'RoPE’s rotation R(p): pair i of a vector turned by p·ω', zh: 'RoPE 的旋转 R(p)：向量的每一对转过 p·ω' },
  M: { en: 'the rotation M(m) that moves a row of the table m positions on', zh: '把表中一行往后移 m 个位置的旋转 M(m)' },
  b: { en: 'the base of the frequencies (base, rope_theta)', zh: '频率的底数（base、rope_theta）' },
  "b'": { en: 'the larger base of dynamic NTK scaling', zh: '动态 NTK 缩放后更大的底数' },
  e: { en: 'Euler’s number, e ≈ 2.718', zh: '自然常数 e ≈ 2.718' },
  r: { en: 'RoPE’s rotary dimension: the rotated dimensions of a head', zh: 'RoPE 的旋转维数：一个头中被旋转的维度' },
  "x'": { en: 'the vector x after the rotation', zh: '旋转之后的向量 x' },
  a: { en: 'a(j): the axis (t, h or w) whose position turns pair j in M-RoPE', zh: 'a(j)：M-RoPE 中决定第 j 对转角的轴（t、h 或 w）' },
  S: { en: 'mrope_section: how many pairs each axis turns, $S_{\\mathrm{t}}$, $S_{\\mathrm{h}}$, $S_{\\mathrm{w}}$', zh: 'mrope_section：每个轴转动的对数 $S_{\\mathrm{t}}$、$S_{\\mathrm{h}}$、$S_{\\mathrm{w}}$' },
  G: { en: 'an image’s grid of patches (image_grid_thw): $G_{\\mathrm{t}}$ frames of $G_{\\mathrm{h}}$ rows and $G_{\\mathrm{w}}$ columns', zh: '图像的图块网格（image_grid_thw）：$G_{\\mathrm{t}}$ 帧，每帧 $G_{\\mathrm{h}}$ 行、$G_{\\mathrm{w}}$ 列' },
  μ: { en: 'the spatial merge size: μ × μ patches make one token', zh: '空间合并尺寸：μ × μ 个图块合成一个词元' },
  τ: { en: 'an image token’s frame within its image, from 0', zh: '图像词元在其图像中的帧序号，从 0 开始' },
  η: { en: 'an image token’s (or patch’s) row within its image, from 0', zh: '图像词元（或图块）在其图像中的行号，从 0 开始' },
  υ: { en: 'an image token’s (or patch’s) column within its image, from 0', zh: '图像词元（或图块）在其图像中的列号，从 0 开始' },
  z: { en: 'an exact value of cos or sin; ẑ the value a half-precision format holds for it', zh: 'cos 或 sin 的精确值；ẑ 是半精度格式为它存的值' },
  F: { en: 'the fraction bits of a float format (10 for float16, 7 for bfloat16)', zh: '浮点格式的尾数位数（float16 为 10，bfloat16 为 7）' },
  E: { en: '$E_\\text{min}$: the smallest normal exponent of a float format', zh: '$E_\\text{min}$：浮点格式最小的正规数指数' },
  s: { en: 'the scaling factor of a longer context', zh: '加长上下文时的缩放因子' },
  L: { en: 'the context length the model was trained on', zh: '模型训练时的上下文长度' },
  N: { en: 'the current sequence length (dynamic NTK)', zh: '当前序列长度（动态 NTK）' },
  β: { en: 'YaRN’s turn counts $\\beta_\\text{fast}$, $\\beta_\\text{slow}$', zh: 'YaRN 的圈数门槛 $\\beta_\\text{fast}$、$\\beta_\\text{slow}$' },
  ℓ: { en: 'YaRN’s first ramp pair', zh: 'YaRN 斜坡的第一对' },
  γ: { en: 'YaRN’s blend $\\gamma_j$ of pair $j$: 1 keeps $\\omega_j$, 0 divides it by $s$', zh: 'YaRN 对第 $j$ 对的混合系数 $\\gamma_j$：1 保留 $\\omega_j$，0 把它除以 $s$' },
  κ: { en: 'κ(β): the (fractional) pair that turns β times over the context L (YaRN)', zh: 'κ(β)：在上下文 L 内恰好转 β 圈的（可为小数的）对序号（YaRN）' },
  h: { en: 'YaRN’s last ramp pair; $h_f$: llama3’s high-frequency factor', zh: 'YaRN 斜坡的最后一对；$h_f$：llama3 的高频因子' },
  l: { en: '$l_f$: llama3’s low-frequency factor', zh: '$l_f$：llama3 的低频因子' },
  f: { en: 'the $f$ of $h_f$ and $l_f$: llama3’s frequency factors', zh: '$h_f$、$l_f$ 中的 $f$：llama3 的频率因子' },
  g: { en: 'llama3’s blend between $\\omega_j/s$ ($g = 0$) and $\\omega_j$ ($g = 1$)', zh: 'llama3 在 $\\omega_j/s$（$g = 0$）与 $\\omega_j$（$g = 1$）之间的混合系数' },
};


/** A lesson's notation table (letters: its registry entry's list): [{ symbol, meaning }] in the page's language. */
export function notationOf(letters, lang) {
  return (letters ?? []).map((symbol) => ({ symbol, meaning: SYMBOLS[symbol][lang] ?? SYMBOLS[symbol].en }));
}
