#!/usr/bin/env python3
"""An independent float64 reference for RoPE frequencies, attention factors and
cos/sin caches, written from Hugging Face transformers' own source.

It reads a model's config.json the way transformers does and evaluates the same
formulas in float64 (numpy float64 arrays, `math` scalars). transformers itself
evaluates inv_freq, the ramp and the angle in float32; only that rounding is
left out here.

Sources (the rules below cite them by these tags):

[RU5]  transformers main after v5.0, `src/transformers/modeling_rope_utils.py`,
       as stored at commit ff9206d01bde3d1077f34fedae9015d5f8aff2a6 of
       fwerkor/transformers (a mirror of huggingface/transformers main; the file
       has `_compute_proportional_rope_parameters` and the gemma4
       `per_layer_config` work-around, so it is later than v5.0). Functions:
       `RotaryEmbeddingConfigMixin.convert_rope_params_to_dict`,
       `RotaryEmbeddingConfigMixin.standardize_rope_params`,
       `_compute_linear_scaling_rope_parameters`,
       `_compute_dynamic_ntk_parameters`, `_compute_yarn_parameters`,
       `_compute_longrope_parameters`, `_compute_llama3_parameters`,
       `dynamic_rope_update` (its `longrope_frequency_update` and
       `dynamic_frequency_update`).
[LL5]  transformers v5 model files: the `default` rope type lives in each
       model's rotary class, e.g. `Qwen2RotaryEmbedding` /
       `LlamaRotaryEmbedding.compute_default_rope_parameters` and `.forward`
       (`cos = emb.cos() * self.attention_scaling`).
[RU4x] transformers 4.45–4.57 `modeling_rope_utils.py` (e.g. the unmodified
       yarn/longrope functions in kcirred/transformers@8fd7be98b3d9ae05994435a91803a7ce26cb0243):
       the same functions reading `config.rope_scaling`.
[RU44] transformers ~4.44, huggingface/transformers@0044e3b3facff1a1ad60b235c69d5b45beae75a4
       and @ef46806472a64b0013ed413781e3afed82bfa047 `modeling_rope_utils.py`.
[DSV3] transformers `models/deepseek_v3/configuration_deepseek_v3.py`,
       `DeepseekV3Config.__init__`: `self.head_dim = qk_rope_head_dim`.

Where versions differ this file follows [RU5]; the differences are noted at
each rule (search for "VERSIONS").

Command line:
  rope_reference.py --json CASES.json|- [--binary-caches]
                                             one JSON object per case out
  rope_reference.py --check-pinned FIXTURE   values pinned by another hand

A case is {"name", "config": <config.json dict>, "seqLen"?: number,
"positions"?: [numbers]}; the answer for it is {"name", "ropeType",
"rotaryDim", "headDim", "invFreq", "attentionFactor", "cos", "sin"} (cos/sin
row-major (positions, rotaryDim/2), attention factor applied) or
{"name", "error"} where transformers itself raises.
"""

import argparse
import base64
import json
import math
import sys

import numpy as np

# [RU5] RotaryEmbeddingConfigMixin.default_theta = 10_000.0 (used by
# convert_rope_params_to_dict when neither rope_parameters nor the config has
# rope_theta).
DEFAULT_THETA = 10000.0


class TransformersRaises(Exception):
    """transformers itself raises (a KeyError or ZeroDivisionError) here."""


# ---------------------------------------------------------------------------
# config.json -> (head_dim, rotary dim, standardized rope parameters)
# ---------------------------------------------------------------------------


def head_dim_of(config):
    # [DSV3] DeepseekV3Config sets head_dim = qk_rope_head_dim: only the rope
    # part of an MLA head rotates.
    if config.get("qk_rope_head_dim") is not None:
        return int(config["qk_rope_head_dim"])
    # [LL5] compute_default_rope_parameters and [RU5] the _compute_* functions:
    # `getattr(config, "head_dim", None) or config.hidden_size //
    # config.num_attention_heads`. (The config classes themselves set
    # head_dim = hidden_size // num_attention_heads when it is None, so
    # `head_dim: null` in a config.json means the quotient.)
    if config.get("head_dim") is not None:
        return int(config["head_dim"])
    if "hidden_size" not in config or "num_attention_heads" not in config:
        raise TransformersRaises("no head_dim and no hidden_size / num_attention_heads")
    return int(config["hidden_size"]) // int(config["num_attention_heads"])


def standardize(config):
    """Return the rope-parameters dict transformers computes from, after
    [RU5] convert_rope_params_to_dict + standardize_rope_params (the
    single-dict case: no per-layer-type parameters)."""
    # [RU5] convert_rope_params_to_dict: `rope_scaling = kwargs.pop("rope_scaling", None);
    # self.rope_parameters = rope_scaling or self.rope_parameters`:
    # a non-empty rope_scaling wins over rope_parameters.
    params = config.get("rope_scaling") or config.get("rope_parameters") or {}
    params = dict(params)
    # [RU5] convert_rope_params_to_dict: `rope_theta = kwargs.pop("rope_theta",
    # getattr(self, "rope_theta", self.default_theta));
    # self.rope_parameters.setdefault("rope_theta", rope_theta)`: the value
    # inside the dict wins, then the top-level key, then 10000.
    top_theta = config.get("rope_theta")
    params.setdefault("rope_theta", DEFAULT_THETA if top_theta is None else top_theta)
    # [RU5] standardize_rope_params: `rope_parameters.setdefault("rope_type",
    # rope_parameters.get("type", "default"))` (legacy files spell it `type`).
    params.setdefault("rope_type", params.get("type", "default"))
    # [RU5] standardize_rope_params: a top-level partial_rotary_factor is
    # *assigned* (`rope_parameters["partial_rotary_factor"] = partial_rotary_factor`),
    # so it wins over one inside the dict.
    if config.get("partial_rotary_factor") is not None:
        params["partial_rotary_factor"] = config["partial_rotary_factor"]
    # [RU5] standardize_rope_params: for llama3, yarn and longrope,
    # `if hasattr(self, "original_max_position_embeddings"):
    #     self.rope_parameters["original_max_position_embeddings"] = self.original_max_position_embeddings
    #  else: self.rope_parameters.setdefault("original_max_position_embeddings", self.max_position_embeddings)`:
    # the top-level key (Phi-3) wins over the one inside the dict, and
    # max_position_embeddings fills it when neither is there.
    # VERSIONS: [RU4x] kept original_max_position_embeddings where the file put
    # it and read it per type (see yarn and longrope below).
    if params["rope_type"] in ("llama3", "yarn", "longrope"):
        if "original_max_position_embeddings" in config:
            params["original_max_position_embeddings"] = config["original_max_position_embeddings"]
        elif "max_position_embeddings" in config:
            params.setdefault("original_max_position_embeddings", config["max_position_embeddings"])
    return params


def rotary_dim_of(config, params):
    # [RU5] every _compute_* function and [LL5]:
    # `dim = int(head_dim * partial_rotary_factor)`, partial_rotary_factor
    # from the standardized dict, default 1.0. Python's int() truncates.
    prf = params.get("partial_rotary_factor")
    prf = 1.0 if prf is None else prf
    return int(head_dim_of(config) * prf)


# ---------------------------------------------------------------------------
# inv_freq and attention factor per rope type
# ---------------------------------------------------------------------------


def default_inv_freq(base, dim):
    # [LL5] compute_default_rope_parameters and [RU5] every _compute_*:
    # `inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2) / dim))`.
    exponents = np.arange(0, dim, 2, dtype=np.float64) / float(dim)
    return 1.0 / (float(base) ** exponents)


def compute_default(config, params, dim, seq_len):
    # [LL5] compute_default_rope_parameters: attention_factor = 1.0.
    return default_inv_freq(params["rope_theta"], dim), 1.0


def compute_linear(config, params, dim, seq_len):
    # [RU5] _compute_linear_scaling_rope_parameters: `factor =
    # rope_parameters_dict["factor"]`; `inv_freq /= factor`; attention 1.0.
    factor = _required(params, "factor")
    return default_inv_freq(params["rope_theta"], dim) / float(factor), 1.0


def compute_dynamic(config, params, dim, seq_len):
    # [RU5] _compute_dynamic_ntk_parameters.
    factor = float(_required(params, "factor"))
    max_pos = _required(config, "max_position_embeddings")
    # `if seq_len is None: seq_len = config.max_position_embeddings ...
    #  else: seq_len = max(seq_len, config.max_position_embeddings)`.
    # It reads max_position_embeddings, never original_max_position_embeddings.
    n = max_pos if seq_len is None else max(seq_len, max_pos)
    if dim == 2:
        # `** (dim / (dim - 2))` divides by zero in Python.
        raise TransformersRaises("dynamic NTK at rotary dim 2: dim / (dim - 2) divides by zero")
    # `base = base * ((factor * seq_len / config.max_position_embeddings) - (factor - 1)) ** (dim / (dim - 2))`
    base = float(params["rope_theta"]) * ((factor * n / max_pos) - (factor - 1)) ** (dim / (dim - 2))
    # `inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2) / dim))`; attention 1.0.
    return default_inv_freq(base, dim), 1.0


def _yarn_get_mscale(scale, mscale=1.0):
    # [RU5] _compute_yarn_parameters.get_mscale:
    # `if scale <= 1: return 1.0; return 0.1 * mscale * math.log(scale) + 1.0`.
    if scale <= 1:
        return 1.0
    return 0.1 * mscale * math.log(scale) + 1.0


def yarn_correction_range(dim, base, original_max, beta_fast, beta_slow, truncate):
    # [RU5] _compute_yarn_parameters.find_correction_dim:
    # `(dim * math.log(max_position_embeddings / (num_rotations * 2 * math.pi))) / (2 * math.log(base))`,
    # called with original_max_position_embeddings.
    def correction_dim(num_rotations):
        return (dim * math.log(original_max / (num_rotations * 2 * math.pi))) / (2 * math.log(base))

    # [RU5] find_correction_range(beta_fast, beta_slow, ...): low from
    # beta_fast, high from beta_slow; `if truncate: low = math.floor(low);
    # high = math.ceil(high)`; `return max(low, 0), min(high, dim - 1)`.
    # VERSIONS: [RU4x] and [RU44] always floor/ceil (no truncate flag).
    low = correction_dim(beta_fast)
    high = correction_dim(beta_slow)
    if truncate:
        low = math.floor(low)
        high = math.ceil(high)
    return max(low, 0), min(high, dim - 1)


def compute_yarn(config, params, dim, seq_len):
    # [RU5] _compute_yarn_parameters.
    base = float(params["rope_theta"])
    # `factor = rope_parameters_dict["factor"]`: a KeyError when absent;
    # `if factor is None: factor = config.max_position_embeddings / original_max_position_embeddings`
    # (an explicit null). VERSIONS: [RU4x] overrode the factor whenever
    # rope_scaling held original_max_position_embeddings
    # (`factor = config.max_position_embeddings / original_max_position_embeddings`),
    # so a Qwen2.5 file (factor 4, original 32768, max 32768) got factor 1
    # there; [RU44] used the factor as given and
    # config.max_position_embeddings in place of the original length.
    factor = _required(params, "factor")
    original_max = _required(params, "original_max_position_embeddings")
    if factor is None:
        factor = _required(config, "max_position_embeddings") / original_max
    factor = float(factor)
    attention_factor = params.get("attention_factor")
    mscale = params.get("mscale")
    mscale_all_dim = params.get("mscale_all_dim")
    # `if attention_factor is None:
    #     if mscale and mscale_all_dim:
    #         attention_factor = float(get_mscale(factor, mscale) / get_mscale(factor, mscale_all_dim))
    #     else: attention_factor = get_mscale(factor)`
    # (truthiness: a zero or missing mscale / mscale_all_dim falls back to
    # get_mscale(factor) with mscale = 1; mscale alone is ignored).
    # VERSIONS: [RU44] had no mscale: `0.1 * math.log(factor) + 1.0` always
    # (which is get_mscale for factor > 1 only).
    if attention_factor is None:
        if mscale and mscale_all_dim:
            attention_factor = float(_yarn_get_mscale(factor, mscale) / _yarn_get_mscale(factor, mscale_all_dim))
        else:
            attention_factor = _yarn_get_mscale(factor)
    # `beta_fast = rope_parameters_dict.get("beta_fast") or 32`,
    # `beta_slow = rope_parameters_dict.get("beta_slow") or 1` (0 means the default too).
    beta_fast = params.get("beta_fast") or 32
    beta_slow = params.get("beta_slow") or 1
    # `truncate = config.rope_parameters.get("truncate", True)`.
    truncate = params.get("truncate", True)
    low, high = yarn_correction_range(dim, base, original_max, beta_fast, beta_slow, truncate)
    # `linear_ramp_factor(min, max, dim)`: `if min == max: max += 0.001`;
    # `linear_func = (torch.arange(dim) - min) / (max - min)`;
    # `ramp_func = torch.clamp(linear_func, 0, 1)`; called with dim // 2.
    if low == high:
        high += 0.001
    ramp = np.clip((np.arange(dim // 2, dtype=np.float64) - low) / (high - low), 0.0, 1.0)
    # `pos_freqs = base ** (torch.arange(0, dim, 2) / dim)`;
    # `inv_freq_extrapolation = 1.0 / pos_freqs`;
    # `inv_freq_interpolation = 1.0 / (factor * pos_freqs)`;
    # `inv_freq_extrapolation_factor = 1 - linear_ramp_factor(low, high, dim // 2)`;
    # `inv_freq = inv_freq_interpolation * (1 - inv_freq_extrapolation_factor)
    #            + inv_freq_extrapolation * inv_freq_extrapolation_factor`.
    pos_freqs = base ** (np.arange(0, dim, 2, dtype=np.float64) / float(dim))
    extrapolation = 1.0 / pos_freqs
    interpolation = 1.0 / (factor * pos_freqs)
    extrapolation_factor = 1.0 - ramp
    inv_freq = interpolation * (1.0 - extrapolation_factor) + extrapolation * extrapolation_factor
    return inv_freq, float(attention_factor)


def compute_longrope(config, params, dim, seq_len):
    # [RU5] _compute_longrope_parameters.
    base = float(params["rope_theta"])
    long_factor = _required(params, "long_factor")
    short_factor = _required(params, "short_factor")
    # `factor = rope_parameters_dict.get("factor")`;
    # `original_max_position_embeddings = rope_parameters_dict["original_max_position_embeddings"]`;
    # `if factor is None: factor = config.max_position_embeddings / original_max_position_embeddings`.
    # VERSIONS: [RU4x] and [RU44]: `if hasattr(config, "original_max_position_embeddings"):
    # factor = config.max_position_embeddings / config.original_max_position_embeddings`
    # even when rope_scaling gave a factor; the same for Phi-3 files (no factor).
    factor = params.get("factor")
    original_max = _required(params, "original_max_position_embeddings")
    if factor is None:
        factor = _required(config, "max_position_embeddings") / original_max
    factor = float(factor)
    # `if attention_factor is None:
    #     if factor <= 1.0: attention_factor = 1.0
    #     else: attention_factor = math.sqrt(1 + math.log(factor) / math.log(original_max_position_embeddings))`
    attention_factor = params.get("attention_factor")
    if attention_factor is None:
        if factor <= 1.0:
            attention_factor = 1.0
        else:
            attention_factor = math.sqrt(1 + math.log(factor) / math.log(original_max))
    # `if seq_len and seq_len > original_max_position_embeddings: ext_factors = long_factor
    #  else: ext_factors = short_factor` (seq_len None or 0: short). At run time
    # [RU5] dynamic_rope_update.longrope_frequency_update passes
    # seq_len = original_max_position_embeddings + 1 once max(position_ids) + 1
    # exceeds the original length.
    ext = long_factor if (seq_len and seq_len > original_max) else short_factor
    ext = np.asarray(ext, dtype=np.float64)
    if ext.shape != (dim // 2,):
        # The tensor product below would not broadcast (or would silently
        # broadcast a length-1 list); transformers' validation warns on it.
        raise TransformersRaises(f"longrope factors have {ext.size} entries, rotary dim / 2 is {dim // 2}")
    # `inv_freq_shape = torch.arange(0, dim, 2) / dim`;
    # `inv_freq = 1.0 / (ext_factors * base**inv_freq_shape)`.
    inv_freq = 1.0 / (ext * base ** (np.arange(0, dim, 2, dtype=np.float64) / float(dim)))
    return inv_freq, float(attention_factor)


def compute_llama3(config, params, dim, seq_len):
    # [RU5] _compute_llama3_parameters.
    inv_freq = default_inv_freq(params["rope_theta"], dim)
    # `factor = rope_parameters_dict["factor"]`, `low_freq_factor = ...["low_freq_factor"]`,
    # `high_freq_factor = ...["high_freq_factor"]`,
    # `old_context_len = ...["original_max_position_embeddings"]` (all required;
    # the last filled by standardize_rope_params, see standardize()).
    factor = float(_required(params, "factor"))
    low_freq_factor = float(_required(params, "low_freq_factor"))
    high_freq_factor = float(_required(params, "high_freq_factor"))
    old_context_len = float(_required(params, "original_max_position_embeddings"))
    # `low_freq_wavelen = old_context_len / low_freq_factor`;
    # `high_freq_wavelen = old_context_len / high_freq_factor`;
    # `wavelen = 2 * math.pi / inv_freq`.
    low_freq_wavelen = old_context_len / low_freq_factor
    high_freq_wavelen = old_context_len / high_freq_factor
    wavelen = 2 * math.pi / inv_freq
    # `inv_freq_llama = torch.where(wavelen > low_freq_wavelen, inv_freq / factor, inv_freq)`.
    inv_freq_llama = np.where(wavelen > low_freq_wavelen, inv_freq / factor, inv_freq)
    # `smooth_factor = (old_context_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)`;
    # `smoothed_inv_freq = (1 - smooth_factor) * inv_freq_llama / factor + smooth_factor * inv_freq_llama`;
    # `is_medium_freq = ~(wavelen < high_freq_wavelen) * ~(wavelen > low_freq_wavelen)`;
    # `inv_freq_llama = torch.where(is_medium_freq, smoothed_inv_freq, inv_freq_llama)`.
    with np.errstate(divide="ignore", invalid="ignore"):
        smooth_factor = (old_context_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
        smoothed = (1 - smooth_factor) * inv_freq_llama / factor + smooth_factor * inv_freq_llama
    is_medium = ~(wavelen < high_freq_wavelen) & ~(wavelen > low_freq_wavelen)
    # attention_factor = 1.0 ("Unused in this type of RoPE").
    return np.where(is_medium, smoothed, inv_freq_llama), 1.0


def _required(mapping, key):
    # transformers indexes these with [...] (a KeyError when absent).
    if key not in mapping:
        raise TransformersRaises(f"KeyError: {key!r}")
    return mapping[key]


# [RU5] ROPE_INIT_FUNCTIONS (plus [LL5]'s default): the six types sinpe has.
COMPUTE = {
    "default": compute_default,
    "linear": compute_linear,
    "dynamic": compute_dynamic,
    "yarn": compute_yarn,
    "longrope": compute_longrope,
    "llama3": compute_llama3,
}


def rope_from_config(config, seq_len=None):
    """(rope_type, head_dim, rotary_dim, inv_freq float64 array, attention factor)."""
    params = standardize(config)
    rope_type = params["rope_type"]
    if rope_type not in COMPUTE:
        raise TransformersRaises(f"rope type {rope_type!r} is not one of {sorted(COMPUTE)}")
    dim = rotary_dim_of(config, params)
    inv_freq, attention_factor = COMPUTE[rope_type](config, params, dim, seq_len)
    return rope_type, head_dim_of(config), dim, np.asarray(inv_freq, dtype=np.float64), float(attention_factor)


def cache(inv_freq, attention_factor, positions):
    """cos/sin rows, shape (len(positions), len(inv_freq)).

    [LL5] forward: `freqs = inv_freq @ position_ids` (transposed);
    `emb = torch.cat((freqs, freqs), dim=-1)`; `cos = emb.cos() * self.attention_scaling`,
    `sin = emb.sin() * self.attention_scaling`: the first half of emb is the
    cache onnxruntime and sinpe keep (cat repeats it)."""
    p = np.asarray(positions, dtype=np.float64).reshape(-1, 1)
    angles = p * inv_freq.reshape(1, -1)
    return np.cos(angles) * attention_factor, np.sin(angles) * attention_factor


def answer(case, binary_caches=False):
    try:
        rope_type, head_dim, dim, inv_freq, att = rope_from_config(case["config"], case.get("seqLen"))
    except TransformersRaises as e:
        return {"name": case.get("name"), "error": str(e)}
    out = {
        "name": case.get("name"),
        "ropeType": rope_type,
        "headDim": head_dim,
        "rotaryDim": dim,
        "invFreq": inv_freq.tolist(),
        "attentionFactor": att,
    }
    if not (np.all(np.isfinite(inv_freq)) and math.isfinite(att)):
        raise ValueError(f"{case.get('name')}: a frequency or the attention factor is not finite")
    if "positions" in case:
        c, s = cache(inv_freq, att, case["positions"])
        if not (np.all(np.isfinite(c)) and np.all(np.isfinite(s))):
            raise ValueError(f"{case.get('name')}: a cache value is not finite")
        if binary_caches:
            # Little-endian float64 bytes in base64: exact, and far quicker to
            # write and read than decimal text for large caches.
            out["cosBase64"] = base64.b64encode(c.astype("<f8").tobytes()).decode("ascii")
            out["sinBase64"] = base64.b64encode(s.astype("<f8").tobytes()).decode("ascii")
        else:
            out["cos"] = c.ravel().tolist()
            out["sin"] = s.ravel().tolist()
    return out


# ---------------------------------------------------------------------------
# Values pinned by another hand
# ---------------------------------------------------------------------------


def printed_tolerance(printed, exact):
    """How far a float32 value printed to `digits` significant digits may be
    from the float64 value: half a unit in the last printed digit, plus
    float32's own rounding of inv_freq (a few ulps, < 1e-6 relative)."""
    value, digits = printed
    if value == 0:
        return 1e-12
    exponent = math.floor(math.log10(abs(value)))
    return 0.5 * 10.0 ** (exponent - (digits - 1)) + 1e-6 * abs(exact)


def check_pinned(path):
    with open(path, encoding="utf-8") as f:
        fixture = json.load(f)
    worst = {}
    failures = []
    count = 0
    for entry in fixture["cases"]:
        rope_type, _, dim, inv_freq, att = rope_from_config(entry["config"], entry.get("seqLen"))
        if rope_type != entry["ropeType"]:
            failures.append(f"{entry['name']}: rope type {rope_type}, fixture {entry['ropeType']}")
        digits = entry.get("significantDigits", 5)
        if "invFreq" in entry:
            if len(entry["invFreq"]) != len(inv_freq):
                failures.append(f"{entry['name']}: {len(inv_freq)} frequencies, fixture {len(entry['invFreq'])}")
                continue
            # "pinnedDividedBy": the test asserts inv_freq == pinned / divisor
            # (linear: the default list / factor; longrope: / short or long factor).
            divisors = entry.get("pinnedDividedBy", [1.0] * len(inv_freq))
            for j, (pinned, divisor, mine) in enumerate(zip(entry["invFreq"], divisors, inv_freq)):
                mine = mine * divisor
                count += 1
                err = abs(mine - pinned)
                tol = printed_tolerance((pinned, digits), mine)
                ratio = err / tol
                if not (ratio <= 1.0):  # NaN fails too
                    failures.append(f"{entry['name']}: inv[{j}] = {mine!r}, pinned {pinned!r} (tolerance {tol:.3g})")
                worst[rope_type] = max(worst.get(rope_type, 0.0), ratio) if ratio == ratio else math.inf
        if "attentionFactor" in entry:
            count += 1
            pinned = entry["attentionFactor"]
            err = abs(att - pinned)
            if not (err <= 1e-15 * max(1.0, abs(pinned))):
                failures.append(f"{entry['name']}: attention factor {att!r}, pinned {pinned!r}")
    return count, worst, failures


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", help="cases file (JSON list), or - for stdin")
    parser.add_argument("--check-pinned", help="fixture of values pinned by another hand")
    parser.add_argument(
        "--binary-caches", action="store_true", help="cos/sin as base64 little-endian float64 (cosBase64, sinBase64)"
    )
    args = parser.parse_args(argv)
    if args.json:
        source = sys.stdin if args.json == "-" else open(args.json, encoding="utf-8")
        with source:
            cases = json.load(source)
        # allow_nan=False: a NaN or infinity in the reference is a bug, never data.
        json.dump([answer(c, args.binary_caches) for c in cases], sys.stdout, allow_nan=False)
        sys.stdout.write("\n")
        return 0
    if args.check_pinned:
        count, worst, failures = check_pinned(args.check_pinned)
        for line in failures:
            print("FAIL " + line)
        summary = ", ".join(f"{t} {w:.2f}" for t, w in sorted(worst.items()))
        print(f"rope_reference: {count} pinned values checked; worst error / tolerance per type: {summary}")
        return 1 if failures or count == 0 else 0
    parser.print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
