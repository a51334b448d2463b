// 简体中文 strings of the binary lesson, merged into the site's table at
// these same key paths (i18n/merge.js). Lesson text may use $tex$, `code` and **bold**.
export default {
  // what the learner can do after this lesson, on the course map
  courseMap: { outcomes: { binary: '把各列与二进制计数器的各位对应起来，并知道这个类比在哪里失效' } },
  lessons: {
    binary: {
      nav: '{lesson:binary} · 二进制计数类比',
      title: '与二进制计数的类比',
      intro: ['把位置 0, 1, 2, … 写成二进制：最低位每一步都翻转，次低位每 2 步翻转一次，再高一位每 4 步一次。位置编码用波做类似的事。'],
      bitsTitle: '二进制位',
      peTitle: '位置编码',
      bitAxis: '二进制位（最高位在左）',
      bitsLabel: '每个位置的二进制位：1 画成 +1，0 画成 −1',
      peLabel: '同一批位置的位置编码',
      readoutPosition: '位置 {position} 的二进制是 {binary}。',
      readoutBit: '第 {bit} 位是 {value}，每 {period} 个位置翻转一次。',
      readoutColumn: '第 {column} 列（{kind}，i = {i}）= {value}，波长为 {wavelength} 个位置。',
      explain: '二进制位从右往左读、位置编码从左往右读，两者都是由快到慢。第 $n$ 位的周期是 $2^{n+1}$，逐位翻倍；位置编码的波长 $2\\pi\\cdot\\text{base}^{2i/d}$ 也按等比增长，只是公比是 $\\text{base}^{2/d}$（d = {d}、base = {baseValue} 时约为 {ratio}），而不是 2。',
      chartTitle: '方波与正弦波',
      chartWindow: '图中只画出全部 {count} 个位置中的 0 … {last}；圆点是整数位置，也就是表中的各行。',
      chartText: ['把第 {b0}、{b1} 位画成方波（1 ↦ +1，0 ↦ −1，周期 {p0} 和 {p1}），与位置编码的第 {c0}、{c1} 列放在一起比较，即 $i = {i0}$ 和 $i = {i1}$ 的正弦（d = {d}、base {base} 时波长为 {w0} 和 {w1} 个位置）。'],
      chartLabel: '第 0、1 位的方波与位置编码第 0、2 列',
      bitSeries: '第 {bit} 位',
      colSeries: 'PE 第 {column} 列',
      diffTitle: '类比在哪里失效',
      diff: [
        '二进制位只在两个值之间跳变；位置编码在 −1 到 +1 之间平滑变化，所以相近的位置得到相近的向量。数越大，二进制需要的位数越多；位置编码对任何位置都是固定宽度 $d$。而且每个频率都是一对正弦、余弦，平移 $m$ 个位置就相当于一次旋转（见第 {lesson:relative} 课），二进制编码没有这种性质。',
      ],
      tableSummary: '位置、二进制和前几个编码值（表格）',
      binary: '二进制',
    },
  },
  summary: {
    binary: [
      '二进制计数也有快位和慢位：第 n 位的周期是 2^(n+1)。',
      '编码的波长每对乘以 base^(2/d) 而不是 2，而且数值平滑变化。',
      '平滑的数值便于模型在其间插值；二进制位则是跳变的。',
    ],
  },
  questions: {
    binary: {
      fastest: {
        prompt: '第 0 位每个位置都翻转一次，是变化最快的位。编码中哪几列变化最快？',
        choices: { first: '第 0 列和第 1 列', last: '最后一列', middle: '中间的几列' },
        explain: '第 0、1 列（$i = 0$）波长最短，为 {wavelength} 个位置，就像最低位；最慢的几列（直到第 {last} 列）波长约为 {slow} 个位置。',
      },
      smooth: {
        prompt: '在位置 0 和 1 之间，二进制位只能跳变。编码的第 0 列在两者之间怎样变化？',
        choices: { jumps: '也是跳变', smooth: '平滑地经过中间的各个值' },
        explain: '位置编码对任意位置都有定义，不只是整数位置：在位置 0.5，程序包给出第 0 列 = {value}，正是 $\\sin 0.5$ = {expected}。二进制位之间没有中间值。',
      },
    },
  },
};
