// Fails when a package the product ships (the production dependency tree, `npm ls --omit=dev`) is
// under a licence outside the permissive list below: Engage is MIT, and a copyleft package (GPL,
// AGPL, LGPL, MPL…) would put conditions on everyone who ships it. Run by `npm run lint`.
// `--table` prints the direct dependencies of every workspace with their licences instead.
import { execFileSync } from 'node:child_process';

const PERMISSIVE = new Set([
  'MIT',
  'MIT-0',
  'ISC',
  '0BSD',
  'BSD-2-Clause',
  'BSD-3-Clause',
  'Apache-2.0',
  'BlueOak-1.0.0',
  'CC0-1.0',
  'Unlicense',
]);

const tree = JSON.parse(
  execFileSync('npm', ['ls', '--omit=dev', '--all', '--json', '--long'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'ignore'],
  }),
);

/** SPDX expressions such as "(MIT OR Apache-2.0)" pass when one alternative is permissive. */
const permissive = (license) =>
  typeof license === 'string' &&
  license
    .replace(/[()]/g, '')
    .split(/\s+OR\s+/)
    .some((alternative) => alternative.split(/\s+AND\s+/).every((id) => PERMISSIVE.has(id.trim())));

const seen = new Map();
const walk = (node, path) => {
  for (const [name, dep] of Object.entries(node.dependencies ?? {})) {
    // Optional packages for other platforms are listed but not installed: nothing of them ships here.
    if (dep.missing || !dep.version) continue;
    const id = `${name}@${dep.version}`;
    if (seen.has(id)) continue;
    seen.set(id, { license: dep.license, via: path });
    walk(dep, [...path, name]);
  }
};
walk(tree, []);

if (process.argv.includes('--table')) {
  const rows = [];
  for (const [workspace, node] of Object.entries(tree.dependencies ?? {})) {
    if (!node.resolved?.startsWith('file:')) continue;
    for (const [name, dep] of Object.entries(node.dependencies ?? {}))
      if (!name.startsWith('@engage/')) rows.push(`| \`${name}\` | ${dep.license} | ${workspace} |`);
  }
  console.log(['| dependency | licence | used by |', '|---|---|---|', ...rows.sort()].join('\n'));
  process.exit(0);
}

const refused = [...seen].filter(([, { license }]) => !permissive(license));
for (const [id, { license, via }] of refused)
  console.error(
    `${id}: licence ${JSON.stringify(license)} is not on the permissive list (via ${via.join(' > ') || 'root'})`,
  );
if (refused.length > 0) process.exit(1);
console.log(`licences: ${seen.size} production packages, all permissive`);
