import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');

describe('main', () => {
  it('stops with a message naming PORT when PORT is invalid', () => {
    const result = spawnSync(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', 'apps/server/src/main.ts'],
      { cwd: root, env: { ...process.env, PORT: 'abc' }, encoding: 'utf8', timeout: 20_000 },
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('PORT: must be a whole number');
    expect(result.stderr).not.toMatch(/at .*\.ts:\d+/); // no stack trace
  });
});
