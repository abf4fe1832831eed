// One lint set-up for the whole monorepo. The module boundaries of docs/architecture.md are the
// `engage/boundaries` rule below: a violation is an error, not a wiki page.
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import boundaries from './scripts/eslint-boundaries.js';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/.data/**',
      'test-results/**',
      'playwright-report/**',
      '**/*.d.ts',
      // Generated from the provider's OpenAPI document (npm run generate -w @engage/vapi-contract).
      'packages/vapi-contract/src/generated/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { engage: boundaries },
    rules: {
      'engage/boundaries': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    // An import cycle is an error anywhere (import-x skips type-only imports: they are erased).
    // Resolved as TypeScript does: `.js` specifiers to `.ts`, the site's `@/` alias.
    files: ['**/*.{ts,tsx,js,mjs}'],
    ignores: ['**/generated/**'],
    plugins: { 'import-x': importX },
    settings: {
      // Parse the imported .ts files with the TypeScript parser (import-x's own TypeScript preset).
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['apps/*/tsconfig.json', 'packages/*/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // One import order everywhere: Node's modules, packages, then our own; alphabetical in each group.
      'import-x/order': [
        'error',
        {
          groups: ['builtin', 'external', 'internal', ['parent', 'sibling', 'index']],
          pathGroups: [{ pattern: '@/**', group: 'internal' }],
          pathGroupsExcludedImportTypes: ['builtin'],
          'newlines-between': 'never',
          alphabetize: { order: 'asc', caseInsensitive: true },
        },
      ],
    },
  },
  {
    files: ['apps/site/**/*.{ts,tsx}', 'packages/voice/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
    },
  },
  {
    // The server's secrets (the auth's API keys, the outbox token, the emulator's keys) are compared
    // in constant time through sameSecret (platform/same-secret.ts), never with === or !==, which would
    // tell by its timing how much of a guess was right.
    files: ['apps/server/src/**/*.ts', 'packages/vapi-emulator/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'BinaryExpression[operator=/^[!=]==?$/] > MemberExpression[property.name=/^(anonKey|serviceRoleKey|mailOutboxToken|privateKey|publicKey|membersPublicKey|proxySecret)$/]',
          message: 'Compare secrets with sameSecret (constant time), not with an equality operator.',
        },
      ],
    },
  },
  {
    // Small modules: no production function longer than 120 lines (blank lines and comments aside;
    // a factory's nested functions count in it) and no file longer than 300. Tests and their
    // harnesses are exempt: a table of cases reads best in one piece.
    files: ['apps/server/src/**/*.ts', 'apps/site/src/**/*.{ts,tsx}', 'packages/*/src/**/*.ts'],
    ignores: [
      '**/*.test.ts',
      '**/*.test.tsx',
      '**/*.test-d.ts',
      '**/*-harness.ts',
      '**/*-harness.tsx',
      '**/testing.ts',
      '**/testing/**',
      '**/generated/**',
    ],
    rules: {
      'max-lines-per-function': ['error', { max: 120, skipBlankLines: true, skipComments: true }],
      'max-lines': ['error', { max: 300 }],
    },
  },
  {
    // Command-line entry points and scripts talk to the terminal on purpose.
    files: [
      'scripts/**',
      '*/*/scripts/**',
      '**/bench/**',
      'apps/server/src/main.ts',
      'apps/server/src/*-cli.ts',
      'e2e/**',
    ],
    rules: { 'no-console': 'off' },
  },
);
