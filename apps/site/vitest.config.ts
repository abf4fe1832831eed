import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  resolve: {
    alias: { '@': path.resolve(import.meta.dirname, 'src') },
    conditions: ['source'],
  },
  test: {
    name: 'site',
    environment: 'jsdom',
    setupFiles: ['./src/testing/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    // PGlite's WASM start takes seconds on a loaded 2-core machine.
    hookTimeout: 60_000,
    testTimeout: 30_000,
  },
});
