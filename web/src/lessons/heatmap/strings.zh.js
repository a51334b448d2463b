// 简体中文 strings of the heatmap lesson, merged into the site's table at
// these same key paths (i18n/merge.js). Lesson text may use $tex$, `code` and **bold**.
export default {
  // what the learner can do after this lesson, on the course map
  courseMap: { outcomes: { heatmap: '读懂位置编码热力图，分辨交错、拼接和 cos 在前三种排布' } },
  lessons: {
    heatmap: {
      nav: '{lesson:heatmap} · 读懂热力图',
      title: '读懂位置编码热力图',
      intro: [
        '热力图的每一行是一个位置，每一列是编码的一个维度，颜色表示取值，从 −1 到 +1。把鼠标移到图上，或聚焦热力图后用方向键，可以读出任一单元格。',
      ],
      figureLabel: '位置编码热力图',
      zoomIn: '放大（显示更少行）',
      zoomOut: '缩小（显示更多行）',
      jump: '跳到位置',
      hoverHint: '指向一个单元格（或聚焦热力图后用方向键）即可读出它的值。',
      summary: '{rows} 个位置（{first} 到 {last}）× {d} 个维度，{layout}排列。',
      beyond: '这些行从位置 {start} 开始。PyTorch 模块得预先算好这么长的一张表，sinpe 只按需生成要看的这几行（任意位置，最大到 {max}）。在热力图上按 PageUp/PageDown 或方向键、改起始位置或用跳转按钮即可翻动；在热力图上按住 Ctrl（⌘）滚动滚轮或双指捏合可以缩放。',
      row0Title: '第 0 行',
      row0: [
        '位置 0 处所有角度都是 0，所以每个 sin 列都是 $\\sin 0 = 0$（色条正中的颜色），每个 cos 列都是 $\\cos 0 = 1$（色条一端的颜色）。',
      ],
      row0Layout: {
        interleaved: '当前是交错排列，所以第 0 行中性色和饱和色交替出现：中性、饱和、中性、饱和……',
        concat: '当前是拼接排列，所以第 0 行一半是中性色（左边的 sin 半边），一半是饱和色（右边的 cos 半边）。',
        'cos-first': '当前是 cos 在前排列，所以第 0 行一半是饱和色（左边的 cos 半边），一半是中性色（右边的 sin 半边）。',
      },
      flatTitle: '为什么靠右的列几乎不变',
      flat: [
        '第 $i$ 对列以频率 $\\omega_i = 1/\\text{base}^{2i/d}$ 转动。第一对每 $2\\pi \\approx 6.3$ 个位置转一圈，形成密集的条纹；最后几对的波长接近 $\\text{base} \\cdot 2\\pi$（base 为 10,000 时约 63,000 个位置）。在几百行之内它们的角度几乎不动，sin 停在 0 附近，cos 停在 1 附近。这要求 base 足够大：比如 base 为 2 时，最慢的波长也不到 $2 \\cdot 2\\pi \\approx 12.6$ 个位置，没有哪一列几乎不变（可以用 base 控件试试）。',
        '跳到位置 100,000 或 10,000,000：慢变的列换成了别的颜色，因为经过这么多位置，再慢的角度也已转过不少；但在屏幕上的这些行里，它们依然几乎不变，呈竖直的色带。要看到它们沿行变化，需要跨越上万个位置。',
      ],
      flatLayout: {
        interleaved: '当前是交错排列，这些慢变的列就是整张图的右侧，中性色（sin）与饱和色（cos）交替。',
        concat: '当前是拼接排列，它们在每一半的右端：图中间的中性色（sin）和最右边的饱和色（cos）。',
        'cos-first': '当前是 cos 在前排列，它们在每一半的右端：图中间的饱和色（cos）和最右边的中性色（sin）。',
      },
      layoutTitle: '三种排列，同一组数',
      layouts: [
        '**交错**（原论文、PyTorch 教程、d2l）：第 $2i$ 列是 sin，第 $2i+1$ 列是同一角度的 cos。',
        '**拼接**（TensorFlow 教程、tensor2tensor、fairseq、Whisper）：先放 sin 的一半，再放 cos 的一半，频率相同。中间有一条明显竖直分界线的图就是这种排列。',
        '**cos 在前**（guided-diffusion、diffusers 的 `flip_sin_to_cos`）：两半互换。三种排列的数值集合完全一样，只是列的顺序不同；只要训练和推理一致，模型并不在意。',
      ],
    },
  },
  summary: {
    heatmap: [
      '行是位置，列是维度：左边的列变化快，右边的几乎不变。',
      '无论哪种排列，第 0 行的每一对都是 sin 0 = 0 和 cos 0 = 1。',
      '交错、拼接和 cos 在前三种排列的数值相同，只是列的顺序不同。',
    ],
  },
  questions: {
    heatmap: {
      cosRow0: {
        prompt: '第 0 行在 cos 列上是什么颜色？',
        choices: { plusOne: '色条 +1 端的颜色', zero: '中间的颜色（0）', minusOne: '色条 −1 端的颜色' },
        explain: '$\\cos 0 = 1$，所以第 0 行的每个 cos 单元格都是 +1 的颜色。在{layout}布局中，第一个 cos 列是第 {column} 列；读数显示它的值为 {value}。',
      },
      repeat: {
        prompt: '沿着最快频率（$i = 0$）的正弦列往下，大约隔多少行图案会重复？',
        choices: { six: '约 6 行（2π）', hundred: '约 100 行', huge: '约 63,000 行（2π · 10,000）' },
        explain: '这一列（第 {column} 列）每个位置转 ω = {omega} 弧度，所以每 $2\\pi/\\omega$ = {wavelength} 个位置重复一次。第 0、6、7 行的值是 {v0}、{v6}、{v7}：第 6 行差一点转满一圈，第 7 行刚过一圈。',
      },
    },
  },
};
