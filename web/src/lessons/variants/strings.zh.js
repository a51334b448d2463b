// 简体中文 strings of the variants lesson, merged into the site's table at
// these same key paths (i18n/merge.js). Lesson text may use $tex$, `code` and **bold**.
export default {
  // what the learner can do after this lesson, on the course map
  courseMap: { outcomes: { variants: '对齐 Hugging Face、fairseq、tensor2tensor 等库的编码，包括排布方式' } },
  code: {
    variants: {
      rows: 'Float32Array({rows} * {d})，按行存放：第 r 行是 table.subarray(r * {d}, (r + 1) * {d})',
      pixels: '同一视图的 RGBA 像素，可直接画到 canvas 上；colormap 是 Uint8Array(1024)',
      lut: '查找表：第 i 项（RGBA）是数值 −1 + 2i/255 的颜色',
    },
  },
  lessons: {
    variants: {
      nav: '{lesson:variants} · 各库的变体',
      title: '各个库里的变体',
      intro: ['各个库的思路相同，细节却不一样：频率怎么分布、sin 放在哪里、d 为奇数时怎么办。下面用同样的 d_model 和长度并排比较。点击卡片上的“使用此预设”按钮即可选择。'],
      select: '使用此预设',
      selected: '已选择',
      patch: '图块（按行优先）',
      cardLabel: '预设 {preset} 的热力图',
      readout: '{preset}：{where}，第 {column} 列 = {value}。',
      rowPosition: '位置 {position}',
      rowPatch: '图块 {index}（网格第 {row} 行、第 {col} 列）',
      snippetTitle: '复现当前视图',
      snippetText: ['用本包的 API 得到同一张表，可以直接粘贴到你的应用里：'],
      layoutOverride: '八张表的列布局',
      layoutNote: '这里所有表都使用{layout}布局（包的 `layout` 选项会覆盖各预设自己的布局），因此各卡片之间剩下的差别是频率、缩放方式以及 MAE 的两个半边。选择“各预设自己的布局”即可看到各库原本的样子。',
      copy: '复制代码',
      refused: '这个预设不接受 d_model = {d}。程序包的说明：“{message}”。',
      copied: '已复制。',
      copyFailed: '此处不允许复制，请手动选中文本。',
      chartTitle: '频率对比',
      chartText: ['每个预设的频率都按等比数列分布，但端点不同：vaswani 和 keras 止于略大于 1/base 处；fairseq、whisper 和 tensor2tensor 的最后一个频率正好是 1/base；diffusers 的指数除以 $D - \\text{freqShift}$（默认 shift 为 1 时，最后一个频率正好是 1/maxPeriod），guided-diffusion 除以 $D$（和 vaswani 一样止于略大于 1/maxPeriod 处）；MAE 每个轴只用一半数量的频率。'],
      ratioAxis: 'ω_i ÷ vaswani 的 ω_i',
      ratioLabel: '各预设的频率除以 vaswani 的频率，线性坐标',
      ratioText: ['把同样的频率逐个除以 vaswani 的频率，画在线性坐标上：1 表示频率相同。恰好到达 1/base 的预设在末端更低（它们最后一个频率是 base^(−1)，而 vaswani 的是 base^(−(D−1)/D)）；差一点到达的预设停在 1 上。'],
      ratioOne: '与 vaswani 相同',
      maeSeries: 'mae，每个轴（{count} 个频率）',
      chartLabel: '各预设的角频率（对数坐标）',
      omegaAxis: '角频率 ω_i',
      diffTitle: '所选预设的说明',
      about: {
        vaswani: '《Attention Is All You Need》、PyTorch 教程、d2l。ω = base^(−2i/d)，交错排列。',
        keras: 'keras-hub SinePositionEncoding、DistilBERT。数值与 vaswani 相同；允许 d 为奇数。',
        tensor2tensor: 'get_timing_signal_1d。时间尺度从 min 到 max，sin 半边 | cos 半边。',
        fairseq: 'SinusoidalPositionalEmbedding。最后一个频率正好是 1e−4；拼接排列。',
        whisper: 'OpenAI Whisper 的 sinusoids()。与 fairseq 类似，maxTimescale 为 10,000。',
        diffusers: 'get_timestep_embedding。除以 D − freqShift；可选翻转和缩放。',
        'guided-diffusion': 'timestep_embedding（Stable Diffusion 的 UNet）。cos 半边在前。',
        mae: 'MAE 二维 sin-cos：一半宽度编码图块的列，另一半编码行。',
      },
      details: {
        vaswani: ['$\\omega_i = \\text{base}^{-2i/d}$；第 $2i$ 列是 sin，第 $2i+1$ 列是 cos。`layout` 选项可以改成 TensorFlow 教程的拼接顺序。d 为奇数时报错。'],
        keras: ['按列 $c$ 计算：$(1/\\text{base})^{2\\lfloor c/2\\rfloor/d}$，d 为偶数时与 vaswani 相同。d 为奇数时最后一列是 sin。'],
        tensor2tensor: ['$\\omega_i = \\text{minTimescale}\\cdot e^{-i\\ln(\\text{max}/\\text{min})/(D-1)}$（注意：与原始代码一样，minTimescale 是乘上去的）；先 sin 半边再 cos 半边；d 为奇数时末尾补一列 0。'],
        fairseq: ['$\\omega_i = e^{-i\\ln(10000)/(D-1)}$，所以最后一个频率正好是 $10^{-4}$；拼接排列。`paddingIdx` 所在的行全为 0；fairseq 自己的位置从 paddingIdx + 1 开始编号。'],
        whisper: ['$\\omega_i = e^{-i\\ln(\\text{maxTimescale})/(D-1)}$，maxTimescale 为 10,000；拼接排列；d 为奇数时报错。'],
        diffusers: ['$\\omega_i = e^{-\\ln(\\text{maxPeriod})\\,i/(D-\\text{freqShift})}$，freqShift 默认为 1；位置是扩散过程的时间步（可以是小数），`scale` 乘在角度上，`flipSinToCos` 把 cos 半边放到前面。'],
        'guided-diffusion': ['$\\omega_i = e^{-\\ln(\\text{maxPeriod})\\,i/D}$（相当于 freqShift 为 0 的 diffusers），cos 半边在前，与 Stable Diffusion 的 UNet 相同。'],
        mae: ['二维：H × W 网格中的图块逐行编号。第 $0\\dots D-1$ 列（$D = d/2$）编码图块所在的网格列，第 $D\\dots d-1$ 列编码它所在的网格行，每一半内部又是 sin | cos，$\\omega_i = 10000^{-i/(D/2)}$。`clsToken` 会在最前面加一行全 0。d 必须是 4 的倍数。'],
      },
    },
  },
  summary: {
    variants: [
      '各个库在频率指数、列的排列以及 d_model 能否为奇数上有所不同。',
      '有的库最后一对正好到 1/base，有的差一步。',
      '引用一张表时，要说明是哪个库、用了哪些选项。',
    ],
  },
  questions: {
    variants: {
      slowest: {
        prompt: '在同一个 d 下，谁的最慢频率更小：fairseq 的还是论文（vaswani）的？',
        choices: { fairseq: 'fairseq 的', vaswani: 'vaswani 的', equal: '一样大' },
        explain: 'fairseq 把频率分成 $D - 1$ 步，所以最后一个正好是 $10^{-4}$ = {fairseq}；论文的最后一个是 $10000^{-(d-2)/d}$，d = {d} 时为 {vaswani}。',
      },
      t2tLayout: {
        prompt: 'tensor2tensor 用哪种列排列方式？',
        choices: { interleaved: '交错（sin, cos, sin, cos, …）', concat: '拼接（先全部 sin，再全部 cos）', 'cos-first': 'cos 在前' },
        explain: '拼接：它的第 0 行前一半是 {first} … {last}（0 的正弦），从中间开始是 {second}（0 的余弦）。tensor2tensor 的卡片显示了这一点。',
      },
    },
  },
};
