import { defineConfig } from 'vitest/config';

// Each workspace is a Vitest project with its own environment (node or jsdom).
export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts', 'apps/*/vitest.config.ts'],
  },
});
