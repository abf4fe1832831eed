import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const entry = ['--conditions=source', '--import', 'tsx', 'apps/server/src/main.ts'];

describe('main', () => {
  it('stops with a message naming PORT when PORT is invalid', () => {
    const result = spawnSync(process.execPath, entry, {
      cwd: root,
      env: { ...process.env, PORT: 'abc' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('PORT: must be a whole number');
    expect(result.stderr).not.toMatch(/at .*\.ts:\d+/); // no stack trace
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'prints its URL, serves, and on %s shuts down cleanly, releasing the data directory',
    async (signal) => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'engage-main-'));
      try {
        const child = spawn(process.execPath, entry, {
          cwd: root,
          env: {
            ...process.env,
            PORT: '0',
            DATA_DIR: dataDir,
            ADMIN_PASSWORD: 'main-test-pw',
            LOG_LEVEL: 'silent',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let output = '';
        const url = await new Promise<string>((resolve, reject) => {
          child.stdout.on('data', (chunk: Buffer) => {
            output += chunk.toString();
            const match = /Engage is running at (http:\/\/\S+)/.exec(output);
            if (match?.[1]) resolve(match[1]);
          });
          child.once('exit', (code) => reject(new Error(`exited early with ${code}: ${output}`)));
        });
        expect((await fetch(`${url}/healthz`)).status).toBe(200);
        expect(existsSync(path.join(dataDir, 'engage.lock'))).toBe(true);

        child.kill(signal);
        const [code] = await once(child, 'exit');
        expect(code).toBe(0);
        expect(existsSync(path.join(dataDir, 'engage.lock'))).toBe(false);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
