// The linter: ESLint's and typescript-eslint's recommended rules (syntax only, no type information,
// so `npm run lint` stays a few seconds), unused variables as errors, and the house's module size:
// no module of src/ over 300 lines (tests and generated files aside). Run by `npm run lint`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: ['dist/', 'node_modules/', 'coverage/', 'test-output/', 'bench/results/', '**/*.generated.ts'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Byte and terminal handling (NUL, ESC, latin-1 ranges) is this project's daily work.
      'no-control-regex': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    rules: {
      'max-lines': ['error', { max: 300, skipBlankLines: false, skipComments: false }],
    },
  },
  {
    // The message prefix is added in one place, `prefixed` of src/errors.ts: no other module writes
    // it, nor a pattern that strips it again (`errorText(error)` is a message without it).
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.test.ts', 'src/errors.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['Literal[value=/\\[mockvideo\\]/]', 'TemplateElement[value.raw=/\\[mockvideo\\]/]'].map((selector) => ({
          selector,
          message: 'Add the prefix with prefixed() or say() (src/errors.ts, src/stderr.ts), not as a literal.',
        })),
        {
          selector: 'Literal[regex.pattern=/mockvideo\\\\\\]/]',
          message: 'Take a message without the prefix with errorText(error) (src/errors.ts) instead of stripping it.',
        },
      ],
    },
  },
  {
    // Tests feed malformed input on purpose; `as any` is how they say so.
    files: ['**/*.test.ts', 'test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The any-runtime folders (see .dependency-cruiser.cjs for their imports): no Node globals either.
    files: [
      'src/{contract,normalise,scenarios,faults,latency,clock,state,media,findings,replay,journal,analytics,verify,fuzz,bundle,routes,msw}/**/*.ts',
      'src/index.ts',
      'src/arbitraries.ts',
      'src/scenarios.ts',
      'src/errors.ts',
    ],
    ignores: ['src/**/*.test.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...['process', 'Buffer', '__dirname', '__filename', 'require', 'global', 'setImmediate'].map((name) => ({
          name,
          message:
            'This folder runs in any runtime (browser, React Native): take the value as a parameter from the Node edge.',
        })),
      ],
    },
  },
  {
    files: ['src/dashboard/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
