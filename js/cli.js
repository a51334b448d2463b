#!/usr/bin/env node
// sinpe: inspect and extend the RoPE caches of an ONNX model (docs/onnx.md).
//   sinpe inspect model.onnx [--config config.json] [--data file ...] [--json]
//   sinpe extend model.onnx --config config.json [--rows N] [--recipe exact|float32] -o out.onnx
// Exit codes: 0 everything matches, 1 a mismatch was found, 2 bad input, 3 an internal error.
import { readFile, writeFile, copyFile, mkdir, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import vocabulary from '../dist/sinpe-vocabulary.js';

// A cache's rows are positions 0 … rows − 1: the core's position limit (|p| < 2^24) bounds them.
const MAX_ROWS = vocabulary.limits.maxAbsPosition;

const HELP = `usage:
  sinpe inspect MODEL.onnx [--config CONFIG.json] [--data FILE ...] [--json]
  sinpe extend MODEL.onnx --config CONFIG.json [--rows N] [--recipe exact|float32] -o OUT.onnx
  sinpe --help

inspect  finds every RoPE cache (RotaryEmbedding / GroupQueryAttention caches,
         If branches, per-layer-type caches, inv_freq graphs) and, with the
         model's config.json, says whether each is exact, the float32 recipe,
         or a mismatch with a diagnosis; without one, which rope type and
         parameters it fits. --json prints the report (docs/onnx.md).
extend   brings every cache to N rows (default max_position_embeddings) and
         writes OUT.onnx: a cache that matches its config keeps its rows byte
         for byte and continues the recipe it matched; one that does not is
         rebuilt (exact, or --recipe); external data files
         are copied next to it unchanged when OUT is in another folder, and
         onnxruntime-genai's genai_config.json beside the model is written
         there with model.context_length and search.max_length set to N;
         OUT's folder is made when missing.
--data   an external data file (default: the files the model names, next to it).

exit codes: 0 everything matches, 1 a mismatch was found, 2 bad input, 3 an internal error.`;

class Usage extends Error {}

function parse(argv) {
  const args = { positional: [], data: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length || argv[i + 1].startsWith('--')) throw new Usage(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--help' || a === '-h') args.help = true;
    else if (a === '--json') args.json = true;
    else if (a === '--config') args.config = value();
    else if (a === '--rows') args.rows = value();
    else if (a === '--recipe') args.recipe = value();
    else if (a === '-o' || a === '--output') args.output = value();
    else if (a === '--data') args.data.push(value());
    else if (a.startsWith('-')) throw new Usage(`unknown option ${a}`);
    else args.positional.push(a);
  }
  return args;
}

// A progress bar on stderr, only when it is a terminal.
function progress(label) {
  if (!process.stderr.isTTY) return undefined;
  return (done, total) => {
    const w = 30;
    const k = Math.round((done / total) * w);
    process.stderr.write(`\r${label} [${'#'.repeat(k)}${' '.repeat(w - k)}] ${done}/${total}${done === total ? '\n' : ''}`);
  };
}

async function readConfig(path) {
  let text;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new Usage(`--config ${path}: cannot read it (${e.code ?? e.message})`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Usage(`--config ${path}: not JSON (${e.message})`);
  }
}

const GENAI_CONFIG = 'genai_config.json';

async function exists(path) {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

// onnxruntime-genai's genai_config.json at `path`: { json } or null when there is none.
async function readGenaiConfig(path) {
  let text;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if (e.code === 'ENOENT') return null;
    throw new Usage(`${path}: cannot read it (${e.code ?? e.message})`);
  }
  let json;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new Usage(`${path}: not JSON (${e.message})`);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new Usage(`${path}: not a genai_config.json object`);
  return { json };
}

// A write of the output (or next to it): a system error (it has a code) is bad input naming -o.
async function writeOutput(output, write) {
  try {
    await write();
  } catch (e) {
    if (e.code === undefined) throw e;
    throw new Usage(`-o ${output}: cannot write it (${e.message})`);
  }
}

function table(report) {
  const lines = [`${report.model}: ${report.sites.length} RoPE site(s), ${report.status}`];
  if (report.finding) lines.push(`  ${report.status.toUpperCase()}: ${report.finding.detail}`);
  for (const s of report.sites) {
    const name = s.kind === 'cache' ? `${s.cos.name} / ${s.sin.name}` : s.invFreq.name;
    const where = s.kind === 'cache' ? s.cos.storage : s.invFreq.storage;
    const bytes = where.kind === 'external' ? `external ${where.location} @${where.offset}+${where.length}` : where.kind;
    lines.push(`  ${name}`);
    lines.push(`    ${s.kind === 'cache' ? `${s.rows} rows × ${s.rotaryDim / 2}` : `${s.rotaryDim / 2} frequencies`}, ${s.dtype}, group ${s.group}${s.layerType ? ` (${s.layerType})` : ''}, interleaved ${s.interleaved ?? '-'}, ${bytes}`);
    if (s.segments) lines.push(`    segments: ${s.segments.map((g) => `${g.group} rows ${g.start}…${g.start + g.rows - 1}`).join(', ')}`);
    lines.push(`    read by: ${s.consumers.map((c) => `${c.opType} ${c.node}`).join(', ')}${s.through?.length ? ` (through ${s.through.join(' → ')})` : ''}`);
    lines.push(`    ${s.verdict.toUpperCase()}: ${s.message}`);
  }
  return lines.join('\n');
}

async function main(argv) {
  const args = parse(argv);
  if (args.help || argv.length === 0) {
    process.stdout.write(`${HELP}\n`);
    return args.help ? 0 : 2;
  }
  const [command, modelPath, ...rest] = args.positional;
  if (command === undefined) throw new Usage('give a command: inspect or extend');
  if (command !== 'inspect' && command !== 'extend') throw new Usage(`unknown command ${JSON.stringify(command)} (inspect or extend)`);
  if (!modelPath) throw new Usage(`${command}: give the model file`);
  if (rest.length) throw new Usage(`unexpected argument ${rest[0]}`);
  try {
    if (!(await stat(modelPath)).isFile()) throw new Error('not a file');
  } catch (e) {
    throw new Usage(`${modelPath}: cannot read the model (${e.code ?? e.message})`);
  }
  const config = args.config === undefined ? undefined : await readConfig(args.config);
  const externalData = {};
  for (const d of args.data) externalData[basename(d)] = d;
  const onnx = await import('./onnx/index.js');
  const model = await onnx.readModel(modelPath, { externalData });
  if (command === 'inspect') {
    const report = await onnx.inspectModel(model, { config, onProgress: progress('checking') });
    process.stdout.write(args.json ? `${JSON.stringify(report, (k, v) => (typeof v === 'bigint' ? Number(v) : v), 2)}\n` : `${table(report)}\n`);
    return report.status === 'mismatch' ? 1 : 0;
  }
  if (config === undefined) throw new Usage('extend: --config CONFIG.json is required');
  if (!args.output) throw new Usage('extend: -o OUT.onnx is required');
  let rows;
  if (args.rows !== undefined) {
    rows = Number(args.rows);
    if (!/^\d+$/.test(args.rows) || !Number.isInteger(rows) || rows < 1 || rows > MAX_ROWS) throw new Usage(`--rows must be an integer in [1, ${MAX_ROWS}], got ${args.rows}`);
  }
  if (args.recipe !== undefined && !['exact', 'float32'].includes(args.recipe)) throw new Usage(`--recipe must be exact or float32, got ${args.recipe}`);
  const output = resolve(args.output);
  if (output === resolve(modelPath)) throw new Usage(`-o ${args.output}: must not overwrite the model`);
  // Nor a data file the output's folder holds or receives under the same name.
  const from = dirname(resolve(modelPath));
  const to = dirname(output);
  const clash = [...model.externalLocations()].find((location) => resolve(to, location) === output);
  if (clash !== undefined) throw new Usage(`-o ${args.output}: must not overwrite the external data file ${clash}`);
  // onnxruntime-genai's genai_config.json beside the model: read now (bad JSON is bad input, before anything is written).
  const genai = await readGenaiConfig(join(from, GENAI_CONFIG));
  const result = await onnx.extendModel(model, { config, rows, recipe: args.recipe, onProgress: progress('extending') });
  // External data files the model reads, copied next to the output when it goes elsewhere.
  const copies = [];
  if (from !== to) for (const location of model.externalLocations()) copies.push([resolve(from, location), resolve(to, location)]);
  for (const [, b] of copies) {
    try {
      await stat(b);
      throw new Usage(`${b} exists: not overwriting an external data file`);
    } catch (e) {
      if (e instanceof Usage) throw e;
    }
  }
  // The genai config goes next to the output, with the new context length; beside the model
  // itself it is the model's, left as it is.
  const genaiOut = genai !== null && from !== to ? join(to, GENAI_CONFIG) : null;
  if (genaiOut !== null && (await exists(genaiOut))) throw new Usage(`${genaiOut} exists: not overwriting a genai_config.json`);
  // The output's folder is made when missing (mkdir -p); a write that fails names -o.
  await writeOutput(args.output, () => mkdir(to, { recursive: true }));
  await writeOutput(args.output, () => writeFile(args.output, result.bytes));
  // A location may name a subfolder (weights/model.onnx.data): made in the output's folder as in the model's.
  for (const [a, b] of copies) {
    await mkdir(dirname(b), { recursive: true });
    await copyFile(a, b);
  }
  for (const r of result.replaced) process.stdout.write(`${r.cos} / ${r.sin}: ${r.rowsBefore} → ${r.rows} rows (${r.dtype}, ${r.recipe})\n`);
  process.stdout.write(`wrote ${args.output}\n`);
  if (genaiOut !== null) {
    // The builder writes context_length and search.max_length both as the context length (base.py make_genai_config).
    const length = Math.max(...result.replaced.map((r) => r.rows));
    genai.json.model = { ...genai.json.model, context_length: length };
    genai.json.search = { ...genai.json.search, max_length: length };
    await writeOutput(args.output, () => writeFile(genaiOut, `${JSON.stringify(genai.json, null, 4)}\n`));
    process.stdout.write(`wrote ${genaiOut} (model.context_length and search.max_length ${length})\n`);
  } else if (genai !== null) process.stdout.write(`${GENAI_CONFIG} beside the model not changed: it is the model's own (write -o to another folder for one with the new length)\n`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    const known = e instanceof Usage || e instanceof TypeError || e instanceof RangeError || e?.name === 'OnnxError' || e?.name === 'ConfigError' || e?.code !== undefined;
    // The package's own messages already start with "sinpe: " (a ConfigError's, the core's): once is enough.
    process.stderr.write(`sinpe: ${String(e.message).replace(/^sinpe: /, '')}\n`);
    process.exitCode = known ? 2 : 3;
    if (!known) process.stderr.write(`${e.stack}\n`);
  },
);
