// Installs the tools only benchmarks use (Lighthouse, 23 MB, and its Chromium drivers) into
// scripts/bench-tools/node_modules, from that folder's own lock file, when they are missing: `npm ci`
// at the root leaves them out, so everybody else's install stays small. Like ensure-chromium.mjs, it
// never downloads a browser.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const dir = path.join(import.meta.dirname, 'bench-tools');
if (!existsSync(path.join(dir, 'node_modules', 'lighthouse', 'package.json'))) {
  console.error('Installing the benchmark tools (Lighthouse) into scripts/bench-tools ...');
  // `npm install`, not `npm ci`: a dependency of Lighthouse asks for "latest" of two packages, which
  // `npm ci` refuses once a newer one is published; the lock file still pins everything else.
  execSync('npm install --no-save --no-audit --no-fund --loglevel=error', {
    cwd: dir,
    stdio: 'inherit',
    env: { ...process.env, PUPPETEER_SKIP_DOWNLOAD: '1' },
  });
}
