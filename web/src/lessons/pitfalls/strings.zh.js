// 简体中文 strings of the pitfalls lesson, merged into the site's table at
// these same key paths (i18n/merge.js). Lesson text may use $tex$, `code` and **bold**.
export default {
  // what the learner can do after this lesson, on the course map
  courseMap: { outcomes: { pitfalls: '找出常见错误（指数乘了两次、float32 角度），并用容差对照参考实现测试' } },
  code: {
    pitfalls: {
      buggy: '原教程笔记本（有错）',
      fixed: '正确写法：2i 本身已是偶数，只用一次；cos 与 sin 共用 ω',
      tolerance: '两者一致处为 True',
    },
  },
  lessons: {
    pitfalls: {
      nav: '{lesson:pitfalls} · 常见陷阱',
      title: '常见陷阱',
      intro: ['位置编码有两种不易察觉的出错方式：指数写错了，算出的表看起来却很像样；以及 float32 运算在位置变大时精度越来越差。'],
      bugTitle: '教程笔记本里的一个错误',
      bugText: [
        '有一份原教程笔记本写成了 `10000 ** (2 * torch.arange(0, d, 2) / d)`。可是 `arange(0, d, 2)` 已经给出 $2i$，于是指数变成了 $4i/d$：频率下降速度快了一倍。它的余弦那一行用的是 `arange(1, d, 2)`，第 $2i+1$ 列的指数成了 $2(2i+1)/d$，和配对的正弦列频率不同，两列不再一起旋转。',
      ],
      bugAfter: ['两张表的第 0 行完全相同（所有角度都是 0），所以粗看发现不了这个错误；第 0 列也相同。其余位置都不一样，越往下差异越大。', '同一份笔记本还说 d_model = 512 时“i 取 0 … 511”：那是列号。$i$ 数的是 sin/cos 对，所以一共有 256 个频率，$i = 0 … 255$（第 {lesson:formula} 课）。'],
      buggyTitle: '原教程笔记本（有错）',
      correctTitle: '正确（sinpe）',
      differenceTitle: '差值：有错 − 正确',
      buggyLabel: '错误版本的热力图',
      correctLabel: '正确版本的热力图',
      differenceLabel: '两者差值的热力图',
      bugReadout: '位置 {position}，第 {column} 列：错误版本 {buggy}（指数 {buggyExp}），正确值 {correct}（指数 {correctExp}），差值 {difference}。',
      floatTitle: 'float32 角度会丢精度',
      floatText: [
        '常见写法用 float32 计算 `div_term` 和 `position * div_term`。float32 只有 24 位有效二进制位：在略小于 65,536 的位置，相邻两个 float32 数相差 1/256 ≈ 0.004，角度最多会偏差这个间隔的一半；float32 频率本身的微小误差也会被位置放大。所以 sin 和 cos 的误差随位置成比例增长。sinpe 用 float64 计算频率和角度，只在最后取值时舍入一次，因此在 $2^{24}$ 以内的任何位置误差都小于 2.5e−7。',
      ],
      errorAxis: '|float32 − 精确值| 的最大值',
      errorLabel: 'float32 写法的最大误差随位置变化（双对数坐标）',
      errorSeries: 'float32 写法，d = {d}',
      sinpeBound: 'sinpe ≤ 2.5e−7',
      seedTolerance: '容差 1e−3',
      errorSummary: 'd = {d} 时，float32 写法的最大误差在位置 4096 以内达到 {e4096}，65,536 以内 {e65536}，2²⁰ 以内 {e1m}。',
      tolTitle: 'NumPy 风格的容差检查',
      tolText: ['另一份原教程笔记本用 `np.abs(a - b) < tolerance` 比较两张表。这里逐个单元格地把 float32 写法与 sinpe 的精确结果比较：配色 +1 端表示 True，−1 端表示 False。跳到较大的位置，或把容差调小，就会看到不合格的单元格出现。'],
      tolScale: '检查结果：False ↦ −1，True ↦ +1',
      tolLabel: 'float32 写法与精确值的容差检查',
      jump: '从此位置开始',
      tolSummary: '第 {first} 到 {last} 行，容差 {tolerance}：{total} 个单元格中有 {failed} 个不合格；最大差值为 {worst}。',
      tolReadout: '位置 {position}，第 {column} 列：float32 {float32}，精确值 {exact}，|差值| = {difference} → {verdict}。',
    },
  },
  summary: {
    pitfalls: [
      '指数写错一倍（该写 2i/d 时写成 2·(2i)/d，因为 arange(0, d, 2) 已经给出 2i）得到的表是错的，看起来却很像对的。',
      '用 float32 计算角度 p·ω，误差与位置成正比地增长。',
      '比较两张表要用适合 float32 的容差，而不是相等。',
    ],
  },
  questions: {
    pitfalls: {
      findBug: {
        prompt: '找出错误。一个流传很广的笔记本用下面几行填表。哪一行是错的？',
        choices: {
          pos: '`pos = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)`',
          sin: '`pe[:, 0::2] = torch.sin(pos / (10000 ** (2 * torch.arange(0, d_model, 2) / d_model)))`',
          cos: '`pe[:, 1::2] = torch.cos(pos / (10000 ** (2 * torch.arange(1, d_model, 2) / d_model)))`',
          both: 'sin 那一行和 cos 那一行都错',
        },
        explain: '`torch.arange(0, d_model, 2)` 本身就是 $2i$ = 0, 2, 4, …；再乘 `2 *` 使指数翻倍成 $4i/d$，sin 列转得太慢。cos 那一行用的是 `arange(1, d_model, 2)` = 1, 3, 5, …，这个指数不属于任何一个 sin 列。差值图从第 1 列开始就能看出来：在位置 1，第 1 列笔记本算出 {buggy1}，按公式应为 {correct1}；第 2 列是 {buggy2}，应为 {correct2}。',
      },
      howMany: {
        prompt: '上面那个有错误的笔记本还说 d_model = 512 时“i 的范围是 [0, 511]”。位置编码实际有多少个不同的频率 $\\omega_i$？',
        choices: { all: 'd 个，每列一个', half: 'd/2 个，每对 sin/cos 一个', minusOne: 'd − 1 个' },
        explain: '$i$ 数的是 sin/cos 对，不是列：$i = 0 \\dots d/2 - 1$，d = {d} 时到 {last} 为止，第 $c$ 列用的是频率 $\\lfloor c/2 \\rfloor$。d = {d} 时程序包返回 {count} 个频率。d = 512 时，i 的范围是 0 … 255。',
      },
    },
  },
};
