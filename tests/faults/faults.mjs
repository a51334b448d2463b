// Plausible bugs, each written as one edit of the source: `find` must occur
// exactly once in `file` (a fault whose anchor has moved is an error of this
// list, never a silent pass), and is replaced by `replace`. `suites` are the
// suites expected to catch it, run in order until one fails (see run.mjs for
// what each suite runs). `quick` faults also run in `npm test`.
export const FAULTS = [
  {
    id: 'nan-cell',
    what: 'NaN written into row 5, column 0 of every rows()/encode() result',
    file: 'cpp/src/kernel.cpp',
    find: '  detail::rows_into<Add>(P, start, count, detail::rows_at(P, out), w, path == Path::best);\n',
    replace:
      '  detail::rows_into<Add>(P, start, count, detail::rows_at(P, out), w, path == Path::best);\n' +
      '  if (!Add && count > 5) out[5 * std::size_t(plan.d_model())] = __builtin_nanf("");\n',
    suites: ['native'],
    quick: true,
  },
  {
    id: 'inf-cell',
    what: '+inf written into row 5, column 0 of every rows() result',
    file: 'cpp/src/kernel.cpp',
    find: '  detail::rows_into<Add>(P, start, count, detail::rows_at(P, out), w, path == Path::best);\n',
    replace:
      '  detail::rows_into<Add>(P, start, count, detail::rows_at(P, out), w, path == Path::best);\n' +
      '  if (!Add && count > 5) out[5 * std::size_t(plan.d_model())] = __builtin_inff();\n',
    suites: ['native'],
  },
  {
    id: 'sign-flip',
    what: "flipped sign in the scalar interleaved RoPE rotation (x'_b = x_b c - x_a s)",
    file: 'cpp/src/rope.cpp',
    find: 'x[i + 1] = xb * cj + xa * sj;',
    replace: 'x[i + 1] = xb * cj - xa * sj;',
    suites: ['native'],
  },
  {
    id: 'off-by-one-reanchor',
    what: 'off-by-one position at each direct re-anchor (rows after the 16th block start one position late)',
    file: 'cpp/src/kernel.hpp',
    find: 'direct_anchors(P, start + double(done), w, simd);',
    replace: 'direct_anchors(P, start + double(done) + 1.0, w, simd);',
    suites: ['native'],
  },
  {
    id: 'default-preset',
    what: "wrong default for one preset: guided-diffusion's maxPeriod 1000 instead of 10000",
    file: 'cpp/include/sinpe/vocabulary.def',
    find: 'SINPE_PRESET(guided_diffusion, "guided-diffusion", cos_first, SINPE_READ(max_period, 10000))',
    replace: 'SINPE_PRESET(guided_diffusion, "guided-diffusion", cos_first, SINPE_READ(max_period, 1000))',
    suites: ['native'],
  },
  {
    id: 'default-rope-type',
    what: "wrong default for one rope type: llama3's highFreqFactor 2 instead of 4",
    file: 'cpp/include/sinpe/vocabulary.def',
    find: 'SINPE_READ(low_freq_factor, 1), SINPE_READ(high_freq_factor, 4),',
    replace: 'SINPE_READ(low_freq_factor, 1), SINPE_READ(high_freq_factor, 2),',
    suites: ['native'],
  },
  {
    id: 'swapped-layouts',
    what: 'cos-first layout written as concat (sin | cos)',
    file: 'cpp/src/kernel.hpp',
    find: 'case Layout::cos_first: return {row0, row0 + h, row0, odd, std::size_t(P.d_model)};',
    replace: 'case Layout::cos_first: return {row0, row0, row0 + h, odd, std::size_t(P.d_model)};',
    suites: ['native'],
  },
  {
    id: 'option-ignored',
    what: "diffusers' scale silently ignored (always 1)",
    file: 'cpp/src/presets.cpp',
    find: 'return timestep(a, p, a.get(Option::freq_shift), a.get(Option::scale));',
    replace: 'return timestep(a, p, a.get(Option::freq_shift), 1.0);',
    suites: ['native'],
  },
  {
    id: 'attention-factor',
    what: "wrong YaRN attention factor: 0.11 ln s + 1 instead of transformers' 0.1 ln s + 1",
    file: 'cpp/src/rope.cpp',
    find: 'return s <= 1 ? 1.0 : 0.1 * k * std::log(s) + 1.0;',
    replace: 'return s <= 1 ? 1.0 : 0.11 * k * std::log(s) + 1.0;',
    suites: ['native'],
  },
  {
    id: 'block-boundary',
    what: "a block boundary skipped: the stepped anchor of the next block is not advanced (rows 64…127 repeat rows 0…63's angles)",
    file: 'cpp/src/kernel.hpp',
    find: '      step_anchors(P, w);\n',
    replace: '      (void)0;\n',
    suites: ['native'],
  },
  {
    id: 'js-chunk-boundary',
    what: 'JS layer: every chunk of rows() after the first starts one row late (a chunk boundary skipped)',
    file: 'js/engine.js',
    find: '      this.check(m.rows(h, start + done, n, dtype), context);\n      out.set(this.#results(dtype, 0, n * d), done * d);\n',
    replace: '      this.check(m.rows(h, start + done + (done > 0 ? 1 : 0), n, dtype), context);\n      out.set(this.#results(dtype, 0, n * d), done * d);\n',
    suites: ['package'],
    files: ['tests/js/api.test.mjs', 'tests/js/properties.test.mjs'],
  },
  {
    id: 'js-placeholder',
    what: "JS layer: a message's {value} placeholder left unfilled",
    file: 'js/errors.js',
    find: '    if (values[key] !== undefined) return values[key];\n',
    replace: "    if (values[key] !== undefined && key !== 'value') return values[key];\n",
    suites: ['package'],
    files: ['tests/js/messages.test.mjs'],
    quick: true,
  },
  {
    id: 'js-option-dropped',
    what: 'JS layer: options.scale silently dropped before the plan (diffusers computes with its default)',
    file: 'js/sinpe.js',
    find: '    entries.push([optionIndex(key), value]);\n',
    replace: "    if (key !== 'scale') entries.push([optionIndex(key), value]);\n",
    suites: ['package'],
    files: ['tests/js/api.test.mjs', 'tests/js/properties.test.mjs'],
  },
];
