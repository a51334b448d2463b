// 简体中文 strings of the relative lesson, merged into the site's table at
// these same key paths (i18n/merge.js). Lesson text may use $tex$, `code` and **bold**.
export default {
  // what the learner can do after this lesson, on the course map
  courseMap: { outcomes: { relative: '证明移动 m 个位置等于每个频率上的一次旋转，与起始位置无关' } },
  lessons: {
    relative: {
      nav: '{lesson:relative} · 相对位置',
      title: '相对位置就是旋转',
      intro: ['为什么正弦、余弦要成对出现？因为往后移动 $m$ 个位置，每一对 (sin, cos) 都会转过角度 $\\omega_i m$，与起始位置无关。所以 PE(pos + m) 是 PE(pos) 的一个固定线性变换 $M(m)$：模型只需一个矩阵就能学会关注与当前词相隔 m 个位置的词。'],
      rotationText: ['$M(m)$ 是分块对角矩阵：每个频率一个 2×2 旋转块，作用在第 $2i$ 和 $2i+1$ 列上。它只依赖 $m$，与 $pos$ 无关。这就是和角公式：$\\sin(\\varphi+\\psi) = \\sin \\varphi\\cos \\psi + \\cos \\varphi\\sin \\psi$，$\\cos(\\varphi+\\psi) = \\cos \\varphi\\cos \\psi - \\sin \\varphi\\sin \\psi$。'],
      checkTitle: '实时验证',
      check: '把 PE({pos}) 旋转 m = {k}，再与 sinpe 算出的 PE({target}) 比较：最大差值 {error}。',
      tableSome: '只列出 {half} 对中的前 {shown} 对；上面的验证比较了全部 {half} 对。',
      tableAll: '全部 {half} 对。',
      pass: '✓ 在 float32 舍入误差内相等',
      failText: '✗ 超出 float32 舍入误差',
      dotTitle: '点积只取决于偏移量',
      dotText: ['两个位置编码的点积是 $\\omega_i (p\' - p)$ 的余弦之和，只与偏移 $p\' - p$ 有关。所以下面矩阵的每条对角线都是同一种颜色。主对角线上最大，离得越远通常越小（但不是单调的）；而且它是对称的：点积分不出“在前”还是“在后”。'],
      dotLabel: '位置 p 与位置 p′ 的编码点积',
      dotBar: 'PE(p)·PE(p′) / (d/2)',
      posI: '位置 p',
      posJ: '位置 p′',
      readout: 'p = {i}，p′ = {j}，偏移 p′ − p = {offset}：PE(p)·PE(p′) = {dot}（最大值 d/2 的 {normalized} 倍）。',
      diagonal: '同一条对角线（偏移相同）上的最大差异：{spread}，而最大值是 {half}：只是 float32 舍入误差。',
    },
  },
  summary: {
    relative: [
      'PE(p + m) = M(m) · PE(p)：每一对一个固定的旋转，对所有 p 都相同。',
      '点积 $PE(p) \\cdot PE(p+m) = \\sum_i \\cos(m\\,\\omega_i)$ 只取决于偏移 $m$。',
      '它随 |m| 增大而下降，但不是单调的。',
    ],
  },
  questions: {
    relative: {
      onlyK: {
        prompt: '偏移 m 固定时，$PE(p) \\cdot PE(p+m)$ 会随 p 变化吗？',
        choices: { depends: '会，取决于 p', onlyK: '不会，只取决于 m' },
        explain: '它等于 $\\sum_i \\cos(\\omega_i m)$，式中没有 p：PE({p1})·PE({q1}) = {v1}，PE({p2})·PE({q2}) = {v2}。',
      },
      diagonal: {
        prompt: '图中 $PE(p) \\cdot PE(p\')$ 在哪里最大？',
        choices: { diagonal: '在对角线 p′ = p 上', far: '远离对角线的地方', corner: '只在 (0, 0)' },
        explain: '在对角线上每一项都是 $\\cos 0 = 1$，所以点积为 $d/2$ = {half}（程序包给出的位置 3 处的值为 {value}）；离开对角线一步就只有 {next}。',
      },
    },
  },
};
