import path from 'node:path';

/**
 * The compiled server the tests start as a process, as `npm start` runs it: built once per test
 * run by vitest.global-setup.ts, into a folder of its own so that a running `npm start` keeps its
 * dist/. Inside the repository: the packages the build leaves as imports resolve from there.
 * @module
 */

export const repoRoot = path.resolve(import.meta.dirname, '../../../..');

export const COMPILED_SERVER_DIR = path.join(repoRoot, 'node_modules/.cache/engage-server-tests');

/** `node` arguments that run one of the compiled entry points: main, keys-cli, backup-cli, restore-cli. */
export function compiledEntry(name: 'main' | 'keys-cli' | 'backup-cli' | 'restore-cli'): string[] {
  return ['--enable-source-maps', path.join(COMPILED_SERVER_DIR, `${name}.js`)];
}
