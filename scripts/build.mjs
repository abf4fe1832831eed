// `npm run build` (and so `npm start`): builds each workspace that has a build step, in npm's
// order, but only when its inputs changed since its last good build. One line per workspace; a
// failing build's own output is shown in full. `--force` builds everything; `--quiet` says nothing
// of what was up to date.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const STAMP = '.engage-build.json';

/** Files no build reads: outputs, installs, tests, and what only tools for developers read. */
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'bench', 'test-results', '.turbo']);
const SKIPPED_FILE = /\.(test|spec)\.[cm]?[jt]sx?$|\.md$/;

/**
 * What a workspace's build may read: its own files, every Engage package (any of them may be
 * compiled in), the lock file (the versions of everything else) and the root's shared settings.
 */
function inputsOf(workspace) {
  const dirs = [workspace, ...listDirs('packages').filter((dir) => dir !== workspace)];
  const files = dirs.flatMap((dir) => walk(path.join(root, dir)));
  for (const file of ['package-lock.json', 'tsconfig.base.json', 'site.config.json', 'scripts/build.mjs'])
    if (existsSync(path.join(root, file))) files.push(path.join(root, file));
  return files.sort();
}

function listDirs(parent) {
  return readdirSync(path.join(root, parent), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `${parent}/${entry.name}`);
}

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : walk(full);
    return entry.isFile() && !SKIPPED_FILE.test(entry.name) ? [full] : [];
  });
}

/** The content of every input, with its name: a checkout, a touch or a clock change rebuilds nothing. */
function fingerprint(files) {
  const hash = createHash('sha256');
  hash.update(process.version.split('.')[0] ?? '');
  for (const file of files) hash.update(path.relative(root, file)).update('\0').update(readFileSync(file));
  return hash.digest('hex');
}

/** The workspaces with a build script, in the order npm runs them (the root's `workspaces`). */
function buildableWorkspaces() {
  const { workspaces } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  return workspaces
    .flatMap((pattern) => (pattern.endsWith('/*') ? listDirs(pattern.slice(0, -2)) : [pattern]))
    .filter((dir) => {
      const manifest = path.join(root, dir, 'package.json');
      return existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).scripts?.build;
    });
}

function run(workspace) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', 'build', '--silent'], {
      cwd: path.join(root, workspace),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ ok: code === 0, output }));
  });
}

const stampPath = (workspace) => path.join(root, workspace, 'dist', STAMP);

function lastBuild(workspace) {
  try {
    return JSON.parse(readFileSync(stampPath(workspace), 'utf8')).fingerprint;
  } catch {
    return null;
  }
}

const force = process.argv.includes('--force');
const quiet = process.argv.includes('--quiet');
const started = Date.now();
let built = 0;
for (const workspace of buildableWorkspaces()) {
  const current = fingerprint(inputsOf(workspace));
  if (!force && lastBuild(workspace) === current) {
    if (!quiet) console.log(`build: ${workspace} is up to date`);
    continue;
  }
  const at = Date.now();
  const { ok, output } = await run(workspace);
  if (!ok) {
    process.stderr.write(output);
    console.error(`build: ${workspace} failed (its output is above)`);
    process.exit(1);
  }
  // Written only after a good build: a failed or interrupted one is built again next time.
  if (statSync(path.join(root, workspace, 'dist'), { throwIfNoEntry: false })?.isDirectory())
    writeFileSync(stampPath(workspace), JSON.stringify({ fingerprint: current }));
  built += 1;
  console.log(`build: ${workspace} built in ${((Date.now() - at) / 1000).toFixed(1)} s`);
}
if (built > 0) console.log(`build: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
