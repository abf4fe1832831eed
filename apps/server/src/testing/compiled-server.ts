import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from '../platform/config.js';

/**
 * The compiled server the tests and benchmarks start as a process, as `npm start` runs it: built
 * once per run (vitest.global-setup.ts, or the benchmark itself) into a folder of its own so that a running `npm start` keeps its
 * dist/. Inside the repository: the packages the build leaves as imports resolve from there.
 * @module
 */

export const COMPILED_SERVER_DIR = path.join(repoRoot, 'node_modules/.cache/engage-server-tests');

/** `node` arguments that run one of the compiled entry points: main, keys-cli, backup-cli, restore-cli. */
export function compiledEntry(name: 'main' | 'keys-cli' | 'backup-cli' | 'restore-cli'): string[] {
  return ['--enable-source-maps', path.join(COMPILED_SERVER_DIR, `${name}.js`)];
}

/** Compiles the server into COMPILED_SERVER_DIR (about a second); throws with the build's output if it fails. */
export function compileServer(): void {
  const result = spawnSync(
    process.execPath,
    [path.join(repoRoot, 'apps/server/scripts/build.mjs'), '--outdir', COMPILED_SERVER_DIR],
    { encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`the server did not compile:\n${result.stdout}${result.stderr}`);
}
