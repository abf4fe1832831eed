import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { compiledEntry } from './compiled-server.js';

const root = path.resolve(import.meta.dirname, '../../../..');
const entry = compiledEntry('main');

/** One real server process (`npm run serve`'s command) with a data directory of its own. */
export interface InstanceProcess {
  url: string;
  child: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with the exit code (or signal name) once the process has ended. */
  exited: Promise<number | string>;
  /** Kills it if still running and deletes its data directory. */
  dispose(): Promise<void>;
}

/**
 * Starts the server's entry point on a free port with `env` added to this process's environment
 * (minus any auth, provider or database variable of the caller), and waits until it prints its URL.
 */
export async function startInstance(env: Record<string, string>): Promise<InstanceProcess> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'engage-instance-'));
  const base = { ...process.env };
  for (const name of Object.keys(base))
    if (/^(EMULATOR_|VAPI_|AUTH_|SUPABASE_|DATABASE_URL|PUBLIC_URL|ADMIN_|MAIL_)/.test(name))
      delete base[name];
  const child = spawn(process.execPath, entry, {
    cwd: root,
    env: { ...base, PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit').then(([code, signal]) => (code ?? signal) as number | string);
  const url = await new Promise<string>((resolve, reject) => {
    const check = () => {
      // With PUBLIC_URL the first line names the public address; the process's own comes next.
      const match = env.PUBLIC_URL
        ? /Listening on (http:\/\/\S+)/.exec(output)
        : /Engage is running at (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout.on('data', check);
    void exited.then((code) => reject(new Error(`the server exited early (${code}):\n${output}`)));
  });
  return {
    url,
    child,
    output: () => output,
    exited,
    async dispose() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
