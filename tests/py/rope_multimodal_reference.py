#!/usr/bin/env python3
"""An independent float64 reference for multi-axis RoPE (M-RoPE, 2-D vision
RoPE), the rotation of q/k in both layouts, get_rope_index, correctly rounded
float16 / bfloat16, and per-layer-type config resolution, written from Hugging
Face transformers' own source (and GPT-J's rotate_every_two for the interleaved
layout) without reading sinpe's implementation.

Sources (the rules below cite them by these tags):

[Q2VL]  transformers `models/qwen2_vl/modeling_qwen2_vl.py`:
        `apply_multimodal_rotary_pos_emb` (`mrope_section = mrope_section * 2`;
        `cos = torch.cat([m[i % 3] for i, m in enumerate(cos.split(mrope_section,
        dim=-1))], dim=-1)`), `Qwen2VLRotaryEmbedding.forward` (inv_freq expanded
        to 3 axes, `emb = torch.cat((freqs, freqs), dim=-1)`,
        `cos = emb.cos() * self.attention_scaling`), `VisionRotaryEmbedding`
        (`inv_freq = 1.0 / (theta ** (torch.arange(0, dim, 2) / dim))`,
        `forward(seqlen) = outer(arange(seqlen), inv_freq)`),
        `Qwen2VisionTransformerPretrainedModel.__init__`
        (`self.rotary_pos_emb = VisionRotaryEmbedding(head_dim // 2)`) and
        `.rot_pos_emb` (row ids then column ids per patch,
        `rotary_pos_emb_full[pos_ids].flatten(1)`), `apply_rotary_pos_emb_vision`
        (`cos = freqs.cos()`, repeated to the head, `rotate_half`),
        `Qwen2VLModel.get_rope_index` (t_index = arange(llm_grid_t)).
[Q25VL] transformers `models/qwen2_5_vl/modeling_qwen2_5_vl.py`,
        huggingface/transformers@00b676f8f0489b88652a31d70751cc540dd06305,
        `Qwen2_5_VLModel.get_rope_index`: images get second_per_grid_t = 0; a
        video gets `second_per_grid_ts[video_index]` (1.0 without the list);
        `second_per_grid_t = torch.as_tensor(second_per_grid_t,
        dtype=range_tensor.dtype)` where range_tensor = torch.arange(llm_grid_t)
        is int64, so the seconds are truncated to an integer before
        `time_tensor = expanded_range * second_per_grid_t *
        self.config.vision_config.tokens_per_second`; `t_index =
        time_tensor.long().flatten()`.
        VERSIONS: transformers 4.49–4.5x multiplied the float seconds
        (`time_tensor = expanded_range * second_per_grid_t * tokens_per_second`,
        second_per_grid_t a float tensor element) and truncated the product with
        `.long()`; `secondsAsFloat: true` in a request selects that reading.
[Q3VL]  transformers `models/qwen3_vl/modeling_qwen3_vl.py`,
        huggingface/transformers@00709b862bb8f14a5435bb7195592579168496e4:
        `Qwen3VLTextRotaryEmbedding.forward` (inv_freq for 3 axes; `freqs =
        self.apply_interleaved_mrope(freqs, self.mrope_section)`; `emb =
        torch.cat((freqs, freqs), dim=-1)`; `self.mrope_section =
        config.rope_parameters.get("mrope_section", [24, 20, 20])`),
        `apply_interleaved_mrope` (`freqs_t = freqs[0]`; `for dim, offset in
        enumerate((1, 2), start=1): length = mrope_section[dim] * 3; idx =
        slice(offset, length, 3); freqs_t[..., idx] = freqs[dim, ..., idx]`),
        `Qwen3VLModel.get_rope_index` (`video_grid_thw =
        torch.repeat_interleave(video_grid_thw, video_grid_thw[:, 0], dim=0);
        video_grid_thw[:, 0] = 1`: one grid per frame, frames separated by
        timestamps in the text).
[PIX]   transformers `models/pixtral/modeling_pixtral.py`:
        `PixtralRotaryEmbedding.__init__` (`freqs = 1.0 / (base **
        (torch.arange(0, dim, 2).float() / dim))`; `freqs_h = torch.outer(h,
        freqs[::2])`; `freqs_w = torch.outer(w, freqs[1::2])`; `inv_freq =
        torch.cat([freqs_h[:, None, :].repeat(1, max_patches_per_side, 1),
        freqs_w[None, :, :].repeat(max_patches_per_side, 1, 1)],
        dim=-1).reshape(-1, dim // 2)`; buffer `torch.cat((inv_freq, inv_freq),
        dim=-1)`), `position_ids_in_meshgrid` (`ids = h_grid * max_width +
        v_grid`: row-major patches), `apply_rotary_pos_emb` (`rotate_half`).
[GPTJ]  transformers `models/gptj/modeling_gptj.py`: `rotate_every_two`
        (`x1 = x[:, :, :, ::2]; x2 = x[:, :, :, 1::2]; torch.stack((-x2, x1),
        dim=-1).flatten(-2)`), `apply_rotary_pos_emb` (`sin =
        torch.repeat_interleave(sin, 2, 3)`; `(tensor * cos) +
        (rotate_every_two(tensor) * sin)`).
[LLAMA] transformers `models/llama/modeling_llama.py`: `rotate_half` (`x1 = x[...,
        : d // 2]; x2 = x[..., d // 2 :]; torch.cat((-x2, x1), dim=-1)`),
        `apply_rotary_pos_emb` (`q * cos + rotate_half(q) * sin`); partial
        rotary as in `models/phi/modeling_phi.py` `PhiAttention.forward`
        (`query_rot, query_pass = query_states[..., : self.rotary_ndims],
        query_states[..., self.rotary_ndims :]`).
[DSV3]  transformers `models/deepseek_v3/modeling_deepseek_v3.py`:
        `apply_rotary_pos_emb_interleave` (`q = q.view(b, h, s, d // 2,
        2).transpose(4, 3).reshape(b, h, s, d)` then the rotate_half rotation:
        pair (2j, 2j+1) turns by the angle of frequency j, the result left in
        the de-interleaved order); `configuration_deepseek_v3.py`
        `DeepseekV3Config(rope_interleave=True)` (the default).
[RU5]   transformers v5 `modeling_rope_utils.py`
        (fwerkor/transformers@ff9206d01bde3d1077f34fedae9015d5f8aff2a6),
        `RotaryEmbeddingConfigMixin.standardize_rope_params`: Case 1 (keys of
        rope_parameters not a subset of layer_types: one dict) and Case 2 (a
        dict per layer type: `rope_type` from `type` else "default",
        `rope_theta` set by default from the config's, partial_rotary_factor
        assigned, original_max_position_embeddings defaulted to
        max_position_embeddings for llama3/yarn/longrope).
[G3]    transformers v5 `models/gemma3/configuration_gemma3.py`
        `Gemma3TextConfig`: `default_theta = {"global": 1_000_000.0, "local":
        10_000.0}`; `__post_init__` (`layer_types` default: "sliding_attention"
        if `(i + 1) % sliding_window_pattern` else "full_attention", pattern 6);
        `convert_rope_params_to_dict` (default {"sliding_attention":
        {"rope_type": "default"}, "full_attention": {"rope_type": "default"}};
        `rope_scaling` updates full_attention; full_attention rope_theta from
        `rope_theta`, sliding_attention rope_theta from `rope_local_base_freq`).
        transformers 4.5x `Gemma3TextModel.__init__` said the same
        (`config.rope_theta = config.rope_local_base_freq; config.rope_scaling =
        {"rope_type": "default"}` for `rotary_emb_local`).
[MRI]   transformers main `modeling_rope_utils.py`, the M-RoPE section
        (`get_mrope_index`, `_mrope_index_interleaved_runs`,
        `get_mrope_vision_positions`, `_mrope_place_positions`,
        `get_mrope_text_positions`): every Qwen VL model's get_rope_index now
        wraps it. Read in the search index's stored copy (file id 64056737866;
        the index names no repository for it). It differs from the older
        per-model loops ([Q2VL]/[Q25VL]/[Q3VL] get_rope_index, kept as
        get_rope_index_legacy): after a vision block the position moves on by
        max(h, w) / merge (not past the block's largest id), padded tokens keep
        0 (not 1) and the delta counts the unpadded tokens only.
[MRIB]  the same modeling_rope_utils.py copy as [MRI], read for the batch:
        `get_mrope_index`, `_mrope_index_interleaved_runs` (grid iterators
        shared by the rows), `_mrope_place_positions`,
        `get_mrope_vision_positions`, `_mrope_positions_block`; the one-line
        `get_rope_index` wrapper (`return get_mrope_index(self.config,
        input_ids, mm_token_type_ids, ...)`) in the search index's stored copy
        with file id 64029543642 (it names no repository).
[RU5M]  the same modeling_rope_utils.py copy as [MRI]:
        `_compute_proportional_rope_parameters` (Gemma 4's full-attention
        layers).
[GEMMA4] transformers `models/gemma4/modeling_gemma4.py`
        `Gemma4TextRotaryEmbedding.__init__`: proportional RoPE is initialised
        with `head_dim_key="global_head_dim"` (read in several stored copies
        that quote it; the model file itself was not in the index).
[Q2CFG] transformers `models/qwen2_vl/configuration_qwen2_vl.py`: `if
        self.rope_scaling["type"] == "mrope": self.rope_scaling["type"] =
        "default"`.

Shapes (sinpe's): a cache is (n, r/2), row i the token, column j the pair j
(the distinct half of transformers' (n, r) `cat((freqs, freqs))`). Multi-axis
positions are token-major: positions[i][a] is token i's position on axis a.
Every mapping from transformers' tensors to these shapes is derived at the
function that makes it.

Command line:
  rope_multimodal_reference.py --json -      requests (JSON list) in, answers out
  rope_multimodal_reference.py --self-test   the rounding and the index rules on
                                             values fixed by their definitions
"""

import argparse
import base64
import itertools
import json
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rope_reference  # noqa: E402  (the text-RoPE reference beside this file)

# ---------------------------------------------------------------------------
# Which axis and which frequency each pair j of the (n, r/2) cache uses
# ---------------------------------------------------------------------------


def sectioned_axes(sections, half):
    """[Q2VL] apply_multimodal_rotary_pos_emb: the doubled width r splits into
    chunks mrope_section * 2 = [s0, s1, s2, s0, s1, s2]; chunk i takes axis
    i % 3. (torch.split refuses sizes that do not add up to r, so
    sum(sections) == r/2.) Column j < r/2 is in chunk k where s0+…+s(k-1) <= j
    < s0+…+sk, axis k; column j + r/2 is in chunk k + 3, axis (k + 3) % 3 = k:
    both halves agree, so the (n, r/2) cache holds everything."""
    if sum(sections) != half:
        raise ValueError(f"mrope_section {sections} adds up to {sum(sections)}, r/2 is {half}")
    axes = []
    for a, s in enumerate(sections):
        axes += [a] * s
    return np.asarray(axes, dtype=np.int64)


def interleaved_axes(sections, half):
    """[Q3VL] apply_interleaved_mrope on freqs of width r/2 (before the
    doubling): column j takes axis 1 where j % 3 == 1 and j < 3*s1, axis 2 where
    j % 3 == 2 and j < 3*s2, else axis 0 (freqs_t = freqs[0]). The doubling
    `cat((freqs, freqs))` comes after, so the (n, r/2) cache is freqs_t.
    Sections with more than three axes are not in the source; refused."""
    if len(sections) != 3:
        raise ValueError("apply_interleaved_mrope has three axes (T, H, W)")
    axes = np.zeros(half, dtype=np.int64)
    for dim, offset in ((1, 1), (2, 2)):
        length = sections[dim] * 3
        axes[offset:length:3] = dim
    return axes


def axis_plan(mode, rotary_dim, theta, sections, inv_freq=None):
    """(axis per column, frequency per column), each of length r/2.

    sectioned / interleaved: the text model's inv_freq (any rope type; the
    caller passes it), axes as above.
    axial: [Q2VL] VisionRotaryEmbedding per section. The vision tower makes
    VisionRotaryEmbedding(head_dim // 2): head_dim/4 frequencies
    theta^(-2k/(head_dim/2)); rot_pos_emb puts the row angles (row · inv_k)
    then the column angles (col · inv_k) side by side, r/2 columns, and
    apply_rotary_pos_emb_vision repeats them to the head (cat). So section a
    with s_a pairs is VisionRotaryEmbedding(2·s_a): inv_k = theta^(-2k/(2 s_a)),
    k < s_a, restarting at every section. Qwen2-VL's own sections are [r/4, r/4].
    pixtral: [PIX] freqs = theta^(-(0, 2, …, r-2)/r); column j < r/4 is the row
    (axis 0) with freqs[2j]; column r/4 + k is the column index (axis 1) with
    freqs[2k + 1]. (r/2 must be even.)"""
    half = rotary_dim // 2
    if mode in ("sectioned", "interleaved"):
        if inv_freq is None:
            inv_freq = rope_reference.default_inv_freq(theta, rotary_dim)
        inv_freq = np.asarray(inv_freq, dtype=np.float64)
        axes = sectioned_axes(sections, half) if mode == "sectioned" else interleaved_axes(sections, half)
        return axes, inv_freq
    if mode == "axial":
        if sum(sections) != half:
            raise ValueError(f"sections {sections} add up to {sum(sections)}, r/2 is {half}")
        axes, freqs = [], []
        for a, s in enumerate(sections):
            # VisionRotaryEmbedding(dim=2s): 1 / theta ** (arange(0, 2s, 2) / 2s).
            freqs += list(1.0 / (float(theta) ** (np.arange(0, 2 * s, 2, dtype=np.float64) / (2.0 * s))))
            axes += [a] * s
        return np.asarray(axes, dtype=np.int64), np.asarray(freqs, dtype=np.float64)
    if mode == "pixtral":
        if half % 2:
            raise ValueError("pixtral needs rotary_dim % 4 == 0 (freqs[::2] and freqs[1::2] of equal length)")
        freqs = 1.0 / (float(theta) ** (np.arange(0, rotary_dim, 2, dtype=np.float64) / float(rotary_dim)))
        axes = np.asarray([0] * (half // 2) + [1] * (half // 2), dtype=np.int64)
        return axes, np.concatenate([freqs[0::2], freqs[1::2]])
    raise ValueError(f"unknown multi-axis mode {mode!r}")


def multi_axis_angles(positions, axes, freqs):
    """angle[i, j] = positions[i, axes[j]] · freqs[j] in float64: [Q2VL]/[Q3VL]
    `freqs = inv_freq_expanded @ position_ids_expanded` per axis, then the
    section choice picks one axis per column; [PIX] `inv_freq[position_ids]`
    holds row·freqs[::2] | col·freqs[1::2]."""
    p = np.asarray(positions, dtype=np.float64)
    if p.ndim == 1:
        p = p.reshape(-1, 1)
    return p[:, axes] * freqs.reshape(1, -1)


def grid_positions(height, width):
    """[PIX] position_ids_in_meshgrid: patch m = i*width + j at row i, column j
    (meshgrid indexing="ij", reshape(-1, 2)); positions (row, col)."""
    rows = np.repeat(np.arange(height, dtype=np.float64), width)
    cols = np.tile(np.arange(width, dtype=np.float64), height)
    return np.stack([rows, cols], axis=1)


def qwen2vl_vision_order(t, h, w, merge):
    """[Q2VL] rot_pos_emb: the vision tower's own patch order (merge windows of
    merge × merge patches kept together): hpos = arange(h)[:, None].expand(h, w)
    .reshape(h//m, m, w//m, m).permute(0, 2, 1, 3).flatten(), wpos likewise,
    repeated t times. Documented for users; sinpe's grid is row-major."""
    hpos = np.broadcast_to(np.arange(h)[:, None], (h, w))
    wpos = np.broadcast_to(np.arange(w)[None, :], (h, w))

    def order(a):
        return a.reshape(h // merge, merge, w // merge, merge).transpose(0, 2, 1, 3).reshape(-1)

    one = np.stack([order(hpos), order(wpos)], axis=1)
    return np.tile(one, (t, 1)).astype(np.float64)


# ---------------------------------------------------------------------------
# Rotation of q / k
# ---------------------------------------------------------------------------


def rotate(x, angles, head_dim, rotary_dim, layout, attention_factor=1.0):
    """Rotate x of shape (n, heads, head_dim) (float64) by angles (n, r/2).

    half [LLAMA]: cos = cat(c, c)·att over the first r dims, q·cos +
    rotate_half(q)·sin, so pair j is (j, j + r/2):
      out[j] = x[j]·c_j − x[j+r/2]·s_j, out[j+r/2] = x[j+r/2]·c_j + x[j]·s_j.
    interleaved [GPTJ]: cos/sin repeat_interleave(2), q·cos +
    rotate_every_two(q)·sin, pair j is (2j, 2j+1) in place. [DSV3]'s
    apply_rotary_pos_emb_interleave rotates the same pairs by the same angles and
    leaves the result de-interleaved; re-interleaving it gives this.
    Dimensions from r on pass through (partial rotary, [LLAMA] / Phi)."""
    x = np.array(x, dtype=np.float64, copy=True)
    c = np.cos(angles)[:, None, :] * attention_factor
    s = np.sin(angles)[:, None, :] * attention_factor
    half = rotary_dim // 2
    if layout == "half":
        a = x[:, :, :half].copy()
        b = x[:, :, half:rotary_dim].copy()
        x[:, :, :half] = a * c - b * s
        x[:, :, half:rotary_dim] = b * c + a * s
    elif layout == "interleaved":
        a = x[:, :, 0:rotary_dim:2].copy()
        b = x[:, :, 1:rotary_dim:2].copy()
        x[:, :, 0:rotary_dim:2] = a * c - b * s
        x[:, :, 1:rotary_dim:2] = b * c + a * s
    else:
        raise ValueError(f"unknown layout {layout!r}")
    return x


def rotate_deepseek(x, angles, rotary_dim, attention_factor=1.0):
    """[DSV3] apply_rotary_pos_emb_interleave literally: de-interleave, then the
    rotate_half rotation; the output is in the de-interleaved order. Used by the
    self-test to check that rotate(..., 'interleaved') is its re-interleaving."""
    x = np.array(x, dtype=np.float64, copy=True)
    n, h, d = x.shape
    r = x[:, :, :rotary_dim].reshape(n, h, rotary_dim // 2, 2).transpose(0, 1, 3, 2).reshape(n, h, rotary_dim)
    c = np.concatenate([np.cos(angles)] * 2, axis=-1)[:, None, :] * attention_factor
    s = np.concatenate([np.sin(angles)] * 2, axis=-1)[:, None, :] * attention_factor
    rot_half = np.concatenate([-r[..., rotary_dim // 2 :], r[..., : rotary_dim // 2]], axis=-1)
    return r * c + rot_half * s


# ---------------------------------------------------------------------------
# Correctly rounded float16 / bfloat16, by bits
# ---------------------------------------------------------------------------

# (significand bits p including the implicit one, minimum normal exponent,
# maximum exponent, exponent bias, exponent field width): IEEE 754 binary16,
# and bfloat16 (float32's exponent with 8 significand bits).
FORMATS = {
    "float16": (11, -14, 15, 15, 5),
    "bfloat16": (8, -126, 127, 127, 8),
}


def round_bits(x, fmt):
    """The bit pattern of float64 x rounded once, to nearest with ties to
    even, into fmt ('float16' or 'bfloat16'), by integer arithmetic on x's
    exact value: x = M·2^E with M < 2^53 an integer."""
    p, emin, emax, bias, ebits = FORMATS[fmt]
    x = float(x)
    sign = (1 << (ebits + p - 1)) if math.copysign(1.0, x) < 0 else 0
    inf_bits = ((1 << ebits) - 1) << (p - 1)
    if math.isnan(x):
        return sign | inf_bits | (1 << (p - 2))
    a = abs(x)
    if math.isinf(a):
        return sign | inf_bits
    if a == 0.0:
        return sign
    m, e = math.frexp(a)  # a = m · 2^e, 0.5 <= m < 1
    M = int(m * (1 << 53))  # exact: m has at most 53 significant bits
    E = e - 53
    # The quantum at a's binade (or the subnormal quantum below 2^emin).
    lead = e - 1
    qexp = max(lead, emin) - (p - 1)
    shift = qexp - E
    if shift <= 0:
        q = M << (-shift)
    else:
        q = M >> shift
        rem = M - (q << shift)
        halfway = 1 << (shift - 1)
        if rem > halfway or (rem == halfway and (q & 1)):
            q += 1
    # value = q · 2^qexp. Normalize: q may have reached 2^p after rounding up.
    if q == 0:
        return sign
    if qexp == emin - (p - 1) and q < (1 << (p - 1)):
        return sign | q  # subnormal: exponent field 0
    while q >= (1 << p):
        q >>= 1  # exact: q was 2^p (a carry out of the significand)
        qexp += 1
    exponent = qexp + (p - 1)
    if exponent > emax:
        return sign | inf_bits
    return sign | ((exponent + bias) << (p - 1)) | (q - (1 << (p - 1)))


def bits_to_float(bits, fmt):
    """The float64 value of a bit pattern of fmt."""
    p, emin, emax, bias, ebits = FORMATS[fmt]
    sign = -1.0 if bits >> (ebits + p - 1) else 1.0
    field = (bits >> (p - 1)) & ((1 << ebits) - 1)
    frac = bits & ((1 << (p - 1)) - 1)
    if field == (1 << ebits) - 1:
        return sign * math.inf if frac == 0 else math.nan
    if field == 0:
        return sign * math.ldexp(frac, emin - (p - 1))
    return sign * math.ldexp(frac + (1 << (p - 1)), field - bias - (p - 1))


def round_array(values, fmt):
    values = np.asarray(values, dtype=np.float64).ravel()
    return np.fromiter((round_bits(v, fmt) for v in values), dtype=np.uint16, count=values.size)


def numpy_float16_bits(values):
    """numpy's float64 -> float16 cast (npy_double_to_half rounds from the
    double's bits once); checked against round_bits by --self-test."""
    with np.errstate(over="ignore"):
        return np.asarray(values, dtype=np.float64).astype(np.float16).view(np.uint16)


def ambiguous_alternates(values, widths, fmt):
    """Where the float64 reference value v cannot decide the rounding (v ± w
    round differently: v lies within w of a midpoint), the other candidate's
    bits; else the same bits. w bounds the float64 evaluation's own error."""
    values = np.asarray(values, dtype=np.float64).ravel()
    widths = np.broadcast_to(np.asarray(widths, dtype=np.float64).ravel(), values.shape)
    out = np.empty(values.size, dtype=np.uint16)
    for k, (v, w) in enumerate(zip(values, widths)):
        b = round_bits(v, fmt)
        lo, hi = round_bits(v - w, fmt), round_bits(v + w, fmt)
        out[k] = hi if lo == b and hi != b else (lo if lo != b else b)
    return out


def usual_path_float16(positions, axes, freqs, attention_factor, fmt):
    """The usual pipeline [Q2VL]/[LLAMA] forward under autocast(enabled=False):
    inv_freq in float32, positions in float32, the angle a float32 product,
    cos/sin in float32, times attention_scaling in float32, then
    `.to(dtype=x.dtype)`: a cast of the float32 value (one more rounding)."""
    p = np.asarray(positions, dtype=np.float64)
    if p.ndim == 1:
        p = p.reshape(-1, 1)
    inv32 = freqs.astype(np.float32)
    ang32 = (p[:, axes].astype(np.float32) * inv32.reshape(1, -1)).astype(np.float32)
    att = np.float32(attention_factor)
    c32 = (np.cos(ang32).astype(np.float32) * att).astype(np.float32)
    s32 = (np.sin(ang32).astype(np.float32) * att).astype(np.float32)
    if fmt == "float16":
        return c32.astype(np.float16).astype(np.float64), s32.astype(np.float16).astype(np.float64)
    # torch's float32 -> bfloat16 cast rounds to nearest even: the same as
    # rounding the float32 value (exact in float64) once.
    cb = np.vectorize(lambda v: bits_to_float(round_bits(float(v), "bfloat16"), "bfloat16"))
    return cb(c32), cb(s32)


# ---------------------------------------------------------------------------
# get_rope_index for one sequence
# ---------------------------------------------------------------------------


def get_rope_index_legacy(req):
    """[Q2VL]/[Q25VL]/[Q3VL] get_rope_index as each model file wrote it before
    [MRI] (transformers 4.5x and the stored huggingface/transformers copies
    cited above), for one row of input_ids: returns (positions (3, n) as Python
    ints, rope delta). Kept to report where the two readings differ.

    Every rule of the three models' loops, in order:
    - without any grid: arange (delta 0), or with an attention mask
      `cumsum(mask) - 1` with masked tokens set to 1, delta max + 1 - n;
    - with grids: the masked tokens keep the initial 1 (`torch.ones`), the
      unmasked ones are numbered as a sequence of their own; the images / videos
      counted are the tokens right after each vision_start token;
    - per vision block, the next image or video token from st (the earlier of
      the two in the text), its grid (t, h // merge, w // merge); the text
      before it numbered from st_idx = previous max + 1; the block's t/h/w ids
      added to text_len + st_idx; st moves past t·h·w tokens;
    - t ids: Qwen2-VL and Qwen3-VL arange(t); Qwen2.5-VL arange(t) ·
      second_per_grid_t · tokens_per_second (images 0), see [Q25VL] for the
      integer cast; Qwen3-VL first splits each video into t grids of t = 1;
    - the text after the last block from max + 1; delta = max + 1 − n (n the
      full row length, masked tokens included)."""
    ids = [int(v) for v in req["inputIds"]]
    n = len(ids)
    model = req.get("model", "qwen2-vl")
    merge = int(req.get("spatialMergeSize", 2))
    image_id = req.get("imageTokenId")
    video_id = req.get("videoTokenId")
    start_id = req.get("visionStartTokenId")
    image_grid = [list(map(int, g)) for g in req.get("imageGridThw") or []]
    video_grid = [list(map(int, g)) for g in req.get("videoGridThw") or []]
    has_image_grid = req.get("imageGridThw") is not None
    has_video_grid = req.get("videoGridThw") is not None
    seconds = req.get("secondPerGridTs")
    tokens_per_second = req.get("tokensPerSecond", 2)
    mask = req.get("attentionMask")
    if model == "qwen3-vl" and has_video_grid:
        # [Q3VL] repeat_interleave(video_grid_thw, t) with t set to 1.
        video_grid = [[1, h, w] for (t, h, w) in video_grid for _ in range(t)]
    if not (has_image_grid or has_video_grid):
        if mask is None:
            return [list(range(n))] * 3, 0
        pos, acc = [], 0
        for m in mask:
            acc += int(m)
            pos.append(acc - 1 if int(m) != 0 else 1)
        return [pos] * 3, max(pos) + 1 - n
    keep = [i for i in range(n) if mask is None or int(mask[i]) == 1]
    tokens = [ids[i] for i in keep]
    starts = [k for k, t in enumerate(tokens) if t == start_id]
    # `vision_tokens = input_ids[vision_start_indices + 1]` (a start token at
    # the very end would index past the row: torch raises).
    if any(k + 1 >= len(tokens) for k in starts):
        raise ValueError("a vision_start token ends the sequence (transformers raises IndexError)")
    after = [tokens[k + 1] for k in starts]
    image_nums = sum(1 for t in after if t == image_id)
    video_nums = sum(1 for t in after if t == video_id)
    parts = []  # lists of (t, h, w) ids
    st = 0
    image_index = video_index = 0
    remain_images, remain_videos = image_nums, video_nums
    for _ in range(image_nums + video_nums):
        if image_id in tokens and remain_images > 0:
            ed_image = tokens.index(image_id, st)
        else:
            ed_image = len(tokens) + 1
        if video_id in tokens and remain_videos > 0:
            ed_video = tokens.index(video_id, st)
        else:
            ed_video = len(tokens) + 1
        if ed_image < ed_video:
            t, h, w = image_grid[image_index]
            second = 0
            image_index += 1
            remain_images -= 1
            ed = ed_image
        else:
            t, h, w = video_grid[video_index]
            second = seconds[video_index] if seconds is not None else 1.0
            video_index += 1
            remain_videos -= 1
            ed = ed_video
        gt, gh, gw = t, h // merge, w // merge
        text_len = ed - st
        st_idx = (max(max(a) for a in parts[-1]) + 1) if parts else 0
        parts.append([[st_idx + k for k in range(text_len)] for _ in range(3)])
        if model == "qwen2.5-vl":
            if req.get("secondsAsFloat"):
                # VERSIONS (4.49–4.5x): float product, .long() truncates toward 0.
                t_ids = [int(k * float(second) * tokens_per_second) for k in range(gt)]
            else:
                # [Q25VL] torch.as_tensor(second, dtype=int64) truncates first.
                t_ids = [int(k * int(second) * tokens_per_second) for k in range(gt)]
        else:
            t_ids = list(range(gt))
        tt, hh, ww = [], [], []
        for a in range(gt):
            for b in range(gh):
                for c in range(gw):
                    tt.append(t_ids[a] + text_len + st_idx)
                    hh.append(b + text_len + st_idx)
                    ww.append(c + text_len + st_idx)
        parts.append([tt, hh, ww])
        st = ed + gt * gh * gw
    if st < len(tokens):
        st_idx = (max(max(a) for a in parts[-1] if a) + 1) if parts else 0
        parts.append([[st_idx + k for k in range(len(tokens) - st)] for _ in range(3)])
    llm = [sum((p[a] for p in parts), []) for a in range(3)]
    if len(llm[0]) != len(tokens):
        # torch would fail to scatter the ids into the row (shape mismatch).
        raise ValueError(f"{len(llm[0])} position ids for {len(tokens)} tokens (grids do not match the tokens)")
    out = [[1] * n for _ in range(3)]
    for a in range(3):
        for k, i in enumerate(keep):
            out[a][i] = llm[a][k]
    delta = max(max(a) for a in llm) + 1 - n
    return out, delta


def get_rope_index(req):
    """[MRI] get_mrope_index with the "interleaved_runs" layout, for one row of
    input_ids: (positions (3, n) as Python ints, rope delta). `legacy: true`
    selects get_rope_index_legacy.

    - No grid at all: [MRI] get_mrope_text_positions: `cumsum(mask) - 1`,
      padded slots 1, delta max + 1 - sum(mask) (arange and 0 without a mask).
    - Else _mrope_place_positions: padded slots keep 0 (`padded_position=0`);
      the unpadded tokens are cut into runs of equal mm_token_type_ids (the
      processor marks image_token_id 1, video_token_id 2, the rest 0);
    - a text run: arange(len) + current on all three axes; current += len;
    - an image / video run: the next grid of its kind ([Q3VL] and
      `timestamped_video_frames`: each video split into t grids of t = 1);
      get_mrope_vision_positions(current, grid, spatial_merge_size,
      time_interval): t ids `(arange(t) * time_interval).to(long)` + current,
      h ids arange(h // m) + current, w ids arange(w // m) + current, in
      meshgrid "ij" order (t, then h, then w); time_interval =
      tokens_per_second * int(second_per_grid_t) for a video when the vision
      config has tokens_per_second (Qwen2.5-VL), else 1;
      current += max(h, w) // m (the grid's t extent is not counted);
    - delta = max + 1 - the number of unpadded tokens."""
    if req.get("legacy"):
        return get_rope_index_legacy(req)
    ids = [int(v) for v in req["inputIds"]]
    n = len(ids)
    model = req.get("model", "qwen2-vl")
    merge = int(req.get("spatialMergeSize", 2))
    image_id, video_id = req.get("imageTokenId"), req.get("videoTokenId")
    mask = req.get("attentionMask")
    if req.get("imageGridThw") is None and req.get("videoGridThw") is None:
        if mask is None:
            return [list(range(n))] * 3, 0
        pos, acc = [], 0
        for m in mask:
            acc += int(m)
            pos.append(acc - 1 if int(m) != 0 else 1)
        return [pos] * 3, max(pos) + 1 - sum(int(m) for m in mask)
    grids = {1: [list(map(int, g)) for g in req.get("imageGridThw") or []],
             2: [list(map(int, g)) for g in req.get("videoGridThw") or []]}
    if model == "qwen3-vl":
        grids[2] = [[1, h, w] for (t, h, w) in grids[2] for _ in range(t)]
    used = {1: 0, 2: 0}
    seconds = list(req.get("secondPerGridTs") or [])
    used_seconds = 0
    tokens_per_second = req.get("tokensPerSecond", 2) if model == "qwen2.5-vl" else None
    keep = [i for i in range(n) if mask is None or int(mask[i]) == 1]
    types = [1 if ids[i] == image_id else 2 if ids[i] == video_id else 0 for i in keep]
    runs, k = [], 0
    while k < len(types):
        e = k
        while e < len(types) and types[e] == types[k]:
            e += 1
        runs.append((types[k], e - k))
        k = e
    cur = 0
    axes = [[], [], []]
    for kind, length in runs:
        if kind == 0:
            for a in range(3):
                axes[a] += [cur + q for q in range(length)]
            cur += length
            continue
        if used[kind] >= len(grids[kind]):
            raise ValueError("more image/video runs than grids (transformers raises StopIteration)")
        t, h, w = grids[kind][used[kind]]
        used[kind] += 1
        if kind == 2 and tokens_per_second is not None:
            # `iter(second_per_grid_ts)`, else `iter([1] * seq_len)`.
            if not seconds:
                second = 1
            elif used_seconds < len(seconds):
                second = seconds[used_seconds]
                used_seconds += 1
            else:
                raise ValueError("more videos than second_per_grid_ts (transformers raises StopIteration)")
            interval = tokens_per_second * int(second)
        else:
            interval = 1
        gt, gh, gw = t, h // merge, w // merge
        if gt * gh * gw != length:
            raise ValueError(f"a run of {length} tokens for a grid of {gt * gh * gw} (the ids would not fit the row)")
        for a_ in range(gt):
            for b in range(gh):
                for c in range(gw):
                    axes[0].append(int(a_ * interval) + cur)
                    axes[1].append(b + cur)
                    axes[2].append(c + cur)
        cur += max(h, w) // merge
    out = [[0] * n for _ in range(3)]
    for a in range(3):
        for q, i in enumerate(keep):
            out[a][i] = axes[a][q]
    delta = max(max(a) for a in axes) + 1 - len(keep)
    return out, delta


def get_rope_index_batch(req):
    """[MRIB] get_mrope_index for a whole batch, as Qwen2-VL, Qwen2.5-VL and
    Qwen3-VL's get_rope_index call it (`return get_mrope_index(self.config,
    input_ids, mm_token_type_ids, image_grid_thw=image_grid_thw,
    video_grid_thw=video_grid_thw, attention_mask=attention_mask)`): returns
    (position_ids (3, B, S) as Python ints, rope_deltas (B, 1)).

    Transcribed function by function:
    - get_mrope_index: layout "interleaved_runs" (the Qwen VL configs'
      mrope_layout); tokens_per_second = getattr(vision_config,
      "tokens_per_second", None) (only Qwen2.5-VL's vision config has it);
      split_video_frames = vision_config.timestamped_video_frames (Qwen3-VL);
      video_temporal_merge_size = getattr(vision_config, "temporal_merge_size",
      None) or 1 (1: the Qwen VL vision configs have no such key).
    - mm_token_type_ids: the processor's, 1 where input_ids == image_token_id,
      2 where == video_token_id, else 0.
    - _mrope_index_interleaved_runs: with split_video_frames,
      `video_grid_thw = torch.repeat_interleave(video_grid_thw,
      video_grid_thw[:, 0], dim=0); video_grid_thw[:, 0] = 1`; ONE iterator
      per grid list for the whole batch (`grid_iters = {1:
      iter(image_grid_thw) if image_grid_thw is not None else None, 2: ...}`),
      so row b takes the grids after those rows 0 … b−1 took; likewise
      `second_per_grid_iter = iter(second_per_grid_ts) if second_per_grid_ts is
      not None else iter([1] * input_ids.shape[1])`. positions_for_sequence:
      runs of equal token type (itertools.groupby); a text run is
      _mrope_positions_block(len, current_pos) (arange + current on the three
      axes), current_pos += len; an image/video run takes next(grid_iters[type])
      (a run without a grid list raises: next(None) is a TypeError; an exhausted
      iterator StopIteration), time_interval = tokens_per_second *
      int(next(second_per_grid_iter)) for a video when tokens_per_second is
      set, else 1; get_mrope_vision_positions(current_pos, grid,
      spatial_merge_size, time_interval): t ids `(arange(t // temporal_merge)
      * time_interval).to(long)` + current_pos, h ids arange(h // m) +
      current_pos, w ids arange(w // m) + current_pos, meshgrid "ij" then
      reshape (t, then h, then w); current_pos += max(h, w) // m.
    - _mrope_place_positions (padded_position=0): position_ids =
      torch.full((3, B, S), 0); per row, with a mask, the tokens where
      attention_mask[b].bool() (any non-zero value); positions scattered back
      onto those slots (`position_ids[:, b, valid_tokens] = positions`: a count
      that does not match raises); rope_deltas.append(positions.max() + 1 -
      len(token_ids)); `torch.tensor(rope_deltas).unsqueeze(1)`.
    get_mrope_index has no text-only branch of its own: a batch without grids
    is all text runs through the same frame (padded slots 0, the delta over
    the unpadded tokens); get_mrope_text_positions is a separate helper that
    get_rope_index does not call (get_rope_index above uses it for one row
    without grids, the reading the single-sequence tests were written to)."""
    rows = [[int(v) for v in row] for row in req["inputIds"]]
    batch = len(rows)
    seq = len(rows[0]) if rows else 0
    if any(len(r) != seq for r in rows):
        raise ValueError("input_ids rows of different lengths (a tensor is rectangular)")
    model = req.get("model", "qwen2-vl")
    merge = int(req.get("spatialMergeSize", 2))
    image_id, video_id = req.get("imageTokenId"), req.get("videoTokenId")
    mask = req.get("attentionMask")
    image_grid = req.get("imageGridThw")
    video_grid = req.get("videoGridThw")
    seconds = req.get("secondPerGridTs")
    tokens_per_second = req.get("tokensPerSecond", 2) if model == "qwen2.5-vl" else None
    split_video_frames = model == "qwen3-vl"
    temporal_merge = 1
    types = [[1 if t == image_id else 2 if t == video_id else 0 for t in row] for row in rows]

    if image_grid is not None:
        image_grid = [[int(v) for v in g] for g in image_grid]
    if video_grid is not None:
        video_grid = [[int(v) for v in g] for g in video_grid]
        if split_video_frames:
            video_grid = [[1, h, w] for (t, h, w) in video_grid for _ in range(t)]
    grid_iters = {1: iter(image_grid) if image_grid is not None else None,
                  2: iter(video_grid) if video_grid is not None else None}
    second_per_grid_iter = iter(seconds) if seconds is not None else iter([1] * seq)

    def vision_positions(start, grid, interval):
        gt, gh, gw = grid[0] // temporal_merge, grid[1] // merge, grid[2] // merge
        out = [[], [], []]
        for a in range(gt):
            for b in range(gh):
                for c in range(gw):
                    out[0].append(int(a * interval) + start)
                    out[1].append(b + start)
                    out[2].append(c + start)
        return out

    def positions_for_sequence(token_ids, token_types):
        groups = []
        for key, group in itertools.groupby(enumerate(token_types), lambda x: x[1]):
            group = list(group)
            groups.append((key, group[0][0], group[-1][0] + 1))
        current = 0
        axes = [[], [], []]
        for kind, start, end in groups:
            if kind == 0:
                for a in range(3):
                    axes[a] += [current + q for q in range(end - start)]
                current += end - start
                continue
            if grid_iters[kind] is None:
                raise ValueError("an image/video run without its grid list (transformers: next(None) raises)")
            grid = next(grid_iters[kind], None)
            if grid is None:
                raise ValueError("more image/video runs than grids (transformers raises StopIteration)")
            if kind == 2 and tokens_per_second is not None:
                second = next(second_per_grid_iter, None)
                if second is None:
                    raise ValueError("more videos than second_per_grid_ts (transformers raises StopIteration)")
                interval = tokens_per_second * int(second)
            else:
                interval = 1
            block = vision_positions(current, grid, interval)
            for a in range(3):
                axes[a] += block[a]
            current += max(grid[1], grid[2]) // merge
        return axes

    position_ids = [[[0] * seq for _ in range(batch)] for _ in range(3)]
    deltas = []
    for b in range(batch):
        valid = [j for j in range(seq) if mask is None or int(mask[b][j]) != 0]
        positions = positions_for_sequence([rows[b][j] for j in valid], [types[b][j] for j in valid])
        if len(positions[0]) != len(valid):
            raise ValueError(f"row {b}: {len(positions[0])} position ids for {len(valid)} tokens (torch cannot scatter them)")
        if not valid:
            raise ValueError(f"row {b}: every token masked (torch.cat of no blocks raises)")
        for a in range(3):
            for q, j in enumerate(valid):
                position_ids[a][b][j] = positions[a][q]
        deltas.append([max(max(p) for p in positions) + 1 - len(valid)])
    return position_ids, deltas


# ---------------------------------------------------------------------------
# Per-layer-type config resolution
# ---------------------------------------------------------------------------

GEMMA3_TYPES = ("gemma3", "gemma3_text")
DEEPSEEK_INTERLEAVE_DEFAULT = ("deepseek_v3",)


def layer_types_of(config):
    """[G3] __post_init__: the file's layer_types, else for Gemma 3 the
    sliding_window_pattern (default 6) rule; None for other models without it."""
    if config.get("layer_types") is not None:
        return list(config["layer_types"])
    if config.get("model_type") in GEMMA3_TYPES:
        pattern = config.get("sliding_window_pattern", 6)
        n = config.get("num_hidden_layers", 26)
        return ["sliding_attention" if (i + 1) % pattern else "full_attention" for i in range(n)]
    return None


def per_layer_params(config):
    """{layer type: standardized rope-parameters dict} or None (one dict for
    every layer). [G3] for Gemma 3; [RU5] Case 2 for any other config whose
    rope_parameters keys are all layer types."""
    layer_types = layer_types_of(config)
    if config.get("model_type") in GEMMA3_TYPES:
        params = config.get("rope_parameters")
        params = {k: (dict(v) if v is not None else None) for k, v in params.items()} if params else None
        if params is None:
            params = {"sliding_attention": {"rope_type": "default"}, "full_attention": {"rope_type": "default"}}
        if config.get("rope_scaling") is not None:
            params["full_attention"].update(config["rope_scaling"])
        if params.get("full_attention") is None:
            params["full_attention"] = {"rope_type": "default"}
        params["full_attention"].setdefault("rope_theta", config.get("rope_theta", 1_000_000.0))
        if params.get("sliding_attention") is None:
            params["sliding_attention"] = {"rope_type": "default"}
        params["sliding_attention"].setdefault("rope_theta", config.get("rope_local_base_freq", 10_000.0))
    else:
        params = config.get("rope_parameters")
        if not (layer_types and params and set(params.keys()).issubset(layer_types)):
            return None
        params = {k: (dict(v) if v is not None else None) for k, v in params.items()}
    out = {}
    for layer_type, p in params.items():
        if p is None:
            continue
        # [RU5] standardize_rope_params, Case 2.
        p.setdefault("rope_type", p.get("type", "default"))
        if config.get("rope_theta") is not None:
            p.setdefault("rope_theta", config["rope_theta"])
        p.setdefault("rope_theta", rope_reference.DEFAULT_THETA)
        if config.get("partial_rotary_factor") is not None:
            p["partial_rotary_factor"] = config["partial_rotary_factor"]
        if p["rope_type"] in ("llama3", "yarn", "longrope") and "max_position_embeddings" in config:
            p.setdefault("original_max_position_embeddings", config["max_position_embeddings"])
        out[layer_type] = p
    return out


def compute_proportional(params, head_dim):
    """[RU5M] _compute_proportional_rope_parameters: `rope_angles =
    int(rope_proportion * head_dim // 2)`; `inv_freq_rotated = 1.0 / (base **
    (torch.arange(0, 2 * rope_angles, 2) / head_dim))`; `head_dim // 2 -
    rope_angles` zeros after it; `inv_freq /= factor` (`factor` default 1.0);
    attention factor 1.0. The frequencies span the whole head (rotary dim =
    head_dim); the zero ones do not turn."""
    base = float(params["rope_theta"])
    factor = float(params.get("factor", 1.0))
    prf = params.get("partial_rotary_factor", 1.0)
    prf = 1.0 if prf is None else prf
    rope_angles = int(prf * head_dim // 2)
    rotated = 1.0 / (base ** (np.arange(0, 2 * rope_angles, 2, dtype=np.float64) / float(head_dim)))
    inv = np.concatenate([rotated, np.zeros(head_dim // 2 - rope_angles)]) / factor
    return inv, 1.0


def layout_of(config):
    """[DSV3] rope_interleave (DeepseekV3Config default True) -> 'interleaved'."""
    flag = config.get("rope_interleave")
    if flag is None:
        flag = config.get("model_type") in DEEPSEEK_INTERLEAVE_DEFAULT
    return "interleaved" if flag else "half"


def resolve_config(config):
    """What a model built from this config.json rotates with:
    {layout, mropeSection?, mropeInterleaved, layers?, layerTypes?: {type:
    {ropeType, rotaryDim, headDim, invFreq, attentionFactor}}}."""
    # Composite configs (Gemma3Config, Qwen2_5_VLConfig, Qwen3VLConfig) build
    # their language model from `text_config` (`sub_configs`), which holds the
    # rope keys; the text config's own model_type, else the outer one.
    if isinstance(config.get("text_config"), dict):
        inner = dict(config["text_config"])
        inner.setdefault("model_type", config.get("model_type"))
        config = inner
    if config.get("model_type") in GEMMA3_TYPES:
        # [G3] Gemma3TextConfig's class defaults fill what a sparse file leaves
        # out: `head_dim: int = 256`, `num_hidden_layers: int = 26`.
        config = {"head_dim": 256, "num_hidden_layers": 26, **config}
    out = {"layout": layout_of(config)}
    scaling = config.get("rope_scaling") or config.get("rope_parameters") or {}
    if isinstance(scaling, dict) and scaling.get("mrope_section") is not None:
        out["mropeSection"] = [int(s) for s in scaling["mrope_section"]]
        # [Q3VL] Qwen3VLTextRotaryEmbedding.forward calls apply_interleaved_mrope
        # whatever the file says; published files also say mrope_interleaved.
        qwen3 = str(config.get("model_type", "")).startswith("qwen3_vl")
        out["mropeInterleaved"] = bool(scaling.get("mrope_interleaved", False)) or qwen3
    layers = layer_types_of(config)
    if layers is not None:
        out["layers"] = layers
    per = per_layer_params(config)
    if per is not None:
        out["layerTypes"] = {}
        for layer_type, p in per.items():
            # Evaluate with the text reference: a config whose only rope dict is p.
            if p["rope_type"] == "proportional":
                # [GEMMA4] Gemma4TextRotaryEmbedding passes
                # head_dim_key="global_head_dim" for the full-attention layers.
                key = "global_head_dim" if layer_type == "full_attention" and config.get("global_head_dim") else None
                head_dim = int(config[key]) if key else rope_reference.head_dim_of(config)
                inv, att = compute_proportional(p, head_dim)
                rope_type, dim = "proportional", head_dim
            else:
                flat = {k: v for k, v in config.items() if k not in ("rope_scaling", "rope_parameters", "rope_theta")}
                flat["rope_parameters"] = p
                rope_type, head_dim, dim, inv, att = rope_reference.rope_from_config(flat)
            out["layerTypes"][layer_type] = {
                "ropeType": rope_type,
                "headDim": head_dim,
                "rotaryDim": dim,
                "invFreq": inv.tolist(),
                "attentionFactor": att,
            }
    else:
        cfg = dict(config)
        # [Q2CFG] "type": "mrope" is read as "default".
        for key in ("rope_scaling", "rope_parameters"):
            if isinstance(cfg.get(key), dict):
                d = dict(cfg[key])
                for k in ("type", "rope_type"):
                    if d.get(k) == "mrope":
                        d[k] = "default"
                cfg[key] = d
        rope_type, head_dim, dim, inv, att = rope_reference.rope_from_config(cfg)
        out.update(ropeType=rope_type, headDim=head_dim, rotaryDim=dim, invFreq=inv.tolist(), attentionFactor=att)
    return out


# ---------------------------------------------------------------------------
# Requests
# ---------------------------------------------------------------------------


def b64(array, dtype):
    return base64.b64encode(np.ascontiguousarray(array, dtype=dtype).tobytes()).decode("ascii")


def from_b64(text, dtype):
    return np.frombuffer(base64.b64decode(text), dtype=dtype)


def answer_cache(req):
    """{kind: 'cache', mode, rotaryDim, theta | config, sections, positions
    (n × A token-major flat, or grid: [height, width]), axes A, dtypes?}
    -> cos/sin (n, r/2) float64 and, per dtype, correctly rounded bits, the
    alternates where the reference cannot decide, and the usual path's
    largest error."""
    r = int(req["rotaryDim"])
    att = 1.0
    inv = None
    theta = req.get("theta", 10000.0)
    if req.get("config") is not None:
        _, _, dim, inv, att = rope_reference.rope_from_config(req["config"])
        if dim != r:
            raise ValueError(f"config rotary dim {dim}, request {r}")
    att = float(req.get("attentionFactor", att))
    axes, freqs = axis_plan(req["mode"], r, theta, req.get("sections"), inv)
    if req.get("grid") is not None:
        pos = grid_positions(*req["grid"])
    else:
        A = int(req.get("axes", 1))
        pos = np.asarray(req["positions"], dtype=np.float64).reshape(-1, A)
        if A == 1:
            pos = np.repeat(pos, int(axes.max()) + 1, axis=1)
    ang = multi_axis_angles(pos, axes, freqs)
    cos = np.cos(ang) * att
    sin = np.sin(ang) * att
    if not (np.all(np.isfinite(cos)) and np.all(np.isfinite(sin))):
        raise ValueError("a cache value is not finite")
    out = {"name": req.get("name"), "rows": int(pos.shape[0]), "cos": b64(cos, "<f8"), "sin": b64(sin, "<f8"),
           "attentionFactor": att, "freqs": freqs.tolist(), "axisOf": axes.tolist()}
    # The float64 evaluation's error: the angle carries |angle|·2^-52 from the
    # product plus |p|·|inv_j|·2^-52 from inv_j's rounding; cos, sin and the
    # factor add a few ulps of the value. An angle of 0 is exact (cos 1, sin 0).
    slack = 2.0 * np.abs(ang) * 2.0 ** -52 * abs(att)
    for fmt in req.get("dtypes", []):
        cb, sb = round_array(cos, fmt), round_array(sin, fmt)
        ca = ambiguous_alternates(cos, slack + 4 * np.abs(cos) * 2.0 ** -53, fmt)
        sa = ambiguous_alternates(sin, slack + 4 * np.abs(sin) * 2.0 ** -53, fmt)
        uc, us = usual_path_float16(pos, axes, freqs, att, fmt)
        exact_c = np.vectorize(lambda b: bits_to_float(int(b), fmt))(cb)
        exact_s = np.vectorize(lambda b: bits_to_float(int(b), fmt))(sb)
        out[fmt] = {
            "cos": b64(cb, "<u2"), "sin": b64(sb, "<u2"),
            "cosAlt": b64(ca, "<u2"), "sinAlt": b64(sa, "<u2"),
            "ambiguous": int(np.count_nonzero(ca != cb) + np.count_nonzero(sa != sb)),
            # Largest |rounded − float64|: one rounding, and the usual path.
            "roundedError": float(max(np.max(np.abs(exact_c - cos.ravel())), np.max(np.abs(exact_s - sin.ravel())))),
            "usualError": float(max(np.max(np.abs(uc - cos)), np.max(np.abs(us - sin)))),
            "usualDiffers": int(np.count_nonzero(uc.ravel() != exact_c) + np.count_nonzero(us.ravel() != exact_s)),
            # Per row (token): the usual path's largest error, to report it by position.
            "usualRowError": np.maximum(np.max(np.abs(uc - cos), axis=1), np.max(np.abs(us - sin), axis=1)).tolist(),
        }
    return out


def answer_rotate(req):
    """{kind: 'rotate', mode, rotaryDim, headDim, theta | config, sections,
    positions (n × A flat), axes, layout, x (base64 float32, n·heads·headDim)}
    -> the rotated x in float64."""
    r, d = int(req["rotaryDim"]), int(req["headDim"])
    att, inv = 1.0, None
    if req.get("config") is not None:
        _, _, _, inv, att = rope_reference.rope_from_config(req["config"])
    axes, freqs = axis_plan(req["mode"], r, req.get("theta", 10000.0), req.get("sections"), inv)
    A = int(req.get("axes", 1))
    pos = np.asarray(req["positions"], dtype=np.float64).reshape(-1, A)
    if A == 1:
        pos = np.repeat(pos, int(axes.max()) + 1, axis=1)
    x = from_b64(req["x"], "<f4").astype(np.float64).reshape(pos.shape[0], -1, d)
    y = rotate(x, multi_axis_angles(pos, axes, freqs), d, r, req.get("layout", "half"), att)
    return {"name": req.get("name"), "y": b64(y.ravel(), "<f8"), "attentionFactor": att}


def answer_table(req):
    """{kind: 'table', positions, dModel, base} -> the 'vaswani' sinusoidal
    table (Vaswani et al. 2017, section 3.5: PE(p, 2i) = sin(p / base^(2i/d)),
    PE(p, 2i+1) = cos(p / base^(2i/d))), float64, and rounded bits per dtype."""
    d = int(req["dModel"])
    base = float(req.get("base", 10000.0))
    p = np.asarray(req["positions"], dtype=np.float64).reshape(-1, 1)
    w = 1.0 / base ** (np.arange(0, d, 2, dtype=np.float64) / d)
    ang = p * w.reshape(1, -1)
    t = np.empty((p.shape[0], d))
    t[:, 0::2] = np.sin(ang)
    t[:, 1::2] = np.cos(ang)
    width = np.repeat(2.0 * np.abs(ang) * 2.0 ** -52, 2, axis=1) + 4 * np.abs(t) * 2.0 ** -53
    out = {"name": req.get("name"), "table": b64(t.ravel(), "<f8")}
    for fmt in req.get("dtypes", []):
        out[fmt] = {"bits": b64(round_array(t, fmt), "<u2"), "alt": b64(ambiguous_alternates(t, width, fmt), "<u2")}
    return out


def answer_round(req):
    """{kind: 'round', values: base64 float64} -> bits per dtype."""
    v = from_b64(req["values"], "<f8")
    return {"name": req.get("name"), **{fmt: b64(round_array(v, fmt), "<u2") for fmt in req.get("dtypes", [])}}


def answer(req):
    kind = req["kind"]
    try:
        if kind == "cache":
            return answer_cache(req)
        if kind == "rotate":
            return answer_rotate(req)
        if kind == "table":
            return answer_table(req)
        if kind == "round":
            return answer_round(req)
        if kind == "ropeIndex":
            pos, delta = get_rope_index(req)
            return {"name": req.get("name"), "positions": pos, "ropeDelta": delta}
        if kind == "ropeIndexBatch":
            pos, deltas = get_rope_index_batch(req)
            return {"name": req.get("name"), "positionIds": pos, "ropeDeltas": deltas}
        if kind == "config":
            return {"name": req.get("name"), **resolve_config(req["config"])}
    except (ValueError, rope_reference.TransformersRaises) as e:
        return {"name": req.get("name"), "error": str(e)}
    raise ValueError(f"unknown request kind {kind!r}")


# ---------------------------------------------------------------------------
# Self-test: values fixed by the definitions, not by this code
# ---------------------------------------------------------------------------


def self_test():
    failures = []

    def check(label, got, want):
        if got != want:
            failures.append(f"{label}: got {got!r}, want {want!r}")

    # IEEE 754 binary16 by definition: 1 = 0x3C00; the spacing above 1 is
    # 2^-10, so 1 + 2^-11 is a tie (to even: 0x3C00) and 1 + 3·2^-11 a tie
    # between 0x3C01 and 0x3C02 (even: 0x3C02); 65504 = 0x7BFF is the largest
    # finite; 65520 is the tie between it and 2^16 (even: infinity); 2^-24 is
    # the smallest subnormal 0x0001, 2^-25 the tie with 0 (even: 0), 1.5·2^-25
    # rounds up to 0x0001; 2^-14 = 0x0400 the smallest normal; -0.0 = 0x8000.
    f16 = [(1.0, 0x3C00), (1 + 2**-11, 0x3C00), (1 + 3 * 2**-11, 0x3C02), (1 + 2**-11 + 2**-40, 0x3C01),
           (65504.0, 0x7BFF), (65520.0, 0x7C00), (65519.99, 0x7BFF), (2.0**-24, 0x0001), (2.0**-25, 0x0000),
           (1.5 * 2**-25, 0x0001), (3 * 2.0**-25, 0x0002), (2.0**-14, 0x0400), (-0.0, 0x8000), (-2.0, 0xC000),
           (0.1, 0x2E66), (1e-30, 0x0000), (1e6, 0x7C00)]
    # bfloat16: 1 = 0x3F80, spacing 2^-7 above 1; ties 1 + 2^-8 -> 0x3F80,
    # 1 + 3·2^-8 -> 0x3F82; smallest subnormal 2^-133 = 0x0001, 2^-134 ties to 0;
    # smallest normal 2^-126 = 0x0080; largest finite (2 − 2^-7)·2^127 = 0x7F7F.
    bf16 = [(1.0, 0x3F80), (1 + 2**-8, 0x3F80), (1 + 3 * 2**-8, 0x3F82), (1 + 2**-8 + 2**-30, 0x3F81),
            (2.0**-133, 0x0001), (2.0**-134, 0x0000), (1.5 * 2**-134, 0x0001), (2.0**-126, 0x0080),
            ((2 - 2**-7) * 2.0**127, 0x7F7F), (-1.0, 0xBF80), (-0.0, 0x8000)]
    for v, want in f16:
        check(f"float16({v!r})", round_bits(v, "float16"), want)
    for v, want in bf16:
        check(f"bfloat16({v!r})", round_bits(v, "bfloat16"), want)
    # Round trip: every finite pattern decodes and re-encodes to itself.
    for fmt in FORMATS:
        for bits in range(0, 1 << 16, 7):
            v = bits_to_float(bits, fmt)
            if math.isfinite(v):
                check(f"{fmt} round trip {bits:#06x}", round_bits(v, fmt), bits)
    # numpy's float64 -> float16 cast against the bit rounding: random values
    # and values a hair beside every kind of midpoint (a double rounding
    # through float32 would fail the latter).
    rng = np.random.default_rng(1)
    vals = np.concatenate([
        rng.standard_normal(20000), rng.standard_normal(5000) * 1e-5, rng.standard_normal(2000) * 3e4,
        np.array([bits_to_float(b, "float16") for b in range(0, 0x7C00, 3)]) * (1 + 2.0**-11 + 2.0**-45),
        np.array([bits_to_float(b, "float16") for b in range(1, 0x7C00, 5)]) * (1 - 2.0**-12),
    ])
    mine = round_array(vals, "float16")
    theirs = numpy_float16_bits(vals)
    bad = np.nonzero(mine != theirs)[0]
    if bad.size:
        failures.append(f"numpy float16 cast differs from the bit rounding at {bad.size} values, e.g. {vals[bad[0]]!r}")
    # bfloat16 must not go through float32: 1 + 2^-8 + 2^-40 rounds up once
    # (0x3F81) but to float32 first it becomes 1 + 2^-8 (a tie) -> 0x3F80.
    check("bfloat16 single rounding", round_bits(1 + 2**-8 + 2**-40, "bfloat16"), 0x3F81)

    # Section maps. Qwen2-VL's [16, 24, 24] over 64 pairs: 16 t, 24 h, 24 w.
    ax = sectioned_axes([16, 24, 24], 64)
    check("sectioned counts", [int((ax == a).sum()) for a in range(3)], [16, 24, 24])
    check("sectioned order", [int(ax[15]), int(ax[16]), int(ax[39]), int(ax[40])], [0, 1, 1, 2])
    # Qwen3-VL's [24, 20, 20] over 64 pairs: THWTHW… for the first 60, then T.
    ax = interleaved_axes([24, 20, 20], 64)
    check("interleaved head", ax[:7].tolist(), [0, 1, 2, 0, 1, 2, 0])
    check("interleaved tail", ax[57:].tolist(), [0, 1, 2, 0, 0, 0, 0])
    check("interleaved counts", [int((ax == a).sum()) for a in range(3)], [24, 20, 20])
    # Pixtral, head 8: freqs θ^0, θ^-1/4, θ^-1/2, θ^-3/4 -> rows get 0 and 2,
    # columns 1 and 3.
    axes, freqs = axis_plan("pixtral", 8, 16.0, None)
    check("pixtral axes", axes.tolist(), [0, 0, 1, 1])
    check("pixtral freqs", [round(f, 12) for f in freqs.tolist()], [1.0, 0.25, 0.5, 0.125])
    # Axial, sections [2, 2] at θ = 16: each section is VisionRotaryEmbedding(4):
    # 1, 16^-1/2.
    axes, freqs = axis_plan("axial", 8, 16.0, [2, 2])
    check("axial", (axes.tolist(), freqs.tolist()), ([0, 0, 1, 1], [1.0, 0.25, 1.0, 0.25]))
    # The DeepSeek rotation is the interleaved one, de-interleaved.
    x = rng.standard_normal((3, 2, 10))
    ang = rng.standard_normal((3, 4))
    a = rotate(x, ang, 10, 8, "interleaved")
    b = rotate_deepseek(x, ang, 8)
    deint = a[:, :, :8].reshape(3, 2, 4, 2).transpose(0, 1, 3, 2).reshape(3, 2, 8)
    if not np.allclose(deint, b, rtol=0, atol=1e-15):
        failures.append("the interleaved rotation is not DeepSeek's apply_rotary_pos_emb_interleave re-interleaved")
    # The Qwen2.5-VL docstring example: a video of 3 × 2 × 2 merged patches,
    # 50 ids per temporal patch, 5 text tokens after it: t ids 0, 50, 100,
    # text from 101. (tokens_per_second 25, second_per_grid_t 2.)
    ids = [3, 7] + [5] * 12 + [1] * 5
    pos, delta = get_rope_index({"model": "qwen2.5-vl", "inputIds": ids, "videoTokenId": 5, "imageTokenId": 4,
                                 "visionStartTokenId": 7, "videoGridThw": [[3, 4, 4]], "secondPerGridTs": [2.0],
                                 "tokensPerSecond": 25, "spatialMergeSize": 2})
    # Tokens 0-1 are text (0, 1); the 12 video tokens start at 2: 2 + (0|50|100).
    check("qwen2.5 t ids", pos[0][2:14], [2, 2, 2, 2, 52, 52, 52, 52, 102, 102, 102, 102])
    check("qwen2.5 h ids", pos[1][2:14], [2, 2, 3, 3] * 3)
    check("qwen2.5 w ids", pos[2][2:14], [2, 3, 2, 3] * 3)
    # [MRI]: the text after moves on by max(4, 4) // 2 = 2 from the block's start.
    check("qwen2.5 text after", pos[0][14:], [4, 5, 6, 7, 8])
    check("qwen2.5 delta", delta, 102 + 1 - len(ids))
    # The older loops: the text after the largest id (the docstring's 101 + 2).
    legacy, delta = get_rope_index_legacy({"model": "qwen2.5-vl", "inputIds": ids, "videoTokenId": 5,
                                           "imageTokenId": 4, "visionStartTokenId": 7,
                                           "videoGridThw": [[3, 4, 4]], "secondPerGridTs": [2.0],
                                           "tokensPerSecond": 25, "spatialMergeSize": 2})
    check("legacy video ids", legacy[0][:14], pos[0][:14])
    check("legacy text after", legacy[0][14:], [103, 104, 105, 106, 107])
    check("legacy delta", delta, 107 + 1 - len(ids))
    # A batch: the grids are taken in order across the rows. Row 0 (left
    # padded by one) has a [1, 4, 4] image (2 × 2 tokens), row 1 a [1, 2, 6]
    # one (1 × 3 tokens): text 0, image at 1, text on at 1 + max(h, w) / 2.
    pos, deltas = get_rope_index_batch({"inputIds": [[0, 3, 4, 4, 4, 4, 3], [3, 4, 4, 4, 3, 3, 3]],
                                        "attentionMask": [[0, 1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1, 1]],
                                        "imageTokenId": 4, "imageGridThw": [[1, 4, 4], [1, 2, 6]]})
    check("batch row 0 h ids", pos[1][0], [0, 0, 1, 1, 2, 2, 3])
    check("batch row 1 w ids", pos[2][1], [0, 1, 2, 3, 4, 5, 6])
    check("batch deltas", deltas, [[3 + 1 - 6], [6 + 1 - 7]])
    if failures:
        for line in failures:
            print("FAIL " + line)
        return 1
    print(f"rope_multimodal_reference: self-test passed ({len(f16) + len(bf16)} fixed roundings, "
          f"{vals.size} numpy float16 casts, section maps, rotations, get_rope_index example)")
    return 0


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", help="requests file (JSON list), or - for stdin")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args(argv)
    if args.self_test:
        return self_test()
    if args.json:
        source = sys.stdin if args.json == "-" else open(args.json, encoding="utf-8")
        with source:
            reqs = json.load(source)
        json.dump([answer(r) for r in reqs], sys.stdout, allow_nan=False)
        sys.stdout.write("\n")
        return 0
    parser.print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
