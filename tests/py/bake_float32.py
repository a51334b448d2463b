#!/usr/bin/env python3
"""RoPE cos/sin caches baked the way PyTorch exporters bake them: numpy float32
at every step, never float64, never through sinpe.

This is the float32 pipeline of transformers' `modeling_rope_utils.py`
(`_compute_default_rope_parameters`, `_compute_linear_scaling_rope_parameters`,
`_compute_dynamic_ntk_parameters`, `_compute_yarn_parameters`,
`_compute_longrope_parameters`, `_compute_llama3_parameters`) followed by
onnxruntime-genai's `make_rotary_embedding_caches_from_scratch`
(src/python/py/models/builders/base.py):

    inv_freq = 1.0 / (base ** (arange(0, dim, 2).float() / dim))   # float32 pow, float32 reciprocal
    ... the rope type's scaling rule, each operation in float32 ...
    t = arange(cache_length).float()
    freqs = outer(t, inv_freq)                                      # float32 products
    cos_cache = freqs.cos() * mscale; sin_cache = freqs.sin() * mscale
    cos_cache.to(io_dtype)                                          # one cast

Each operation is numpy's own float32 code (np.power, np.cos and np.sin on
float32 arrays run numpy's float32 loops, whose pow and cos/sin are not
correctly rounded). Python scalars (base, factor, the YaRN correction range,
the attention factor) are float64 where the libraries compute them in Python
and enter the float32 arrays as float32, as torch's wrapped scalars do.

Input (stdin): a JSON list of cases
  {"name", "rope_type", "dim", "rows", "dtype": "float32"|"float16",
   "rope_theta", "factor"?, "original_max_position_embeddings"?,
   "max_position_embeddings"?, "seq_len"?, "low_freq_factor"?,
   "high_freq_factor"?, "beta_fast"?, "beta_slow"?, "truncate"?,
   "attention_factor"?, "short_factor"?, "long_factor"?, "inv_freq": "float64"?}
Output (stdout): one JSON object per line
  {"name", "cos", "sin", "invFreq", "attentionFactor"}: cos/sin the cache's
  little-endian element bytes in base64 (rows x dim/2), invFreq the float32
  frequencies as numbers.
"inv_freq": "float64" bakes the variant that computes inv_freq in float64
(numpy float64 at every step of the rule) and casts it to float32 once, as
some exporters do; everything after inv_freq stays float32.
"""

import base64
import json
import math
import sys

import numpy as np

F32 = np.float32


def f32(x):
    return F32(x)


def default_inv(base, dim, ft):
    # 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))
    e = np.arange(0, dim, 2, dtype=np.int64).astype(ft) / ft(dim)
    return ft(1.0) / np.power(ft(base), e)


def inv_freq_of(c, ft):
    kind = c.get("rope_type", "default")
    dim = c["dim"]
    base = c["rope_theta"]
    att = 1.0
    if kind == "default":
        inv = default_inv(base, dim, ft)
    elif kind == "linear":
        # inv_freq /= factor
        inv = default_inv(base, dim, ft) / ft(c["factor"])
    elif kind == "dynamic":
        # base = base * ((factor * seq_len / max_pos) - (factor - 1)) ** (dim / (dim - 2)), in Python floats
        factor = c["factor"]
        m = c["max_position_embeddings"]
        seq_len = max(c.get("seq_len", m), m)
        base = base * ((factor * seq_len / m) - (factor - 1)) ** (dim / (dim - 2))
        inv = default_inv(base, dim, ft)
    elif kind == "yarn":
        factor = c["factor"]
        orig = c["original_max_position_embeddings"]
        att = c.get("attention_factor")
        if att is None:
            att = 1.0 if factor <= 1 else 0.1 * math.log(factor) + 1.0
        beta_fast = c.get("beta_fast") or 32
        beta_slow = c.get("beta_slow") or 1

        def correction_dim(rot):
            return (dim * math.log(orig / (rot * 2 * math.pi))) / (2 * math.log(base))

        low, high = correction_dim(beta_fast), correction_dim(beta_slow)
        if c.get("truncate", True):
            low, high = math.floor(low), math.ceil(high)
        low, high = max(low, 0), min(high, dim - 1)
        if low == high:
            high += 0.001
        e = np.arange(0, dim, 2, dtype=np.int64).astype(ft) / ft(dim)
        pos_freqs = np.power(ft(base), e)
        extrapolation = ft(1.0) / pos_freqs
        interpolation = ft(1.0) / (ft(factor) * pos_freqs)
        ramp = np.clip((np.arange(dim // 2, dtype=ft) - ft(low)) / ft(high - low), ft(0), ft(1))
        extra_factor = ft(1) - ramp
        inv = interpolation * (ft(1) - extra_factor) + extrapolation * extra_factor
    elif kind == "longrope":
        orig = c["original_max_position_embeddings"]
        factor = c.get("factor")
        if factor is None:
            factor = c["max_position_embeddings"] / orig
        att = c.get("attention_factor")
        if att is None:
            att = 1.0 if factor <= 1 else math.sqrt(1 + math.log(factor) / math.log(orig))
        seq_len = c.get("seq_len")
        ext = np.array(c["long_factor"] if seq_len and seq_len > orig else c["short_factor"], dtype=ft)
        e = np.arange(0, dim, 2, dtype=np.int64).astype(ft) / ft(dim)
        inv = ft(1.0) / (ext * np.power(ft(base), e))
    elif kind == "llama3":
        factor = c["factor"]
        low_ff = c["low_freq_factor"]
        high_ff = c["high_freq_factor"]
        old = c["original_max_position_embeddings"]
        inv = default_inv(base, dim, ft)
        low_wl = old / low_ff
        high_wl = old / high_ff
        wavelen = ft(2 * math.pi) / inv
        inv_l = np.where(wavelen > ft(low_wl), inv / ft(factor), inv)
        smooth = (ft(old) / wavelen - ft(low_ff)) / ft(high_ff - low_ff)
        smoothed = (ft(1) - smooth) * inv_l / ft(factor) + smooth * inv_l
        medium = ~(wavelen < ft(high_wl)) & ~(wavelen > ft(low_wl))
        inv = np.where(medium, smoothed, inv_l)
    else:
        raise SystemExit(f"bake_float32.py: rope type {kind!r} is not baked here")
    return inv, float(att)


def bake(c):
    if c.get("inv_freq") == "float64":
        inv64, att = inv_freq_of(c, np.float64)
        inv = inv64.astype(F32)
    else:
        inv, att = inv_freq_of(c, F32)
    inv = np.asarray(inv, dtype=F32)
    assert inv.dtype == F32, inv.dtype
    t = np.arange(c["rows"], dtype=np.int64).astype(F32)
    freqs = np.outer(t, inv)
    assert freqs.dtype == F32
    cos = np.cos(freqs)
    sin = np.sin(freqs)
    assert cos.dtype == F32 and sin.dtype == F32
    # emb.cos() * mscale: the builder multiplies always (1.0 leaves every value as it is)
    cos = cos * F32(att)
    sin = sin * F32(att)
    out = {"float32": F32, "float16": np.float16}[c["dtype"]]
    cos = cos.astype(out)
    sin = sin.astype(out)
    enc = lambda a: base64.b64encode(np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<")).tobytes()).decode()
    return {"name": c["name"], "cos": enc(cos), "sin": enc(sin), "invFreq": [float(x) for x in inv], "attentionFactor": att}


def main():
    cases = json.load(sys.stdin)
    for c in cases:
        print(json.dumps(bake(c)))


if __name__ == "__main__":
    main()
