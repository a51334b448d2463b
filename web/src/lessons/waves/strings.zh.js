// 简体中文 strings of the waves lesson, merged into the site's table at
// these same key paths (i18n/merge.js). Lesson text may use $tex$, `code` and **bold**.
export default {
  // what the learner can do after this lesson, on the course map
  courseMap: { outcomes: { waves: '说出哪些列转得快、哪些转得慢，以及波长为什么从 2π 到 base·2π' } },
  lessons: {
    waves: {
      nav: '{lesson:waves} · 波形与波长',
      title: '波形与波长',
      intro: ['换个方向读表：不按行、按列读。每一列都是一条随位置变化的正弦或余弦波。下面可以画出任意几列，并查看每个频率的波长。'],
      try: '试试：',
      d2l: 'd2l 的图：第 6–9 列，d = 32',
      sinCols: 'sin 列 0, 2, 4, 6',
      pair: '一对 sin/cos',
      curvesTitle: '把列画成曲线',
      curvesText: ['第 $2i$ 列是频率 $i$ 的正弦，第 $2i+1$ 列是同一频率的余弦，所以同一对的两条曲线相位差四分之一周期。在表中越往右，波越慢。'],
      curvesNow: '图中：{parts}。',
      curvesPair: '第 {sin}、{cos} 列是 $i = {i}$ 的正弦和余弦',
      curvesSin: '第 {column} 列是 $i = {i}$ 的正弦',
      curvesCos: '第 {column} 列是 $i = {i}$ 的余弦',
      curvesJoin: '；',
      curvesOrder: '$i$ 越大，波越慢：这里 $i = {fast}$ 最快，$i = {slow}$ 最慢。',
      curvesLabel: '所选各列随位置变化的曲线',
      colName: '第 {column} 列（{kind}，i = {i}）',
      colValue: '第 {column} 列 = {value}',
      readoutPosition: '位置 {position}：{values}。',
      lengthsTitle: '波长构成等比数列',
      lengthsText: [
        '频率 $i$ 每隔 $\\lambda_i$ 个位置重复一次。波长每一步都乘以同一个公比，从 $i = 0$ 时的 $2\\pi$ 一直增长到接近 $\\text{base}\\cdot 2\\pi$，所以在对数坐标上排成一条直线。',
        '公比是多少？先回答上面的问题，再从图上读出来。',
      ],
      lengthsLabel: '各频率的波长（对数坐标），并标出 max_len',
      lengthSeries: '波长 λ_i',
      maxLenMark: 'max_len = {len}',
      baseMark: 'base · 2π',
      readoutFrequency: 'i = {i}（第 {sinColumn}、{cosColumn} 列）：ω = {frequency}，波长 = {wavelength} 个位置，在 max_len 内走了 {cycles} 个周期。',
      never: '{half} 个频率中有 {count} 个（i ≥ {first}，即第 {firstColumn} 列及以后）在 max_len = {len} 之内走不完一个完整周期：其中第一个只走了 {firstCycles} 个周期，最慢的几乎不动。相邻波长之比为 {ratio}。',
      allCycle: '在 max_len = {len} 之内，每个频率都至少走完一个完整周期。',
      tableSummary: '全部波长（表格）',
      thColumns: '列',
      thCycles: 'max_len 内的周期数',
      whyTitle: '为什么要用一串不同的波长？',
      why: [
        '短波能区分相邻位置，但很快就会重复；长波在序列内不会重复，但变化太慢，分不清相邻位置。两者配合，就像钟表的时针、分针和秒针：每个位置得到独一无二的组合，而相近的位置编码也相近。',
      ],
    },
  },
  clock: {
    title: '时钟图',
    text: [
      '把表中第 $p$ 行读成一排时钟：第 $i$ 对的 sin 列和 cos 列，就是一根角度为 $p\\,\\omega_i$ 的指针在竖直和水平方向上的投影。一步步改变位置：第一根指针每个位置转 1 弧度（57°），后面的越来越慢，最后几根几乎不动。色条是同一行的颜色，每个表盘下的两个小方块是这一对的 sin 和 cos 单元格。',
    ],
    back: '◀ 位置 − 1',
    forward: '位置 + 1 ▶',
    stripLabel: '当前位置这一行的颜色',
    stripCaption: '第 {p} 行，第 0 到 {last} 列（交错：sin, cos, sin, cos, …）。',
    dialsLabel: '这一行的每一对 sin/cos 画成时钟指针',
    dialTitle: 'i = {i}（第 {sin}、{cos} 列）',
    dialRate: 'ω = {omega}，λ = {wavelength}',
    dialValues: 'sin {sin}，cos {cos}',
    dialDescription: '第 {i} 对：角度 {angle} 弧度，sin {sin}，cos {cos}。',
    someShown: '{half} 对中画出了 {shown} 对，从最快到最慢均匀挑选。',
    readout: '位置 {p}：第 0 对的指针指向 {fast}°，第 {last} 对指向 {slow}°（它每个位置转 {slowRate}°）。',
  },
  summary: {
    waves: [
      '每一列都是随位置变化的正弦或余弦波，波长 $\\lambda_i = 2\\pi/\\omega_i$。',
      '波长每对乘以同一个公比，从 2π 增长到接近 base·2π。',
      '像时钟的指针一样，快的对和慢的对合在一起让每个位置都有独特的一行。',
    ],
  },
  questions: {
    waves: {
      firstTurn: {
        prompt: '位置增大时，哪一对 sin/cos 最先转满一圈？',
        choices: { first: '第 0 对，也就是第一个', last: '最后一对', together: '它们一起转' },
        explain: '第 0 对每个位置转 1 弧度，{fast} 个位置后回到起点（把表盘的位置设为 6 即可看到）。最后一对 $i = {last}$ 每个位置只转 {slow} 弧度，转一圈要 {wavelength} 个位置。',
      },
      ratio: {
        prompt: '每个波长都是前一个的固定倍数：$\\lambda_{i+1} / \\lambda_i$ = ？',
        choices: { rootBase: '$\\text{base}^{1/d}$', base2d: '$\\text{base}^{2/d}$', two: '2，和二进制计数一样' },
        explain: '$\\lambda_i = 2\\pi\\,\\text{base}^{2i/d}$，所以公比是 $\\text{base}^{2/d}$，d = {d}、底数 {baseValue} 时为 {ratio}；图中前两个频率给出 {measured}。有些笔记写的公比 $10000^{1/d}$（这里是 {wrong}）只是真实公比的平方根：$i$ 数的是“对”，指数每步增加 $2/d$。',
      },
    },
  },
};
