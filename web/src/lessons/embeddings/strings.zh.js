// 简体中文 strings of the embeddings lesson, merged into the site's table at
// these same key paths (i18n/merge.js). Lesson text may use $tex$, `code` and **bold**.
export default {
  // what the learner can do after this lesson, on the course map
  courseMap: { outcomes: { embeddings: '像 d2l 和 PyTorch 那样，以正确的形状把位置编码加到词嵌入上' } },
  code: {
    d2l: { table: '形状 (1, max_len, d)', input: 'X 的形状：(batch, seq_len, d)', add: '沿 batch 维广播' },
    addTo: { x: 'x：Float32Array(batch * {n} * {d})，词嵌入，按行存放', add: '原地计算 x += P[:, :{n}, :]，不保存整张表' },
  },
  lessons: {
    embeddings: {
      nav: '{lesson:embeddings} · 与词嵌入相加',
      title: '把位置编码加到词嵌入上',
      intro: ['位置编码不会单独输入模型，而是逐元素加到词嵌入上。修改下面的词元，观察各个张量的形状和相加的结果。'],
      tokenAxis: '词元（位置）',
      xTitle: 'X：词嵌入',
      pTitle: 'P[:, :seq_len]',
      sumTitle: 'X + P',
      dropoutTitle: 'dropout(X + P)',
      xLabel: '词嵌入 X',
      pLabel: '位置编码的第 0 到 seq_len − 1 行',
      sumLabel: '词嵌入与位置编码之和',
      dropoutLabel: '相加后再做 dropout',
      range: '颜色范围 −{vmax} … +{vmax}',
      readout: '词元“{token}”，位置 {position}，第 {column} 列：x = {x}，p = {p}，x + p = {sum}，dropout 后 = {dropped}。',
      tooShort: 'max_len = {len} 比词元个数 {n} 还小：P[:, :seq_len] 只有 {len} 行，PyTorch 会因为无法广播而报错。请调大 max_len。（sinpe 没有预先算好的表，要多少行就生成多少行。）',
      whyTitle: '为什么是相加而不是拼接？',
      why: [
        '相加后宽度仍是 `d_model`，模型其余部分都不用改。位置编码和词嵌入处在同一个空间里，训练会让词嵌入学会与它共存。原始 Transformer 会先把词嵌入乘以 $\\sqrt{d}$（论文 3.4 节）；常见的解释是，这样词的信息不会被位置编码的 ±1 淹没。“词嵌入幅度”滑块就是用来体会这种平衡的。',
      ],
      dropoutSection: '相加之后的 dropout',
      dropoutText: [
        'd2l 的模块最后做 `dropout(X)`：训练时每个值以概率 $p$ 被置零，保留下来的值除以 $1-p$，使期望不变。推理时（`model.eval()`）dropout 不起作用。',
      ],
      editTitle: '编辑词嵌入',
      editText: ['在 X 的任意单元格中输入数值（−4 到 4），输入时 X + P、dropout(X + P) 和读数会随之更新。已编辑的单元格会被标出；清空单元格即恢复为生成的数值。上下方向键在词元之间移动。URL 中最多保存 {limit} 个已编辑的单元格。'],
      editTable: '词嵌入 X：每个词元一行，每一列一个可编辑的单元格',
      cellLabel: '词元“{token}”（位置 {position}）第 {column} 列的 X',
      editReset: '撤销全部编辑',
      editCount: '已编辑 {count} 个单元格，最多 {limit} 个。',
      editInvalid: '“{value}”不是 −4 到 4 之间的数，单元格保持 {kept}。',
      editFull: '最多只能编辑 {limit} 个单元格（它们保存在 URL 中）；请先撤销一个编辑。',
      sameWordText: '相同的词在 X 中得到相同的行，但加上位置编码后，它们的行就不同了，因为位置不同。',
      codeTitle: '代码',
      codeText: ['用 sinpe 时不必存整张表：`addTo` 只生成需要的那几行，原地加上去。'],
    },
  },
  summary: {
    embeddings: [
      '编码加到词嵌入上：X + P[:seq_len]，形状相同。',
      '同一个词在两个位置上，相加之后得到两行不同的向量。',
      '和原始 Transformer 一样，dropout 作用在和上。',
    ],
  },
  questions: {
    embeddings: {
      sameWord: {
        prompt: '同一个词出现在两个不同位置：它在 X + P 中的两行相等吗？',
        choices: { equal: '相等，同一个词，同一行', differ: '不相等' },
        explain: '位置 {a} 和 {b} 上的“{word}”在 X 中的词嵌入行相同，但 P 的第 {a}、{b} 行最多相差 {difference}，所以两者之和不同：模型能区分这两个词。',
        explainNoRepeat: '这些词元中没有重复的词；设想“{word}”出现在位置 {a} 和 {b}。它的词嵌入行相同，但 P 的第 {a}、{b} 行最多相差 {difference}，所以两者之和不同。',
      },
      dropout: {
        prompt: '训练时 dropout 把比例为 p 的值置零。被保留下来的值 v 会变成什么？',
        choices: { same: '仍然是 v', scaledUp: '变成 v / (1 − p)', scaledDown: '变成 v · (1 − p)' },
        explain: 'PyTorch 的 dropout 把保留的值除以 $1 - p$（这里 p = {p}，系数 {scale}），使每一项的期望不变；在评估模式下既不丢弃也不缩放。',
      },
    },
  },
};
