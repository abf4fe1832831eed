import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    name: 'bench-doc',
    environment: 'node',
    include: ['src/**/*.test.ts'],
  },
});
