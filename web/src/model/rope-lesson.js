// Fixed inputs of the RoPE lesson: the sizes its figures use, the scaling
// types it compares with the options each reads, and the config.json
// examples: the RoPE-related keys of published config.json files (the same
// files as tests/js/fixtures/configs, whose README gives their provenance),
// plus two hand-written ones that say so in `_model`.
//
// Pure module: no DOM, so Node tests can load it.

export const DIAL_HEAD_DIM = 8; // 4 pairs: one dial each
export const CHECK_HEAD_DIM = 64;
export const SCALING_ROTARY_DIM = 128; // Llama's head size
export const PRECISION_ROTARY_DIM = 128;

export const SCALING_TYPES = Object.freeze(['default', 'linear', 'dynamic', 'yarn', 'llama3']);

/**
 * The package options of one scaling type for the lesson's state: base b,
 * factor s, original context L = state.ctx. Only options the type reads are
 * given (the package refuses the others). Dynamic NTK is shown at the target
 * length s·L (its frequencies depend on the current sequence length).
 */
export function scalingOptions(type, state) {
  const { base, factor, ctx } = state;
  switch (type) {
    case 'default':
      return { ropeType: 'default', base };
    case 'linear':
      return { ropeType: 'linear', base, factor };
    case 'dynamic':
      return { ropeType: 'dynamic', base, factor, maxPositions: ctx, seqLen: Math.round(factor * ctx) };
    case 'yarn':
      return { ropeType: 'yarn', base, factor, originalMaxPositions: ctx };
    case 'llama3':
      return { ropeType: 'llama3', base, factor, originalMaxPositions: ctx };
    default:
      throw new RangeError(`unknown scaling type ${type}`);
  }
}

// config.json texts as pasted (numbers spelled as in the files)
export const CONFIG_EXAMPLES = Object.freeze({
  llama31: `{
  "_model": "meta-llama/Llama-3.1-8B",
  "architectures": ["LlamaForCausalLM"],
  "hidden_size": 4096,
  "num_attention_heads": 32,
  "num_key_value_heads": 8,
  "max_position_embeddings": 131072,
  "rope_theta": 500000.0,
  "rope_scaling": {
    "factor": 8.0,
    "low_freq_factor": 1.0,
    "high_freq_factor": 4.0,
    "original_max_position_embeddings": 8192,
    "rope_type": "llama3"
  }
}`,
  llama31v5: `{
  "_model": "meta-llama/Llama-3.1-8B as transformers v5 writes it",
  "architectures": ["LlamaForCausalLM"],
  "hidden_size": 4096,
  "num_attention_heads": 32,
  "num_key_value_heads": 8,
  "head_dim": 128,
  "max_position_embeddings": 131072,
  "rope_parameters": {
    "factor": 8.0,
    "high_freq_factor": 4.0,
    "low_freq_factor": 1.0,
    "original_max_position_embeddings": 8192,
    "rope_theta": 500000.0,
    "rope_type": "llama3"
  }
}`,
  qwen25yarn: `{
  "_model": "Qwen/Qwen2.5-7B-Instruct with the YaRN block its model card asks for",
  "architectures": ["Qwen2ForCausalLM"],
  "hidden_size": 3584,
  "num_attention_heads": 28,
  "num_key_value_heads": 4,
  "max_position_embeddings": 32768,
  "rope_theta": 1000000.0,
  "rope_scaling": {
    "factor": 4.0,
    "original_max_position_embeddings": 32768,
    "type": "yarn"
  }
}`,
  deepseekv3: `{
  "_model": "deepseek-ai/DeepSeek-V3",
  "architectures": ["DeepseekV3ForCausalLM"],
  "hidden_size": 7168,
  "num_attention_heads": 128,
  "num_key_value_heads": 128,
  "qk_rope_head_dim": 64,
  "max_position_embeddings": 163840,
  "rope_theta": 10000,
  "rope_scaling": {
    "beta_fast": 32,
    "beta_slow": 1,
    "factor": 40,
    "mscale": 1.0,
    "mscale_all_dim": 1.0,
    "original_max_position_embeddings": 4096,
    "type": "yarn"
  }
}`,
  phi35: `{
  "_model": "microsoft/Phi-3.5-mini-instruct",
  "architectures": ["Phi3ForCausalLM"],
  "hidden_size": 3072,
  "num_attention_heads": 32,
  "num_key_value_heads": 32,
  "max_position_embeddings": 131072,
  "original_max_position_embeddings": 4096,
  "rope_theta": 10000.0,
  "rope_scaling": {
    "long_factor": [1.0800000429153442, 1.1100000143051147, 1.1399999856948853, 1.340000033378601, 1.5899999141693115, 1.600000023841858, 1.6200000047683716, 2.620000123977661, 3.2300000190734863, 3.2300000190734863, 4.789999961853027, 7.400000095367432, 7.700000286102295, 9.09000015258789, 12.199999809265137, 17.670000076293945, 24.46000099182129, 28.57000160217285, 30.420001983642578, 30.840002059936523, 32.590003967285156, 32.93000411987305, 42.320003509521484, 44.96000289916992, 50.340003967285156, 50.45000457763672, 57.55000305175781, 57.93000411987305, 58.21000289916992, 60.1400032043457, 62.61000442504883, 62.62000274658203, 62.71000289916992, 63.1400032043457, 63.1400032043457, 63.77000427246094, 63.93000411987305, 63.96000289916992, 63.970001220703125, 64.02999877929688, 64.06999969482422, 64.08000183105469, 64.12000274658203, 64.41000366210938, 64.4800033569336, 64.51000213623047, 64.52999877929688, 64.83999633789062],
    "short_factor": [1.0, 1.0199999809265137, 1.0299999713897705, 1.0299999713897705, 1.0499999523162842, 1.0499999523162842, 1.0499999523162842, 1.0499999523162842, 1.0499999523162842, 1.0699999332427979, 1.0999999046325684, 1.1099998950958252, 1.1599998474121094, 1.1599998474121094, 1.1699998378753662, 1.2899998426437378, 1.339999794960022, 1.679999828338623, 1.7899998426437378, 1.8199998140335083, 1.8499997854232788, 1.8799997568130493, 1.9099997282028198, 1.9399996995925903, 1.9899996519088745, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0799996852874756, 2.0899996757507324, 2.189999580383301, 2.2199995517730713, 2.5899994373321533, 2.729999542236328, 2.749999523162842, 2.8399994373321533],
    "type": "longrope"
  }
}`,
  phi2: `{
  "_model": "microsoft/phi-2",
  "architectures": ["PhiForCausalLM"],
  "hidden_size": 2560,
  "num_attention_heads": 32,
  "num_key_value_heads": 32,
  "partial_rotary_factor": 0.4,
  "max_position_embeddings": 2048,
  "rope_theta": 10000.0,
  "rope_scaling": null
}`,
  gemma7b: `{
  "_model": "google/gemma-7b",
  "architectures": ["GemmaForCausalLM"],
  "hidden_size": 3072,
  "num_attention_heads": 16,
  "num_key_value_heads": 16,
  "head_dim": 256,
  "max_position_embeddings": 8192,
  "rope_theta": 10000.0,
  "rope_scaling": null
}`,
  llama2linear: `{
  "_model": "Llama 2 7B with linear scaling ×4 (hand-written)",
  "hidden_size": 4096,
  "num_attention_heads": 32,
  "max_position_embeddings": 16384,
  "rope_theta": 10000.0,
  "rope_scaling": {
    "type": "linear",
    "factor": 4.0
  }
}`,
  llama2dynamic: `{
  "_model": "Llama 2 7B with dynamic NTK ×2 (hand-written)",
  "hidden_size": 4096,
  "num_attention_heads": 32,
  "max_position_embeddings": 4096,
  "rope_theta": 10000.0,
  "rope_scaling": {
    "type": "dynamic",
    "factor": 2.0
  }
}`,
});

export const CONFIG_EXAMPLE_IDS = Object.freeze(Object.keys(CONFIG_EXAMPLES));
