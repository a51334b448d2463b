// The displayed formulas of the rope lesson's multimodal and half-precision
// sections, each with an evaluator over the same symbols:
// tests/web/formulas.test.mjs checks each against the package and a float64
// reference. Pure module (no DOM). The rules follow transformers:
// Qwen2VLModel.get_rope_index through modeling_rope_utils.get_mrope_index
// (position ids), apply_multimodal_rotary_pos_emb
// (sectioned pairs), Qwen3VLTextRotaryEmbedding.apply_interleaved_mrope
// (interleaved pairs), PixtralRotaryEmbedding (patch grid).

/**
 * The 3-axis position ids (t, h, w) of a sequence of `before` text tokens,
 * <|vision_start|>, one image of G_{\\mathrm{t}} × G_{\\mathrm{h}} × G_{\\mathrm{w}} patches (evaluate's t, h, w)
 * merged μ × μ (evaluate's m), <|vision_end|> and `after` text tokens; the
 * image starts at position p_0. Returns one [t, h, w] per token.
 */
export const MROPE_POSITIONS = {
  tex: '\\begin{aligned} \\text{text token at position } p &: (p,\\,p,\\,p) \\\\ \\text{image token } (\\tau, \\eta, \\upsilon) &: (p_0+\\tau,\\; p_0+\\eta,\\; p_0+\\upsilon), \\quad 0 \\le \\eta < \\lfloor G_{\\mathrm{h}}/\\mu \\rfloor,\\ 0 \\le \\upsilon < \\lfloor G_{\\mathrm{w}}/\\mu \\rfloor \\\\ \\text{the text after it} &: \\text{from } p_0 + \\max(\\lfloor G_{\\mathrm{h}}/\\mu \\rfloor, \\lfloor G_{\\mathrm{w}}/\\mu \\rfloor) \\text{ on} \\end{aligned}',
  narrow: '\\begin{aligned} &\\text{text token at position } p : (p,\\,p,\\,p) \\\\ &\\text{image token } (\\tau, \\eta, \\upsilon) : \\\\ &\\quad (p_0+\\tau,\\; p_0+\\eta,\\; p_0+\\upsilon), \\\\ &\\quad 0 \\le \\eta < \\lfloor G_{\\mathrm{h}}/\\mu \\rfloor,\\ 0 \\le \\upsilon < \\lfloor G_{\\mathrm{w}}/\\mu \\rfloor \\\\ &\\text{the text after it} : \\\\ &\\quad \\text{from } p_0 + \\max(\\lfloor G_{\\mathrm{h}}/\\mu \\rfloor, \\lfloor G_{\\mathrm{w}}/\\mu \\rfloor) \\text{ on} \\end{aligned}',
  evaluate: ({ before, after, t, h, w, m }) => {
    const out = [];
    for (let p = 0; p <= before; p++) out.push([p, p, p]); // the text and <|vision_start|>
    const p0 = before + 1;
    const gh = Math.floor(h / m);
    const gw = Math.floor(w / m);
    for (let tau = 0; tau < t; tau++) for (let eta = 0; eta < gh; eta++) for (let u = 0; u < gw; u++) out.push([p0 + tau, p0 + eta, p0 + u]);
    const next = p0 + Math.max(gh, gw);
    for (let k = 0; k <= after; k++) out.push([next + k, next + k, next + k]); // <|vision_end|> and the text
    return out;
  },
};

/**
 * The axis a(j) whose position turns pair j (of r/2 pairs) for mrope_section
 * (S_{\\mathrm{t}}, S_{\\mathrm{h}}, S_{\\mathrm{w}}): sectioned (Qwen2-VL, Qwen2.5-VL) or interleaved (Qwen3-VL).
 * The axes' names t, h, w are names (upright), not letters of the notation.
 */
export const MROPE_AXIS = {
  tex: '\\begin{aligned} \\text{sectioned: } a(j) &= \\mathrm{t} \\text{ if } j < S_{\\mathrm{t}},\\quad \\mathrm{h} \\text{ if } S_{\\mathrm{t}} \\le j < S_{\\mathrm{t}} + S_{\\mathrm{h}},\\quad \\mathrm{w} \\text{ otherwise} \\\\ \\text{interleaved: } a(j) &= \\mathrm{h} \\text{ if } j \\equiv 1 \\ (\\mathrm{mod}\\ 3),\\ j < 3 S_{\\mathrm{h}};\\quad \\mathrm{w} \\text{ if } j \\equiv 2 \\ (\\mathrm{mod}\\ 3),\\ j < 3 S_{\\mathrm{w}};\\quad \\mathrm{t} \\text{ otherwise} \\\\ \\theta_j &= p_{a(j)}\\,\\omega_j, \\qquad \\omega_j = b^{-2j/r} \\end{aligned}',
  narrow: '\\begin{aligned} &\\text{sectioned: } \\\\ &\\quad a(j) = \\mathrm{t} \\text{ if } j < S_{\\mathrm{t}}, \\\\ &\\quad \\mathrm{h} \\text{ if } S_{\\mathrm{t}} \\le j < S_{\\mathrm{t}} + S_{\\mathrm{h}}, \\\\ &\\quad \\mathrm{w} \\text{ otherwise} \\\\ &\\text{interleaved: } \\\\ &\\quad a(j) = \\mathrm{h} \\text{ if } j \\equiv 1 \\ (\\mathrm{mod}\\ 3),\\ j < 3 S_{\\mathrm{h}}; \\\\ &\\quad \\mathrm{w} \\text{ if } j \\equiv 2 \\ (\\mathrm{mod}\\ 3),\\ j < 3 S_{\\mathrm{w}}; \\\\ &\\quad \\mathrm{t} \\text{ otherwise} \\\\ &\\theta_j = p_{a(j)}\\,\\omega_j, \\\\ &\\omega_j = b^{-2j/r} \\end{aligned}',
  // 0 = t, 1 = h, 2 = w
  evaluate: ({ j, section, axes }) => {
    if (axes === 'interleaved') {
      for (const a of [1, 2]) if (j % 3 === a && j < 3 * section[a]) return a;
      return 0;
    }
    return j < section[0] ? 0 : j < section[0] + section[1] ? 1 : 2;
  },
};

/**
 * Pixtral's angle of pair j (of r/2) for the patch at row η, column υ
 * (evaluate's y, x): the first r/4 pairs turn with the row at the even
 * frequencies, the others with the column at the odd ones.
 */
export const PIXTRAL_ANGLE = {
  tex: '\\theta_j(\\eta, \\upsilon) = \\begin{aligned} &\\eta\\,\\omega_{2j} && \\text{if } j < r/4 \\ (\\text{row}) \\\\ &\\upsilon\\,\\omega_{2(j - r/4) + 1} && \\text{otherwise (column)} \\end{aligned}, \\qquad \\omega_j = b^{-2j/r}',
  narrow: '\\begin{gathered} \\theta_j(\\eta, \\upsilon) = \\begin{aligned} &\\eta\\,\\omega_{2j} && \\text{if } j < r/4 \\ (\\text{row}) \\\\ &\\upsilon\\,\\omega_{2(j - r/4) + 1} && \\text{otherwise (column)} \\end{aligned}, \\\\ \\omega_j = b^{-2j/r} \\end{gathered}',
  evaluate: ({ y, x, j, r, b }) => (j < r / 4 ? y * b ** ((-2 * (2 * j)) / r) : x * b ** ((-2 * (2 * (j - r / 4) + 1)) / r)),
};

/**
 * The error of a half-precision value ẑ of cos or sin in ulps of the exact
 * value z (evaluate's v, x): the format's fraction bits F (evaluate's m; 10
 * for float16, 7 for bfloat16), its smallest normal exponent E_min (−14, −126).
 */
export const HALF_ULPS = {
  tex: '\\begin{aligned} \\text{error} &= \\frac{|\\hat z - z|}{\\operatorname{ulp}(z)}, \\qquad \\operatorname{ulp}(z) = 2^{\\max(\\lfloor \\log_2 |z| \\rfloor,\\ E_{\\min}) - F} \\\\ \\texttt{float16}&: F = 10,\\ E_{\\min} = -14; \\qquad \\texttt{bfloat16}: F = 7,\\ E_{\\min} = -126 \\end{aligned}',
  narrow: '\\begin{aligned} \\text{error} &= \\frac{|\\hat z - z|}{\\operatorname{ulp}(z)}, \\\\ \\operatorname{ulp}(z) &= 2^{\\max(\\lfloor \\log_2 |z| \\rfloor,\\ E_{\\min}) - F} \\\\ \\texttt{float16}&: F = 10,\\ E_{\\min} = -14; \\\\ \\texttt{bfloat16}&: F = 7,\\ E_{\\min} = -126 \\end{aligned}',
  evaluate: ({ v, x, m, emin }) => {
    const a = Math.abs(x);
    let e = Math.floor(Math.log2(a));
    if (2 ** e > a) e -= 1;
    else if (2 ** (e + 1) <= a) e += 1;
    return Math.abs(v - x) / 2 ** (Math.max(e, emin) - m);
  },
};

/**
 * The usual path and the correctly rounded one, for cos (sin alike):
 * fl₃₂ rounds to float32, rd to the half format (nearest, ties to even),
 * ω̂_j is the float32 frequency, ẑ the half-precision value (evaluate's v).
 */
export const HALF_PATHS = {
  tex: '\\begin{aligned} \\text{usual: } \\hat z &= \\operatorname{rd}\\big(\\mathrm{fl}_{32}(\\cos \\mathrm{fl}_{32}(p\\,\\hat\\omega_j))\\big) \\\\ \\text{correctly rounded: } \\hat z &= \\operatorname{rd}\\big(\\cos p\\,\\omega_j\\big) \\end{aligned}',
  // round: the format's rounding of a number; omegaF32: ω̂_j
  evaluate: ({ p, omega, omegaF32, round }) => ({
    usual: round(Math.fround(Math.cos(Math.fround(Math.fround(p) * omegaF32)))),
    rounded: round(Math.cos(p * omega)),
  }),
};

export const FORMULAS = { MROPE_POSITIONS, MROPE_AXIS, PIXTRAL_ANGLE, HALF_ULPS, HALF_PATHS };
