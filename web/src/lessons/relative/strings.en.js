// English strings of the relative lesson, merged into the site's table at
// these same key paths (i18n/merge.js). Lesson text may use $tex$, `code` and **bold**.
export default {
  // what the learner can do after this lesson, on the course map
  courseMap: { outcomes: { relative: 'show that moving m positions is one rotation per frequency, whatever the position' } },
  lessons: {
    relative: {
      nav: '{lesson:relative} · Relative position',
      title: 'Relative position is a rotation',
      intro: ['Why sines and cosines in pairs? Because moving $m$ positions further turns each (sin, cos) pair by the angle $\\omega_i m$, whatever the starting position. So PE(pos + m) is a fixed linear map $M(m)$ of PE(pos): the model can learn to look “m tokens back” with one matrix.'],
      rotationText: ['$M(m)$ is block-diagonal: one 2×2 rotation per frequency, acting on columns $2i$ and $2i+1$. It depends on $m$ only, never on $pos$. This is the angle-addition rule $\\sin(\\varphi+\\psi) = \\sin \\varphi\\cos \\psi + \\cos \\varphi\\sin \\psi$, $\\cos(\\varphi+\\psi) = \\cos \\varphi\\cos \\psi - \\sin \\varphi\\sin \\psi$.'],
      checkTitle: 'Checked live',
      check: 'Rotating PE({pos}) by m = {k} and comparing with sinpe’s PE({target}): largest difference {error}.',
      tableSome: 'The first {shown} of the {half} pairs; the check above compares all {half}.',
      tableAll: 'All {half} pairs.',
      pass: '✓ equal up to float32 rounding',
      failText: '✗ larger than float32 rounding',
      dotTitle: 'Dot products depend only on the offset',
      dotText: ['The dot product of two encodings is a sum of cosines of $\\omega_i (p\' - p)$: it depends on the offset $p\' - p$ alone. Every diagonal of the matrix below therefore has one colour. It is largest on the main diagonal and falls off with distance, though not monotonically, and it is symmetric: the dot product cannot tell before from after.'],
      dotLabel: 'Dot products of the encodings of positions p and p′',
      dotBar: 'PE(p)·PE(p′) / (d/2)',
      posI: 'position p',
      posJ: 'position p′',
      readout: 'p = {i}, p′ = {j}, offset p′ − p = {offset}: PE(p)·PE(p′) = {dot} ({normalized} of the maximum d/2).',
      diagonal: 'Largest spread of a diagonal (cells with the same offset): {spread}, out of a maximum {half}: float32 rounding only.',
    },
  },
  summary: {
    relative: [
      'PE(p + m) = M(m) · PE(p): a fixed rotation per pair, the same for every p.',
      'The dot product $PE(p) \\cdot PE(p+m) = \\sum_i \\cos(m\\,\\omega_i)$ depends only on the offset $m$.',
      'It falls off, not monotonically, as |m| grows.',
    ],
  },
  questions: {
    relative: {
      onlyK: {
        prompt: 'For a fixed offset m, does $PE(p) \\cdot PE(p+m)$ change with p?',
        choices: { depends: 'yes, it depends on p', onlyK: 'no, it depends only on m' },
        explain: 'It equals $\\sum_i \\cos(\\omega_i m)$, with no p in it: PE({p1})·PE({q1}) = {v1} and PE({p2})·PE({q2}) = {v2}.',
      },
      diagonal: {
        prompt: 'Where on the map is $PE(p) \\cdot PE(p\')$ largest?',
        choices: { diagonal: 'on the diagonal, p′ = p', far: 'far from the diagonal', corner: 'only at (0, 0)' },
        explain: 'On the diagonal every term is $\\cos 0 = 1$, so the dot product is $d/2$ = {half} (the package’s rows give {value} at position 3); one step off the diagonal it is already {next}.',
      },
    },
  },
};
