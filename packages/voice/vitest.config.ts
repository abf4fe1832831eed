import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    name: 'voice',
    // The SDK plays audio through <audio> elements; tests that need plain Node say so per file.
    environment: 'jsdom',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The drop-in check against @vapi-ai/web's types (`*.test-d.ts`) is checked by tsc, not run.
    typecheck: { enabled: true, include: ['src/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    testTimeout: 30_000,
  },
});
