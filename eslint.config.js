// One lint set-up for the whole monorepo. The module boundaries of ARCHITECTURE.md are the
// `engage/boundaries` rule below: a violation is an error, not a wiki page.
import js from '@eslint/js';
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
    files: ['apps/site/**/*.{ts,tsx}', 'packages/voice/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
    },
  },
  {
    // Command-line entry points and scripts talk to the terminal on purpose.
    files: ['scripts/**', '**/bench/**', 'apps/server/src/main.ts', 'apps/server/src/keys-cli.ts', 'e2e/**'],
    rules: { 'no-console': 'off' },
  },
);
