import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { compiledEntry } from '../testing/compiled-server.js';

const root = path.resolve(import.meta.dirname, '../../../..');

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `npm run backup` / `npm run restore`'s entry with these variables and arguments. */
export function runCli(
  script: 'backup-cli' | 'restore-cli',
  args: string[],
  env: Record<string, string>,
): Promise<CliResult> {
  const base = { ...process.env };
  for (const name of Object.keys(base)) if (/^(DATABASE_URL|DATA_DIR|BACKUP_)/.test(name)) delete base[name];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...compiledEntry(script), ...args], {
      cwd: root,
      env: { ...base, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** Every path under `dir` with its mode and a hash of its bytes: equal before and after means untouched. */
export function fingerprint(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(dir)) return out;
  const visit = (p: string) => {
    const stat = statSync(p);
    const rel = path.relative(dir, p) || '.';
    if (stat.isDirectory()) {
      out[rel] = `dir ${stat.mode.toString(8)}`;
      for (const name of readdirSync(p)) visit(path.join(p, name));
    } else
      out[rel] = `${stat.mode.toString(8)} ${createHash('sha256').update(readFileSync(p)).digest('hex')}`;
  };
  visit(dir);
  return out;
}
