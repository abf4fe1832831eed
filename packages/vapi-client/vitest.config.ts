import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    name: 'vapi-client',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // The public types are tested too (`*.test-d.ts`, checked by tsc, not run): `npm run test:unit` runs them.
    typecheck: { enabled: true, include: ['src/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
