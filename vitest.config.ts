import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Each workspace is a Vitest project with its own environment (node or jsdom).
export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts', 'apps/*/vitest.config.ts'],
    // Vitest's default is one worker fewer than the cores: on a 2-core CI machine, one file at a time.
    // Many files wait on child processes, servers and sockets rather than compute, so a worker per
    // core (at least two) keeps both cores busy (docs/benchmarks.md, "Test suite duration").
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
