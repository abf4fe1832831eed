import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { COMPILED_SERVER_DIR } from './src/testing/compiled-server.js';

/** Compiles the server once for the tests that start it as a process (testing/compiled-server.ts). */
export default function setup(): void {
  const result = spawnSync(
    process.execPath,
    [path.join(import.meta.dirname, 'scripts/build.mjs'), '--outdir', COMPILED_SERVER_DIR],
    { encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`the server did not compile:\n${result.stdout}${result.stderr}`);
}
