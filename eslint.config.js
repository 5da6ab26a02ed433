import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      '**/test-results/**',
      '**/playwright-report/**',
      'bench/out/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      // Kysely's dynamic builders and test fixtures need `any` in a few places.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process'][property.name='env']",
          message: 'Read configuration from config.ts only.',
        },
      ],
    },
  },
  {
    // The places allowed to read the environment: config parsing, CLIs, tests, benchmarks and tooling.
    files: [
      'apps/server/src/config.ts',
      'apps/print-agent/src/config.ts',
      'apps/server/src/server.ts',
      'apps/server/src/cli/**',
      '**/*.test.ts',
      '**/test/**',
      'apps/server/cluster/**',
      '**/bench/**',
      'e2e/**',
      '**/*.config.ts',
      'scripts/**',
    ],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // Features never import each other (bulletproof-react's rule).
    files: ['apps/web/src/features/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@/features/*', '../../features/*'],
              message: 'Features do not import each other: move shared code to components/ or lib/.',
            },
          ],
        },
      ],
    },
  },
  {
    // Specs take `test` from the suite's own fixture, which records the calls the console makes (issue 28).
    files: ['e2e/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@playwright/test',
              message:
                "Import test and expect from '../support/test.ts': it records the API calls the console requests.",
            },
          ],
        },
      ],
    },
  },
);
