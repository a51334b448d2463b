// 简体中文 wording of the package's reasons, by the name the package gives
// them: `statuses` by the vocabulary's status name (error.status), `config` by
// ropeOptionsFromConfig's code (error.code). Each string has exactly the
// placeholders of the package's own message (error.values fills them); in
// English the site shows the package's message itself.
import { vocabulary } from 'sinpe.wasm';

// The three statuses every option has: a bad value, an option the formula
// does not read, and a required option left out. Which status is which
// option's, and each option's type and rule, come from the vocabulary; the
// wording of a rule is translated here once per rule (the English is
// vocabulary_js.cpp's rule_text).
const notRead = (option) => `options.${option} 不适用于 {family} '{familyName}'（它读取的是：{reads}）`;
const missing = (option) => `{family} '{familyName}' 需要 options.${option}`;
const RULE_WORDS = {
  positive: '有限的正数',
  finite: '有限的数',
  index: '满足 |value| < 2^24 的整数',
  count: ' [1, 2^24) 中的整数',
  length: ' [1, 2^24] 中的整数',
  fraction: ' (0, 1] 中的数',
  any: '布尔值',
};
const ARRAY_RULE_WORDS = {
  count: '由 [1, 2^24) 中的整数组成的数组',
  positive: '由 rotaryDim/2 = {pairs} 个有限正数组成的数组',
};
const badValue = (o) =>
  o.type === 'numberArray'
    ? `options.${o.name} 必须是${ARRAY_RULE_WORDS[o.rule]}，实际为 {element}`
    : `options.${o.name} 必须是${RULE_WORDS[o.rule]}，实际为 {value}`;

// Each option's bad-value status: the bad_ status whose argument names the option.
const BAD_STATUS = new Map(vocabulary.options.map((o) => [o.name, vocabulary.statuses.find((st) => st.name.startsWith('bad_') && st.argument === `options.${o.name}`).name]));

// An option's statuses by the vocabulary: bad_<option> (BAD_STATUS); the other two share its stem.
const optionStatuses = Object.fromEntries(
  vocabulary.options.flatMap((o) => {
    const bad = BAD_STATUS.get(o.name);
    const stem = bad.slice('bad_'.length);
    return [
      [bad, badValue(o)],
      [`${stem}_not_read`, notRead(o.name)],
      [`${stem}_missing`, missing(o.name)],
    ];
  }),
);

const statuses = {
  bad_preset: 'options.preset 必须是 {presets} 之一；实际为 {preset}',
  bad_layout: 'options.layout 必须是 {layouts} 之一；实际为 {layout}',
  layout_conflict: 'options.flipSinToCos 和 options.layout 不能同时给出',
  d_model_out_of_range: 'dModel 必须是 [1, {maxDModel}] 中的整数，实际为 {dModel}',
  d_model_odd: "预设 '{preset}' 要求 dModel 为偶数（它的 sin/cos 列成对出现），实际为 {dModel}",
  d_model_not_multiple_of_4: "预设 '{preset}' 的二维网格要求 dModel 是 4 的倍数（每个轴分到 dModel/2，它必须是偶数），实际为 {dModel}",
  d_model_too_small: "dModel {dModel} 对预设 '{preset}' 来说太小：它的频率公式会除以零",
  frequencies_not_finite: "给出的选项（{given}）使 {family} '{preset}' 的某个频率上溢、下溢为零或变成 NaN",
  bad_count: '{countName} 必须是 [0, {maxCount}] 中的整数，实际为 {count}',
  bad_start: '{startName} 必须是整数，实际为 {start}',
  position_not_finite: '{position} 必须是有限的数，实际为 {value}',
  position_out_of_range: '{position} 必须满足 |position| < 2^24，实际为 {value}',
  too_large: '{countName} = {count}：结果（{rows} × {width} 个值）会超过单次结果 2^29 个元素（2 GiB）的上限',
  null_pointer: 'C++ 调用的某个指针参数（positions、out、cos、sin、x、lut 或要填写的计划）为空，而这次调用有值要读或写',
  invalid_plan: '这个计划不可用：它是空的、已释放、构建失败，或者不是这次调用需要的那类计划',
  bad_request: '选项请求块格式不对（这是包与模块之间的调用约定，不是调用者的选项）',
  bad_chunk: '某一块的数量、起始行、列或头宽超出了模块暂存区能容纳的范围（这是包与模块之间的调用约定）',
  bad_column_window: 'options.columnStart 和 options.columns 选出的列必须在 [0, {dModel}) 之内，实际为 [{columnStart}, {columnEnd})',
  bad_value_range: 'options.vmin（{vmin}）必须小于 options.vmax（{vmax}），且两者都是有限数',
  bad_dtype: 'options.dtype 必须是 {dtypes} 之一（Uint16Array 结果用 float16 或 bfloat16）；实际为 {dtype}',
  bad_recipe: 'options.recipe 必须是 {recipes} 之一；实际为 {recipe}',
  bad_rope_type: 'options.ropeType 必须是 {ropeTypes} 之一；实际为 {ropeType}',
  bad_rope_layout: 'RoPE 的 options.layout 必须是 {ropeLayouts} 之一；实际为 {layout}',
  bad_rotary_dim: '{rotaryDimName} 必须是 [2, {maxDModel}] 中的偶数，实际为 {rotaryDim}',
  bad_head_dim: 'headDim 必须是 [1, {maxDModel}] 中的整数，实际为 {headDim}',
  rotary_dim_above_head_dim: 'options.rotaryDim（{rotaryDim}）不能超过 headDim（{headDim}）',
  bad_x_length: 'x.length（{xLength}）必须是 positions × headDim（{rowLength}）的正整数倍',
  rope_base_not_above_one: 'RoPE 的 options.base 必须大于 1，实际为 {base}',
  bad_rope_axes: 'options.ropeAxes 必须是 {ropeAxesNames} 之一；实际为 {ropeAxes}',
  mrope_section_sum: 'options.mropeSection 必须有 1 到 {maxRopeAxes} 项，且总和为 rotaryDim/2（rotaryDim {rotaryDim}），实际为 {value}',
  rotary_dim_not_multiple_of_4:
    "ropeAxes 'pixtral' 要求 {rotaryDimName} 是 4 的倍数（行和列各占一半的频率对，频率交替），实际为 {rotaryDim}",
  axes_mismatch:
    "网格需要有 2 个位置轴的计划（options.mropeSection 有 2 项，或 options.ropeAxes 为 'pixtral'），但 options.mropeSection 和 options.ropeAxes 给出的计划有 {axes} 个轴",
  freq_factor_order: 'options.lowFreqFactor（{lowFreqFactor}）必须小于 options.highFreqFactor（{highFreqFactor}）',
  float16_overflow:
    "给出的选项（{given}）让注意力因子把 cos 和 sin 放大到超过 {maxFloat16}，即 float16 最大的有限值：options.dtype 'float16' 装不下它们（'bfloat16' 或 'float32' 可以）",
  ...optionStatuses,
};

// A broken rule of a RoPE plan (the vocabulary's rules) read from a
// config.json: ropeOptionsFromConfig words it as the core's status message
// with each option the rule binds, options.<name>, replaced by its config key
// ({<name>Key}); its 简体中文 wording is the status's, replaced the same way.
const ruleReasons = Object.fromEntries(
  vocabulary.rules.map((rule) => [
    rule.status,
    rule.options.reduce((text, name) => text.replaceAll(`options.${name}`, `{${name}Key}`), statuses[rule.status]),
  ]),
);

// A config value against its option's rule (the core's refusal, worded by
// ropeOptionsFromConfig with the config key): the status's wording with
// options.<name> replaced by {configKey}.
const valueReasons = Object.fromEntries(
  vocabulary.options.map((o) => {
    const bad = BAD_STATUS.get(o.name);
    return [bad, statuses[bad].replaceAll(`options.${o.name}`, '{configKey}')];
  }),
);

export default {
  statuses,
  config: {
    not_config: 'config 必须是解析后的 config.json 对象，实际为 {value}',
    cycle: '{configKey} 指回了包含它的对象（循环引用）',
    too_long: '{configKey} 有 {length} 项，超过单个结果的上限 {limit}',
    not_number: '{configKey} 必须是数，实际为 {value}',
    not_positive_integer: '{configKey} 必须是正整数，实际为 {value}',
    not_boolean: '{configKey} 必须是 true 或 false，实际为 {value}',
    not_array: '{configKey} 必须是数的数组，实际为 {value}',
    element_not_number: '{configKey}[{index}] 必须是数，实际为 {value}',
    not_object: '{configKey} 必须是对象或 null，实际为 {value}',
    not_string_array: '{configKey} 必须是字符串数组，实际为 {value}',
    element_not_string: '{configKey}[{index}] 必须是字符串，实际为 {value}',
    layer_type_not_object: '{configKey} 必须是对象，实际为 {value}',
    text_config_not_object: '{configKey} 必须是对象，实际为 {value}',
    no_layer_parameters: '{configKey} 没有为任何层类型给出参数',
    mrope_section_missing: '{configKey} 为 true，但缺少 {sectionKey}',
    missing_head_width: '缺少 {configKey}（而且没有 head_dim）',
    heads_not_divisor: '{configKey}（{hidden}）不是 {headsKey}（{heads}）的整数倍；这个配置需要 head_dim',
    not_string: '{configKey} 必须是字符串，实际为 {value}',
    unknown_rope_type: "{configKey} 是 '{value}'，sinpe 不计算这种类型；支持的 rope 类型：{ropeTypes}",
    missing: "缺少 {configKey}（rope 类型 '{ropeType}' 需要它）",
    ...ruleReasons,
    ...valueReasons,
  },
};
