// ESLint flat config (`npm run lint`). Rules catch defects (undefined and unused
// names, unreachable code, CSP-breaking eval, callbacks that forget to return),
// not layout: formatting is left to the authors.
import js from '@eslint/js';
import globals from 'globals';

export default [
  { ignores: ['build/', 'dist/', 'node_modules/', 'third_party/', '**/node_modules/'] },
  js.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    languageOptions: { ecmaVersion: 2024, sourceType: 'module' },
    rules: {
      'no-unused-vars': ['error', { args: 'after-used', argsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      'no-template-curly-in-string': 'error',
      'no-self-compare': 'error',
      'no-unmodified-loop-condition': 'error',
      'no-unreachable-loop': 'error',
      'no-constructor-return': 'error',
      'array-callback-return': ['error', { checkForEach: false }],
      'no-unused-expressions': ['error', { allowShortCircuit: true, allowTernary: true, allowTaggedTemplates: true }],
      'no-sequences': 'error',
      // The package and the site run under a strict Content-Security-Policy.
      'no-eval': 'error',
      'no-implied-eval': 'error',
      'no-new-func': 'error',
    },
  },
  // The package runs in browsers, workers and Node.
  { files: ['js/**/*.{js,mjs}'], languageOptions: { globals: { ...globals.browser, ...globals.worker, ...globals.node } } },
  // The lesson site runs in the browser; its build config in Node.
  { files: ['web/**/*.{js,mjs}'], languageOptions: { globals: globals.browser } },
  { files: ['web/*.config.{js,mjs}'], languageOptions: { globals: globals.node } },
  // Tests and scripts run in Node ...
  { files: ['tests/**/*.{js,mjs,cjs}', 'scripts/**/*.{js,mjs,cjs}', '*.config.js'], languageOptions: { globals: globals.node } },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' } },
  // ... except code they hand to a page (page.evaluate callbacks, bench page
  // scripts) and the bundler consumers' app, which runs in a browser and a worker.
  { files: ['tests/browser/**/*.mjs', 'tests/consumers/*.mjs', 'tests/bench/browser.mjs', 'tests/bench/cases.mjs'], languageOptions: { globals: { ...globals.node, ...globals.browser } } },
  { files: ['tests/**/app/**/*.js'], languageOptions: { globals: { ...globals.browser, ...globals.worker } } },
];
