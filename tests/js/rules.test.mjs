// The rules of a RoPE plan (vocabulary.def's SINPE_RULE table, generated into
// vocabulary.rules) are stated once, in the core:
// - every rule is enforced identically by pe.ropeCache and by
//   ropeOptionsFromConfig (the same status, worded from the same message, the
//   option the status names replaced by the config key it came from);
// - js/rope-config*.js compare no value of an option a rule binds (nor the
//   rotary dimension) with anything: it asks the core;
// - the core's sources return a rule's status only from the rules table
//   (vocabulary.cpp's check_rope_rules), but for the module's argument parsing;
// - the standalone ropeOptionsFromConfig, before any module is loaded, reads
//   what needs no module and says it needs one for the rest.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sinpe, { ropeOptionsFromConfig, vocabulary } from 'sinpe.wasm';

const dir = dirname(createRequire(import.meta.url).resolve('sinpe.wasm/package.json'));
// ropeOptionsFromConfig's files: js/rope-config.js (the reader) and every
// ./rope-config-*.js it imports, directly or not (key locations, value
// checks, errors).
const sourceFiles = ['rope-config.js'];
for (const f of sourceFiles) {
  for (const m of readFileSync(join(dir, 'js', f), 'utf8').matchAll(/from '\.\/(rope-config-[a-z]+\.js)'/g)) {
    if (!sourceFiles.includes(m[1])) sourceFiles.push(m[1]);
  }
}
const source = sourceFiles.map((f) => readFileSync(join(dir, 'js', f), 'utf8')).join('\n');
const STATUS = new Map(vocabulary.statuses.map((s) => [s.name, s]));
const OPTION = new Map(vocabulary.options.map((o) => [o.name, o]));

let pe;
before(async () => {
  pe = await sinpe();
});

// One way to break each rule: through pe.ropeCache (rotaryDim, options) and
// through a config.json holding the same values (config: null where no
// config.json can, with the reason). The config keys each bound option comes
// from are written out here, from transformers' key names.
const heads = { hidden_size: 64, num_attention_heads: 4 }; // head width 16
const CASES = {
  rope_base_above_one: {
    call: [16, { base: 0.5 }],
    config: { ...heads, rope_theta: 0.5 },
    keys: { base: 'config.rope_theta' },
  },
  rotary_dim_even: {
    call: [9, {}],
    config: { hidden_size: 36, num_attention_heads: 2, partial_rotary_factor: 0.5 }, // 18 × 0.5 = 9
    keys: {},
  },
  mrope_section_sum: {
    call: [16, { mropeSection: [2, 2, 2] }],
    config: { ...heads, rope_scaling: { rope_type: 'default', mrope_section: [2, 2, 2] } },
    keys: { mropeSection: 'config.rope_scaling.mrope_section' },
  },
  pixtral_rotary_dim: {
    call: [18, { ropeAxes: 'pixtral' }],
    config: null, // ropeOptionsFromConfig never sets ropeAxes 'pixtral'
    keys: {},
  },
  freq_factor_order: {
    call: [16, { ropeType: 'llama3', factor: 8, lowFreqFactor: 4, highFreqFactor: 1, originalMaxPositions: 8192 }],
    config: {
      ...heads,
      rope_scaling: { rope_type: 'llama3', factor: 8, low_freq_factor: 4, high_freq_factor: 1, original_max_position_embeddings: 8192 },
    },
    keys: { lowFreqFactor: 'config.rope_scaling.low_freq_factor', highFreqFactor: 'config.rope_scaling.high_freq_factor' },
  },
};
function thrown(f) {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
}

// The message template as a pattern: placeholders match anything.
const pattern = (template) =>
  new RegExp(`^sinpe: ${template.split(/\{\w+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+')}$`);

test('the vocabulary lists the rules, each with a status of its own kind and options that exist', () => {
  assert.ok(vocabulary.rules.length >= 5, `${vocabulary.rules.length} rules`);
  assert.equal(new Set(vocabulary.rules.map((r) => r.name)).size, vocabulary.rules.length, 'a rule named twice');
  for (const rule of vocabulary.rules) {
    assert.ok(STATUS.has(rule.status), `${rule.name}: status ${rule.status}`);
    for (const name of rule.options) assert.ok(OPTION.has(name), `${rule.name}: option ${name}`);
    assert.ok(rule.text.length > 10, `${rule.name}: text`);
    const argument = STATUS.get(rule.status).argument;
    if (rule.options.length > 0) assert.equal(argument, `options.${rule.options[0]}`, `${rule.name}: the status names its first option`);
  }
  assert.deepEqual(Object.keys(CASES).sort(), vocabulary.rules.map((r) => r.name).sort(), 'a case per rule');
});

for (const rule of vocabulary.rules) {
  test(`rule ${rule.name}: pe.ropeCache and ropeOptionsFromConfig refuse it with the same status and message`, () => {
    const c = CASES[rule.name];
    assert.ok(c, `no case for rule ${rule.name}`);
    const template = STATUS.get(rule.status).message;
    const [rotaryDim, options] = c.call;
    const core = thrown(() => pe.ropeCache([0, 0, 0, 0], rotaryDim, options));
    assert.ok(core, `${rule.name}: pe.ropeCache accepted ${JSON.stringify(options)}`);
    assert.equal(core.status, rule.status, core.message);
    assert.match(core.message, pattern(template));
    for (const name of rule.options) assert.ok(core.message.includes(`options.${name}`), core.message);
    if (c.config === null) return;
    for (const read of [ropeOptionsFromConfig, pe.ropeOptionsFromConfig]) {
      const error = thrown(() => read(c.config));
      assert.ok(error, `${rule.name}: the config was accepted`);
      assert.equal(error.constructor, core.constructor, error.message);
      assert.equal(error.code, rule.status, error.message);
      assert.equal(error.rule, rule.name);
      // The same message, each option the rule binds named by its config key.
      let expected = template;
      for (const name of rule.options) expected = expected.replaceAll(`options.${name}`, c.keys[name]);
      assert.match(error.message, pattern(expected));
      for (const name of rule.options) {
        assert.equal(error.values[`${name}Key`], c.keys[name], `${rule.name}: ${name}Key`);
        assert.ok(error.message.includes(c.keys[name]), error.message);
      }
      assert.equal(error.configKey, rule.options.length > 0 ? c.keys[rule.options[0]] : error.values.configKey);
    }
  });
}

test('the same config without the broken rule is read, and its options make a plan', () => {
  const fixed = {
    rope_base_above_one: { ...heads, rope_theta: 2 },
    mrope_section_sum: { ...heads, rope_scaling: { rope_type: 'default', mrope_section: [2, 3, 3] } },
    freq_factor_order: { ...heads, rope_scaling: { rope_type: 'llama3', factor: 8, low_freq_factor: 1, high_freq_factor: 4 } },
    rotary_dim_even: { hidden_size: 40, num_attention_heads: 2, partial_rotary_factor: 0.5 },
  };
  for (const [name, config] of Object.entries(fixed)) {
    const read = pe.ropeOptionsFromConfig(config);
    const cache = pe.ropeCache(new Float64Array(read.options.mropeSection ? 3 : 1), read.rotaryDim, read.options);
    assert.equal(cache.cos.length, read.rotaryDim / 2, name);
  }
});

// Comparisons of the value of an option a rule binds (or of the rotary
// dimension, which rules without options bind) in js/rope-config*.js: a rule
// stated a second time.
test('js/rope-config*.js compare no value a rule binds: the rules are the core’s', () => {
  const code = source.replace(/\/\/.*$/gm, '').replace(/\/\*[\s\S]*?\*\//g, '');
  const names = new Set(vocabulary.rules.flatMap((r) => r.options));
  assert.ok(names.size >= 4, [...names].join(', '));
  const compared = [];
  // (=== undefined / !== undefined asks whether the file gave the option: no rule.)
  const op = String.raw`(?:[<>]=?|%|(?:[!=]==?)(?![=\s]*undefined\b))`;
  for (const name of names) {
    const config = OPTION.get(name).configKey;
    const value = String.raw`(?:\boptions\.${name}\b|\boptions\[['"]${name}['"]\]|\b${name}\b${config ? `|\\b${config}\\b` : ''})`;
    for (const re of [new RegExp(String.raw`${value}\s*${op}`, 'g'), new RegExp(String.raw`${op}\s*${value}`, 'g')])
      for (const m of code.matchAll(re)) compared.push(m[0]);
  }
  // The rotary dimension's own rules (even, at least 2, a multiple of 4).
  // (A per-pair factor list's length against rotaryDim / 2 is that option's
  // own rule, the vocabulary's rule column, checked as the value is read.)
  for (const m of code.matchAll(/\brotaryDim\s*(?:%|[<>]=?\s*\d)/g)) compared.push(m[0]);
  // Sums of a section list (the mropeSection rule).
  for (const m of code.matchAll(/\.reduce\(\s*\(\s*\w+\s*,\s*\w+\s*\)\s*=>\s*\w+\s*\+/g)) compared.push(m[0]);
  assert.deepEqual(compared, [], 'js/rope-config*.js compare values a rule of the core binds');
});

test('the standalone ropeOptionsFromConfig before any module: reads, and says it needs the module for the rules', () => {
  const script = `
    import { ropeOptionsFromConfig } from 'sinpe.wasm';
    const out = {};
    for (const [name, config] of [['rules', { head_dim: 16, rope_theta: 500000 }], ['reader', { head_dim: 'x' }]]) {
      try {
        ropeOptionsFromConfig(config);
        out[name] = { accepted: true };
      } catch (e) {
        out[name] = { name: e.constructor.name, code: e.code, message: e.message };
      }
    }
    console.log(JSON.stringify(out));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(run.status, 0, run.stderr.slice(0, 400));
  const out = JSON.parse(run.stdout.trim());
  assert.equal(out.rules.name, 'TypeError', run.stdout);
  assert.match(out.rules.message, /^sinpe: ropeOptionsFromConfig checks .* await sinpe\(\)/);
  assert.equal(out.reader.code, 'not_number', run.stdout);
});

// The repository (tests/js/run.sh exports it; else this file's).
const repo = process.env.SINPE_REPO_ROOT ?? join(dirname(fileURLToPath(import.meta.url)), '../..');

test('the core’s sources return a rule’s status only through the rules table', () => {
  // Where the module parses its arguments before any plan: a width that is no
  // integer in range is the rotary dimension's status, an array option longer
  // than any plan reads is its own (read-limit checks, not the rules).
  const PARSING = ['cpp/bindings/glue.cpp: Status::bad_rotary_dim', 'cpp/bindings/glue.cpp: Status::mrope_section_sum'];
  const found = [];
  let files = 0;
  for (const folder of ['cpp/src', 'cpp/bindings', 'cpp/include/sinpe']) {
    for (const name of readdirSync(join(repo, folder))) {
      if (!/\.(?:cpp|hpp)$/.test(name)) continue;
      files++;
      const text = readFileSync(join(repo, folder, name), 'utf8');
      for (const rule of vocabulary.rules)
        if (text.includes(`Status::${rule.status}`)) found.push(`${folder}/${name}: Status::${rule.status}`);
    }
  }
  assert.ok(files >= 10, `${files} C++ files under ${repo}`);
  assert.deepEqual(found.sort(), PARSING.sort(), 'a rule stated outside the rules table');
});
