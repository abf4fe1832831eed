import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    name: 'http-contract',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // The contract is types first: `*.test-d.ts` are checked by tsc, not run.
    typecheck: { enabled: true, include: ['src/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
  },
});
