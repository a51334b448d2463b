// English strings of the variants lesson, merged into the site's table at
// these same key paths (i18n/merge.js). Lesson text may use $tex$, `code` and **bold**.
export default {
  // what the learner can do after this lesson, on the course map
  courseMap: { outcomes: { variants: 'match the encoding of Hugging Face, fairseq, tensor2tensor and others, layout and all' } },
  code: {
    variants: {
      rows: 'Float32Array({rows} * {d}), row-major: row r is table.subarray(r * {d}, (r + 1) * {d})',
      pixels: 'the same view as RGBA pixels for a canvas; colormap is a Uint8Array(1024)',
      lut: 'lookup table: entry i (RGBA) is the colour of the value −1 + 2i/255',
    },
  },
  lessons: {
    variants: {
      nav: '{lesson:variants} · Variants across libraries',
      title: 'Variants across libraries',
      intro: ['Libraries agree on the idea but not on the details: how the frequencies are spaced, where the sines go, what happens to odd widths. Side by side, with the same d_model and length. Press “Use this preset” on a card to pick it.'],
      select: 'Use this preset',
      selected: 'Selected',
      patch: 'patch (row-major)',
      cardLabel: 'Heatmap of preset {preset}',
      readout: '{preset}: {where}, column {column} = {value}.',
      rowPosition: 'position {position}',
      rowPatch: 'patch {index} (grid row {row}, column {col})',
      snippetTitle: 'Reproduce this view',
      snippetText: ['The same table from the package API, ready to paste into your app:'],
      layoutOverride: 'layout of all eight tables',
      layoutNote: 'Every table uses the {layout} layout here (the package’s `layout` option overrides each preset’s own), so what still differs between the cards is the frequencies, the scaling and MAE’s two halves. Choose “each preset’s own” to see the libraries as they are.',
      copy: 'Copy snippet',
      refused: 'd_model = {d} is refused by this preset. The package says: “{message}”.',
      copied: 'Copied.',
      copyFailed: 'Copying is not allowed here; select the text instead.',
      chartTitle: 'The frequencies compared',
      chartText: ['Every preset spaces its frequencies geometrically, but the end points differ: vaswani and keras stop just short of 1/base, fairseq, whisper and tensor2tensor reach 1/base exactly with the last frequency, diffusers divides its exponent by $D - \\text{freqShift}$ (with the default shift of 1 its last frequency is exactly 1/maxPeriod), guided-diffusion by $D$ (stopping just short of 1/maxPeriod, like vaswani), and MAE uses half as many per axis.'],
      ratioAxis: 'ω_i ÷ vaswani’s ω_i',
      ratioLabel: 'Each preset’s frequencies divided by vaswani’s, on a linear axis',
      ratioText: ['The same frequencies divided by vaswani’s, one by one, on a linear axis: 1 means the same frequency. The presets that reach 1/base exactly end lower (their last frequency is base^(−1) where vaswani’s is base^(−(D−1)/D)); the ones that stop short stay on 1.'],
      ratioOne: 'same as vaswani',
      maeSeries: 'mae, per axis ({count} frequencies)',
      chartLabel: 'Angular frequencies of every preset on a log axis',
      omegaAxis: 'angular frequency ω_i',
      diffTitle: 'About the selected preset',
      about: {
        vaswani: 'Attention Is All You Need; PyTorch tutorial, d2l. ω = base^(−2i/d), interleaved.',
        keras: 'keras-hub SinePositionEncoding, DistilBERT. Same numbers as vaswani; odd d allowed.',
        tensor2tensor: 'get_timing_signal_1d. Timescales from min to max, sin half | cos half.',
        fairseq: 'SinusoidalPositionalEmbedding. Last frequency exactly 1e−4; concatenated.',
        whisper: 'OpenAI Whisper sinusoids(). Like fairseq, maxTimescale 10,000.',
        diffusers: 'get_timestep_embedding. Divides by D − freqShift; options flip and scale.',
        'guided-diffusion': 'timestep_embedding (Stable Diffusion UNet). Cos half first.',
        mae: 'MAE 2-D sin-cos: half the width encodes the patch column, half the row.',
      },
      details: {
        vaswani: ['$\\omega_i = \\text{base}^{-2i/d}$; column $2i$ = sin, $2i+1$ = cos. The `layout` option can switch it to the concatenated order of the TensorFlow tutorial. Odd d is an error.'],
        keras: ['Per column $c$: $(1/\\text{base})^{2\\lfloor c/2\\rfloor/d}$, which equals vaswani for even d. With odd d the last column is a sine.'],
        tensor2tensor: ['$\\omega_i = \\text{minTimescale}\\cdot e^{-i\\ln(\\text{max}/\\text{min})/(D-1)}$ (note: minTimescale multiplies, as in the original code); sin half then cos half; odd d gets a trailing zero column.'],
        fairseq: ['$\\omega_i = e^{-i\\ln(10000)/(D-1)}$, so the last frequency is exactly $10^{-4}$; concatenated. `paddingIdx` makes that row all zeros; fairseq’s own positions start at paddingIdx + 1.'],
        whisper: ['$\\omega_i = e^{-i\\ln(\\text{maxTimescale})/(D-1)}$ with maxTimescale 10,000; concatenated; odd d is an error.'],
        diffusers: ['$\\omega_i = e^{-\\ln(\\text{maxPeriod})\\,i/(D-\\text{freqShift})}$ with freqShift 1 by default; positions are (possibly fractional) diffusion timesteps, `scale` multiplies the angle, `flipSinToCos` puts the cos half first.'],
        'guided-diffusion': ['$\\omega_i = e^{-\\ln(\\text{maxPeriod})\\,i/D}$ (diffusers with freqShift 0) and the cos half first, as in Stable Diffusion’s UNet.'],
        mae: ['2-D: the patches of an H × W grid are numbered row by row. Columns $0\\dots D-1$ ($D = d/2$) encode a patch’s grid column, columns $D\\dots d-1$ its grid row, each half itself sin | cos with $\\omega_i = 10000^{-i/(D/2)}$. `clsToken` prepends an all-zero row. d must be a multiple of 4.'],
      },
    },
  },
  summary: {
    variants: [
      'Libraries differ in the frequency exponent, the column layout and whether d_model may be odd.',
      'Some reach 1/base exactly in the last pair, others stop one step short.',
      'Name the library and its options when you quote a table.',
    ],
  },
  questions: {
    variants: {
      slowest: {
        prompt: 'At the same d, whose slowest frequency is smaller: fairseq’s or the paper’s (vaswani)?',
        choices: { fairseq: 'fairseq’s', vaswani: 'vaswani’s', equal: 'they are equal' },
        explain: 'fairseq spaces its frequencies over $D - 1$ steps, so its last one is exactly $10^{-4}$ = {fairseq}; the paper’s last is $10000^{-(d-2)/d}$ = {vaswani} for d = {d}.',
      },
      t2tLayout: {
        prompt: 'Which column layout does tensor2tensor use?',
        choices: { interleaved: 'interleaved (sin, cos, sin, cos, …)', concat: 'concatenated (all sin, then all cos)', 'cos-first': 'cos first' },
        explain: 'Concatenated: its row 0 is {first} … {last} in the first half (sines of 0) and {second} from the middle on (cosines of 0). Its card, tensor2tensor, shows it.',
      },
    },
  },
};
