// The RoPE lesson's displayed formulas.
export const ROTATION = {
  tex: "\\begin{pmatrix} x'_a \\\\ x'_b \\end{pmatrix} = \\begin{pmatrix} \\cos p\\,\\omega_j & -\\sin p\\,\\omega_j \\\\ \\sin p\\,\\omega_j & \\cos p\\,\\omega_j \\end{pmatrix} \\begin{pmatrix} x_a \\\\ x_b \\end{pmatrix}, \\qquad \\omega_j = b^{-2j/r}",
};

export const SCALING_FORMULAS = {
  default: { tex: '\\omega_j = b^{-2j/r}' },
  linear: { tex: "\\omega'_j = \\omega_j / s" },
  dynamic: { tex: "\\begin{aligned} b' &= b\\left(\\frac{s\\,N}{L} - (s-1)\\right)^{\\frac{r}{r-2}} \\\\ \\omega'_j &= b'^{\\,-2j/r} \\end{aligned}" },
  yarn: {
    tex: "\\begin{aligned} \\omega'_j &= (1-\\gamma_j)\\,\\frac{\\omega_j}{s} + \\gamma_j\\,\\omega_j \\\\ \\gamma_j &= 1 - \\operatorname{clamp}\\!\\left(\\frac{j - \\ell}{h - \\ell}, 0, 1\\right) \\\\ \\ell &= c(\\beta_{\\text{fast}}),\\quad h = c(\\beta_{\\text{slow}}) \\\\ c(\\beta) &= \\frac{r \\ln\\!\\big(L / (2\\pi\\beta)\\big)}{2 \\ln b} \\end{aligned}",
  },
  // aligned, not cases: a tall \{ is drawn by KaTeX with an inline-styled SVG, which the CSP refuses
  llama3: {
    tex: "\\begin{aligned} \\omega'_j &= \\omega_j && \\text{if } \\lambda_j < L/h_f \\\\ \\omega'_j &= \\omega_j / s && \\text{if } \\lambda_j > L/l_f \\\\ \\omega'_j &= (1-g)\\,\\omega_j/s + g\\,\\omega_j && \\text{otherwise,} \\\\ g &= \\frac{L/\\lambda_j - l_f}{h_f - l_f} \\end{aligned}",
  },
};
