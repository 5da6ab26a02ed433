import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import fs from 'node:fs';
import tseslint from 'typescript-eslint';

// From this file's folder, so eslint run from a workspace folder finds the modules too.
const serverModules = fs
  .readdirSync(new URL('apps/server/src/modules', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory());

// antd's Form without the failed-submit label: features use components/form.tsx's.
const antdForm = {
  name: 'antd',
  importNames: ['Form'],
  message: "Import Form from '@/components/form.tsx': it shows 'Form verification failed, please check' (spec §8).",
};

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
      'apps/server/failover/**',
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
    // Every form says why its submit failed (spec §8, issue 28 item 21): through components/form.tsx only.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/components/form.tsx', 'apps/web/src/lib/form-feedback.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [antdForm] }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process'][property.name='env']",
          message: 'Read configuration from config.ts only.',
        },
        {
          selector: "CallExpression[callee.property.name='validateFields'][arguments.length=0]",
          message:
            "A submit reads its form with validateForSubmit(form) (components/form.tsx): it shows 'Form verification failed, please check'.",
        },
      ],
    },
  },
  {
    // Features never import each other (bulletproof-react's rule).
    files: ['apps/web/src/features/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [antdForm],
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
    // Layering is kept by lint (ARCHITECTURE.md "Layers", docs/decisions/2026-11-27-import-layering-lint.md).
    files: ['apps/server/src/**/*.ts', 'apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      // no-cycle follows imports only into files it can parse: the TypeScript sources.
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['apps/server/tsconfig.json', 'apps/web/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      // A lazy import() (the shell's code-split pages) is loaded after both modules are done: no cycle at start.
      'import-x/no-cycle': ['error', { ignoreExternal: true, allowUnsafeDynamicCyclicDependency: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: ['apps/server/src/lib', 'apps/server/src/db', 'apps/server/src/http', 'apps/server/src/domain'],
              from: 'apps/server/src/modules',
              message:
                'lib/, db/, http/ and domain/ are below the modules: move what both need down, not the import up.',
            },
            // A module reaches another only through that module's index.ts, the part it offers to others.
            ...serverModules.map((m) => ({
              target: `apps/server/src/modules/${m.name}/**`,
              from: `apps/server/src/modules/!(${m.name})/**`,
              except: ['**/index.ts'],
              message: 'Import another module through its index.ts.',
            })),
            {
              target: ['apps/web/src/components', 'apps/web/src/lib'],
              from: ['apps/web/src/features', 'apps/web/src/app'],
              message:
                'components/ and lib/ are shared below features and app (bulletproof-react): move the piece down.',
            },
            {
              target: 'apps/web/src/features',
              from: 'apps/web/src/app',
              message: 'Features never import app/: app composes features.',
            },
          ],
        },
      ],
    },
  },
  {
    // Routes → service → repository: in a module only its repositories write SQL (issue 30 #3; a
    // Kysely builder or a sql`` template anywhere else is a query outside them).
    files: ['apps/server/src/modules/**/*.ts'],
    ignores: ['apps/server/src/modules/**/*.repository.ts', '**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process'][property.name='env']",
          message: 'Read configuration from config.ts only.',
        },
        {
          selector:
            'CallExpression[callee.property.name=/^(selectFrom|selectNoFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto)$/]',
          message: "SQL lives in the module's repository (*.repository.ts): call a function there.",
        },
        {
          selector: "TaggedTemplateExpression[tag.name='sql']",
          message: "SQL lives in the module's repository (*.repository.ts): call a function there.",
        },
      ],
    },
  },
  {
    // A file holds one use case: split it before 450 lines of code (docs/decisions/2026-12-07-module-graph-lint.md).
    // Blank lines and comments do not count: comments say why, and a limit that counted them would
    // push them out. Migrations are frozen once landed, so they are not split.
    files: ['apps/server/src/**/*.ts', 'apps/web/src/**/*.{ts,tsx}', 'packages/contract/src/**/*.ts'],
    ignores: ['apps/server/src/db/migrations/**'],
    rules: { 'max-lines': ['error', { max: 450, skipBlankLines: true, skipComments: true }] },
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
