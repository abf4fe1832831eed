// `npm test`'s Chromium check (scripts/ensure-chromium.mjs), run as `npm run test:e2e` runs it.
// CHROMIUM_PATH is always set here, so the script never tries to install anything.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const run = (chromiumPath: string) =>
  spawnSync(process.execPath, ['scripts/ensure-chromium.mjs'], {
    cwd: root,
    env: { ...process.env, CHROMIUM_PATH: chromiumPath },
    encoding: 'utf8',
    timeout: 20_000,
  });

describe('scripts/ensure-chromium.mjs', () => {
  it('fails with one line saying how to install Chromium when it is missing', () => {
    const result = run('/nonexistent/chromium');
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('/nonexistent/chromium');
    expect(lines[0]).toContain('apt-get install -y chromium');
  });

  it('passes quietly when the browser is there', () => {
    const result = run(process.execPath);
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
  });
});
