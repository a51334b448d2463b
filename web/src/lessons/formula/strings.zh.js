// 简体中文 strings of the formula lesson, merged into the site's table at
// these same key paths (i18n/merge.js). Lesson text may use $tex$, `code` and **bold**.
export default {
  // what the learner can do after this lesson, on the course map
  courseMap: { outcomes: { formula: '手算正弦位置编码表中的任意一项：频率、角度、sin 还是 cos' } },
  code: {
    formula: {
      even: '每个频率一个 sin、一个 cos',
      pos: '形状 (max_len, 1)',
      twoI: '2i = 0, 2, 4, …（偶数）',
      omega: '1 / base^(2i/d)，即频率',
      sin: '偶数列',
      cos: '奇数列，同一个 ω',
    },
    perColumn: {
      pos: '形状 (max_len, 1)',
      column: '列号，形状 (1, d_model)',
      rates: '第 2i 列和第 2i+1 列共用一个频率',
      sin: '偶数列：正弦',
      cos: '奇数列：余弦',
    },
  },
  lessons: {
    formula: {
      nav: '{lesson:formula} · 公式拆解',
      title: '一步一步看懂公式',
      intro: [
        'Transformer 一次看到全部输入词元，本身分不出第一个词和第五个词。正弦位置编码给每个位置一个由正弦、余弦组成的固定向量，加到词嵌入上。它不需要训练：整张表都由一个公式算出来。',
      ],
      symbols: [
        '$pos$ 是位置（行号），$d$ 是 `d_model`（每行的长度），$i = 0, 1, \\dots, d/2-1$ 是频率的编号。第 $2i$ 列放正弦，第 $2i+1$ 列放同一个角度的余弦。结果是形状为 (`max_len`, `d_model`) 的矩阵：一行对应一个位置。',
      ],
      examples: '原教程笔记本中的例子：',
      example3x4: '3 个位置，d = 4',
      example8x16: '8 个位置，d = 16',
      step1: '第 1 步 · 位置列向量',
      step1Text: ['位置 $0, 1, \\dots, \\text{max\\_len}-1$ 排成形状为 (max_len, 1) 的列向量，相当于 `torch.arange(max_len).unsqueeze(1)`。它和一行频率做广播运算，就得到每个（位置, 频率）组合。'],
      step2: '第 2 步 · 维度序号、2i/d 和频率',
      step2Text: ['对每个序号 $i$，指数 $2i/d$ 从 0 逐渐增大、接近 1。底数的这个次方就是分母 $\\text{base}^{2i/d}$，它的倒数就是角频率 $\\omega_i$。频率按等比数列递减：每一个都是前一个的 $\\text{base}^{-2/d}$ 倍。'],
      step3: '第 3 步 · 角度矩阵',
      step3Text: ['每个位置乘以每个频率：$\\theta_{pos,i} = pos \\cdot \\omega_i$，得到形状为 (max_len, d/2) 的矩阵。$i = 0$ 这一列每往下一行增加 1 弧度；越往右的列增长越慢，最后一列（$i = {last}$）降到每行 {omega} 弧度。'],
      step4: '第 4 步 · 偶数列放 sin，奇数列放 cos',
      step4Text: ['对每个角度取正弦填入偶数列，取同一角度的余弦填入奇数列。单元格颜色与热力图课程使用同一套配色（−1 到 +1）。把鼠标移到任意单元格上（或用键盘聚焦），就能看到它是怎么算出来的，上面几张表也一样。'],
      posCaption: 'pos，形状 ({len}, 1)。',
      indexCaption: '频率序号，共 {half} 对。',
      angleCaption: '角度 θ = pos · ω_i，形状 ({len}, {half})。',
      peCaption: 'PE，形状 ({len}, {d})。',
      hoverHint: '把鼠标移到单元格上，或用 Tab 进入表格后用方向键移动。',
      readoutPos: '第 {position} 行：这一行的所有单元格都使用位置 {position}。',
      readoutIndex: 'i = {i}：2i = {twoI}，2i/d = {twoI}/{d} = {ratio}，频率 ω = {frequency}，波长 2π/ω = {wavelength} 个位置。',
      readoutAngle: '位置 {position}，i = {i}：2i/d = {twoI}/{d} = {ratio}，ω = {frequency}，角度 θ = {position} × ω = {angle} 弧度。',
      readoutValue: '位置 {position}，第 {column} 列 = {kind}（i = {i}）：ω = {frequency}，角度 = {angle} 弧度，值 = {value}。',
      heatmapTitle: '把矩阵画成图',
      heatmapText: ['不打印数字、改用颜色表示每个单元格，就得到下一课的热力图。第 0 行在中间色（sin 0 = 0）和端点色（cos 0 = 1）之间交替。'],
      heatmapLabel: '上表对应的热力图',
      codeTitle: '用 PyTorch 写出来',
      codeText: ['用 float64 计算、最后一次性转成 float32，得到的正是上面的数值（sinpe 也是这样算的）。'],
      evenTitle: '为什么 d_model 必须是偶数',
      even: [
        '每个频率占两列：同一个角度的正弦和余弦，所以一行由 $d/2$ 对组成，d_model 必须是偶数。原教程因此一开始就检查：`if d_model % 2 != 0: raise ValueError(...)`。在上面输入一个奇数的 d_model，程序包会按这条规则拒绝它；第 {lesson:variants} 课里有些库照样接受奇数宽度（补一列 0，或者以一个单独的正弦列结尾）。',
      ],
      readingTitle: '第 j 列与第 i 对：正确理解原教程',
      reading: [
        '$i$ 数的是“对”，不是列。d_model = 512 时有 256 个频率，$i$ 取 0 … 255，列号 $2i$ 或 $2i+1$ 取 0 … 511。（有一份教程说 $i$ 的范围是 0 … 511：那是列号，不是 $i$。）',
        '如果按列 $c$ 而不是按对来写，频率是 $1/10000^{2\\lfloor c/2\\rfloor/d}$：也就是 NumPy 教程里的 `angle_rates = 1 / np.power(10000, 2 * (i // 2) / d_model)`，其中 `i` 是列号，`i // 2` 让第 $2i$ 列和第 $2i+1$ 列用同一个频率。',
      ],
      perColumnTitle: '按列计算的同一张表（NumPy 写法）',
    },
  },
  summary: {
    formula: [
      '$PE[pos, 2i] = \\sin(pos\\cdot\\omega_i)$，$PE[pos, 2i+1] = \\cos(pos\\cdot\\omega_i)$，其中 $\\omega_i = \\text{base}^{-2i/d}$。',
      '一对中的两列共用频率 i；频率从 1 按几何级数降到接近 1/base。',
      '整张表都由公式给出：不需要学习，而且这个公式要求 d_model 为偶数。',
    ],
  },
  questions: {
    formula: {
      row0cos: {
        prompt: '第 0 行就是位置 0。这一行的每个 cos 列（第 1、3、5…… 列）是什么值？',
        choices: { zero: '0', one: '1', minusOne: '−1', varies: '每列都不一样' },
        explain: '第 0 行的每个角度都是 $0 \\cdot \\omega_i = 0$，而不论频率多少，$\\cos 0 = 1$：第 0 行的 cos 列依次是 {values}。（sin 列都是 $\\sin 0 = 0$。）',
      },
      slowest: {
        prompt: '从上往下看，哪几列变化最慢？',
        choices: { first: '第 0 列和第 1 列', last: '最后两列', same: '所有列变化一样快' },
        explain: '最后一对 $i = {last}$（第 {c0}、{c1} 列）每个位置只转 {omega} 弧度；第 0、1 列每个位置转 {fast} 弧度。光标标出了最后一列的最后一格。',
      },
    },
  },
};
