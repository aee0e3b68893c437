// @ts-check
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

const ASYNC_HOOKS =
  'No async_hooks (AsyncLocalStorage) in src/: on Node 20 it installs promise hooks for every ' +
  'promise in the process, for good (docs/performance/oauth.md). Pass what a request needs ' +
  'explicitly, as the page language is (common/i18n/page-language.ts).';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'data/', '**/*.js', '**/*.mjs'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/explicit-function-return-type': [
        'error',
        {
          allowExpressions: true,
          allowTypedFunctionExpressions: true,
          allowHigherOrderFunctions: true,
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/no-extraneous-class': 'off',
    },
  },
  {
    // No AsyncLocalStorage (nor any other async_hooks API) in the service: on Node 20 one that
    // has ever run installs promise hooks for every promise in the process, for good (≈ 250–350 µs
    // per OAuth request, docs/performance/oauth.md). What a request needs
    // travels with it (the page language: common/i18n/page-language.ts). OpenTelemetry's context
    // manager is loaded by its SDK, only when tracing is on, and src/telemetry/ never imports
    // async_hooks itself, so no directory is exempt.
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['node:async_hooks', 'async_hooks'].map((name) => ({
            name,
            message: ASYNC_HOOKS,
          })),
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.name='require'][arguments.0.value=/^(node:)?async_hooks$/]",
          message: ASYNC_HOOKS,
        },
        {
          selector: 'ImportExpression[source.value=/^(node:)?async_hooks$/]',
          message: ASYNC_HOOKS,
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts', 'src/**/*.spec.ts'],
    rules: {
      // supertest bodies are untyped JSON; assertions on them are the point of the tests.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/explicit-function-return-type': 'off',
    },
  },
);
