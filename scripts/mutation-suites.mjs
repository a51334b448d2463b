// Which node suites of tests/js/ test each file of js/ under StrykerJS
// (stryker.config.mjs): a mutant of a file is tested only by the suites that
// exercise that file, fastest and most direct first (the runner stops at the
// first failing suite). A file missing from the map is tested by DEFAULT.
// `npm run test:mutation -- --mutate js/errors.js` picks the suites of the
// files given; SINPE_MUTATION_SUITES="a b" overrides the choice.
export const DEFAULT = ['messages', 'api', 'prepare', 'reentry', 'hostile', 'properties', 'rope'];

export const SUITES = {
  'js/errors.js': ['messages', 'api'],
  'js/rope-index.js': ['rope-index', 'rope-index-batch'],
  'js/rope-index-batch.js': ['rope-index', 'rope-index-batch'],
  'js/args.js': ['args-read', 'engine-args', 'api', 'hostile', 'messages'],
  'js/load.js': ['load', 'api', 'hostile'],
  'js/cli.js': ['cli-args', 'onnx-cli'],
  'js/positions.js': ['positions-read', 'args-read', 'engine-args', 'api', 'hostile'],
  'js/rope-config.js': ['rope-config', 'config-reasons', 'engine-args', 'rope'],
  'js/rope-config-keys.js': ['rope-config', 'config-reasons', 'engine-args', 'rope'],
  'js/rope-config-values.js': ['config-values', 'config-reasons', 'rope-config', 'engine-args', 'rope'],
  'js/rope-config-errors.js': ['config-reasons', 'rope-config', 'engine-args', 'rope'],
  'js/onnx/dtype.js': ['onnx-dtype', 'onnx-models', 'onnx-extend'],
  'js/onnx/find.js': ['onnx-find', 'onnx-find-sites', 'onnx-models', 'onnx-extend'],
  'js/onnx/family.js': ['onnx-family', 'onnx-find-sites'],
  'js/onnx/fit.js': ['onnx-verify', 'onnx-baked', 'onnx-models', 'onnx-extend'],
  'js/onnx/guess.js': ['onnx-baked', 'onnx-verify'],
  'js/onnx/mrope.js': ['onnx-mrope', 'onnx-find-sites'],
  'js/onnx/index.js': ['onnx-api', 'onnx-models', 'onnx-extend', 'onnx-cli'],
  'js/onnx/read.js': ['onnx-read', 'onnx-find', 'onnx-dtype', 'onnx-models', 'onnx-extend', 'onnx-cli'],
  'js/onnx/verify.js': ['onnx-verify', 'onnx-baked', 'onnx-api', 'onnx-models', 'onnx-dtype', 'onnx-extend', 'onnx-mrope'],
  'js/ops.js': ['ops', 'api', 'messages', 'engine-args', 'rope', 'prepare', 'row-one-chunk', 'rope-api', 'properties', 'chunk-loop', 'hostile', 'positions-read', 'args-read'],
  'js/sinpe.js': ['api', 'ops', 'prepare', 'messages', 'rope-api', 'rope', 'engine-args', 'hostile', 'properties', 'reentry'],
  'js/engine.js': ['engine', 'ops', 'api', 'chunk-loop', 'plan-cache', 'row-one-chunk', 'messages', 'rope', 'prepare', 'rope-api', 'special-rows', 'hostile', 'reentry'],
};

/** The suites for the files (paths as given to --mutate, a `:lines` range allowed), in order, each once; none given: ALL. */
export function suitesFor(files) {
  if (files.length === 0) return ALL;
  const out = [];
  for (const f of files) {
    const file = f.replace(/:[\d:-]+$/, '').replace(/^\.\//, '');
    for (const s of SUITES[file] ?? DEFAULT) if (!out.includes(s)) out.push(s);
  }
  return out;
}

/** Every suite of the map (for a run over the whole js/). */
export const ALL = [...new Set([...DEFAULT, ...Object.values(SUITES).flat()])];

/** The --mutate / -m values of a command line (comma-separated or repeated). */
export function mutateArgs(argv) {
  const files = [];
  for (let i = 0; i < argv.length; i++) {
    const m = /^(?:--mutate|-m)(?:=(.*))?$/.exec(argv[i]);
    if (m) files.push(...(m[1] ?? argv[++i] ?? '').split(',').filter(Boolean));
  }
  return files;
}

/** The suites of this Stryker run: SINPE_MUTATION_SUITES ("a b"), else those of its --mutate files. */
export function suitesOfThisRun() {
  const given = process.env.SINPE_MUTATION_SUITES?.split(/\s+/).filter(Boolean);
  return given?.length ? given : suitesFor(mutateArgs(process.argv));
}
