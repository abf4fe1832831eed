// Fails when an installed package does not support every Node.js version Engage says it supports
// (the root package.json's `engines.node`): npm would print an engine warning on those versions, and
// the package may rely on what they lack. Read from package-lock.json, which records each package's
// `engines`, so it checks what `npm ci` installs. Run by `npm run lint`.
// To lift a pin made for this (docs/decisions.md, "Node.js versions"), drop the old versions first.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';

const root = path.resolve(import.meta.dirname, '..');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
const supported = manifest.engines?.node;
if (!supported || !semver.validRange(supported)) {
  console.error('engines: package.json names no valid engines.node range.');
  process.exit(1);
}

const problems = [];
for (const [where, entry] of Object.entries(lock.packages ?? {})) {
  const wanted = entry.engines?.node;
  // Only installed packages (not the workspaces' links), and only a usable range: some packages put
  // an array or a misspelling there, which npm itself ignores.
  if (!where.includes('node_modules/') || typeof wanted !== 'string' || !semver.validRange(wanted)) continue;
  // Optional platform packages never installed here still count: another machine installs them.
  if (!semver.subset(supported, wanted, { includePrerelease: false }))
    problems.push(`${where.replace(/^.*node_modules\//, '')}@${entry.version} wants node ${wanted}`);
}
if (problems.length) {
  console.error(`engines: Engage supports node ${supported}, but:\n  ${problems.join('\n  ')}`);
  console.error('Pin the last release that supports the range, or narrow the range (docs/decisions.md).');
  process.exit(1);
}
console.log(`engines: every installed package supports node ${supported}`);
