// Which pairs of a head a model family's own code rotates together, from its
// config.json (`model_type`, else `architectures`): the one place sinpe.wasm/onnx
// keeps that table.
//   'half':        pairs (j, j + r/2): transformers' rotate_half on
//                  torch.cat((freqs, freqs)); onnxruntime's interleaved = 0.
//   'interleaved': pairs (2j, 2j + 1): rotate_every_two, a rotate_half on
//                  x[..., 0::2] / x[..., 1::2], or view_as_complex on (…, r/2, 2);
//                  onnxruntime's interleaved = 1.
// Each entry names the code it was read from (transformers' src/transformers/
// models/<name>/modeling_<name>.py unless said otherwise). A family not listed
// here has no entry: its layout is not checked (null), never guessed.

const HALF = 'half';
const INTERLEAVED = 'interleaved';

// model_type → layout (or a function of the config for a family with a switch).
const FAMILIES = {
  // modeling_llama.py rotate_half: cat(-x[..., r/2:], x[..., :r/2]); apply_rotary_pos_emb.
  llama: HALF,
  // modeling_mistral.py rotate_half ("Copied from transformers.models.llama.modeling_llama.rotate_half").
  mistral: HALF,
  // modeling_mixtral.py rotate_half (halves) used by apply_rotary_pos_emb.
  mixtral: HALF,
  // modeling_qwen2.py rotate_half (halves) used by apply_rotary_pos_emb (Qwen2 and Qwen2.5).
  qwen2: HALF,
  // modeling_qwen3.py rotate_half (halves) used by apply_rotary_pos_emb.
  qwen3: HALF,
  // modeling_granite.py rotate_half ("Copied from transformers.models.llama.modeling_llama.rotate_half").
  granite: HALF,
  // modeling_olmo.py RotaryEmbedding.rotate_half: x.view(B, nh, T, 2, hs // 2).unbind: the two halves.
  olmo: HALF,
  // modeling_gemma2.py apply_rotary_pos_emb: (q * cos) + (rotate_half(q) * sin), cos of cat((freqs, freqs)).
  gemma2: HALF,
  // modeling_phi3.py rotate_half (halves) on q[..., :rotary_dim] in apply_rotary_pos_emb (Phi-3, Phi-3.5, Phi-4 mini).
  phi3: HALF,
  // modeling_gemma3.py rotate_half (halves) in apply_rotary_pos_emb (Gemma3TextConfig 'gemma3_text'; the multimodal 'gemma3' wraps it).
  gemma3_text: HALF,
  gemma3: HALF,
  // modeling_deepseek_v3.py DeepseekV3Attention.forward: config.rope_interleave (default true) →
  // apply_rotary_pos_emb_interleave (q.view(…, d/2, 2): pairs 2j, 2j+1 of the weights), else apply_rotary_pos_emb (halves).
  deepseek_v3: (config) => (config.rope_interleave === false ? HALF : INTERLEAVED),
  // modeling_deepseek_v2.py apply_rotary_emb: view_as_complex(x.reshape(…, -1, 2)) × freqs_cis: pairs 2j, 2j+1.
  deepseek_v2: INTERLEAVED,
  // modeling_gptj.py rotate_every_two (x[..., ::2], x[..., 1::2]) with repeat_interleave'd sin/cos.
  gptj: INTERLEAVED,
  // modeling_codegen.py rotate_every_two ("Copied from transformers.models.gptj.modeling_gptj.rotate_every_two").
  codegen: INTERLEAVED,
  // modeling_glm.py rotate_half: stack((-x[..., 1::2], x[..., 0::2])).flatten(-2), cos/sin repeat_interleave(2).
  glm: INTERLEAVED,
  // ChatGLM (remote code, not in transformers): onnxruntime-genai's builder
  // src/python/py/models/builders/chatglm.py sets rope_attrs["interleaved"] = 1.
  chatglm: INTERLEAVED,
  // modeling_ernie4_5.py rotate_half on x[..., 0::2] / x[..., 1::2] ("glm rope style"); the builder's ernie.py sets interleaved = 1.
  ernie4_5: INTERLEAVED,
  // modeling_cohere.py rotate_half: x[..., ::2], x[..., 1::2] ("different from e.g. Llama"), emb = repeat_interleave(freqs, 2).
  cohere: INTERLEAVED,
};

// architectures[0] → model_type, for a config without model_type (the classes the files above define).
const ARCHITECTURES = {
  LlamaForCausalLM: 'llama',
  MistralForCausalLM: 'mistral',
  MixtralForCausalLM: 'mixtral',
  Qwen2ForCausalLM: 'qwen2',
  Qwen3ForCausalLM: 'qwen3',
  GraniteForCausalLM: 'granite',
  OlmoForCausalLM: 'olmo',
  Gemma2ForCausalLM: 'gemma2',
  Phi3ForCausalLM: 'phi3',
  Gemma3ForCausalLM: 'gemma3_text',
  Gemma3ForConditionalGeneration: 'gemma3',
  DeepseekV3ForCausalLM: 'deepseek_v3',
  DeepseekV2ForCausalLM: 'deepseek_v2',
  GPTJForCausalLM: 'gptj',
  CodeGenForCausalLM: 'codegen',
  GlmForCausalLM: 'glm',
  ChatGLMModel: 'chatglm',
  ChatGLMForConditionalGeneration: 'chatglm',
  Ernie4_5ForCausalLM: 'ernie4_5',
  CohereForCausalLM: 'cohere',
};

/**
 * The rotary layout a config's model family uses: { family, layout: 'half' | 'interleaved', interleaved: 0 | 1 },
 * or null when the family is not in the table (or there is no config).
 */
export function familyLayout(config) {
  if (config === null || typeof config !== 'object') return null;
  let family = typeof config.model_type === 'string' ? config.model_type : null;
  if (!(family in FAMILIES)) {
    const arch = Array.isArray(config.architectures) ? config.architectures.find((a) => a in ARCHITECTURES) : undefined;
    family = arch === undefined ? null : ARCHITECTURES[arch];
  }
  if (family === null || !(family in FAMILIES)) return null;
  const entry = FAMILIES[family];
  const layout = typeof entry === 'function' ? entry(config) : entry;
  return { family, layout, interleaved: layout === INTERLEAVED ? 1 : 0 };
}

const ATTRIBUTE = { GroupQueryAttention: 'rotary_interleaved' };
const WHAT = {
  [HALF]: 'rotates halves (rotate_half: pairs j and j + r/2)',
  [INTERLEAVED]: 'rotates interleaved pairs (2j and 2j + 1)',
};

/**
 * A cache site's report whose readers' layout attribute disagrees with the
 * family's becomes a mismatch ('layout-attribute'), whatever its values: the
 * operator would rotate the wrong pairs. Returns the report (changed or not).
 */
export function checkLayout(report, config) {
  const f = familyLayout(config);
  if (f === null || report.kind !== 'cache') return report;
  const wrong = report.consumers.find((c) => c.interleaved !== null && c.interleaved !== f.interleaved);
  if (wrong === undefined) return report;
  const attribute = ATTRIBUTE[wrong.opType] ?? 'interleaved';
  const detail = `${wrong.opType} ${wrong.node} has ${attribute} = ${wrong.interleaved} but ${f.family} ${WHAT[f.layout]}; onnxruntime would rotate the wrong pairs (set ${attribute} = ${f.interleaved})`;
  report.verdict = 'mismatch';
  report.diagnosis = { mistake: 'layout-attribute', detail, recipe: null };
  report.message = `${report.cos.name}: mismatch — ${detail}`;
  return report;
}
