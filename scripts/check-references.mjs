// Fails when a tracked file cites what a reader of the repository cannot open: an issue number, or a
// planning document kept outside the repository. A rule a comment needs is stated where it applies,
// or in a document under docs/. Run by `npm run lint`.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const SKIP =
  /(^|\/)package-lock\.json$|\.(png|jpg|svg|ico|woff2?)$|^packages\/vapi-contract\/(openapi\.json|src\/generated\/)/;
// The names to refuse; this line itself is allowed.
// prettier-ignore
const OUTSIDE = ['SPEC', 'AUTH-CONTRACT', 'PROVIDER-FACTS', 'VOICE-SDK', 'ARCHITECTURE.md', 'STYLE.md']; // check-references: allow
const patterns = [
  { what: 'an issue number', re: /\b[Ii]ssues? #?\d+\b/ },
  {
    what: 'a document outside the repository',
    re: new RegExp(`\\b(${OUTSIDE.join('|').replace(/\./g, '\\.')})\\b`),
  },
];

const files = execFileSync('git', ['ls-files'], { encoding: 'utf8' })
  .split('\n')
  .filter((f) => f && !SKIP.test(f));
const problems = [];
for (const file of files) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    continue; // listed but deleted in the work tree
  }
  text.split('\n').forEach((line, i) => {
    for (const { what, re } of patterns)
      if (re.test(line) && !line.includes('check-references: allow'))
        problems.push(`${file}:${i + 1}: cites ${what}: ${line.trim().slice(0, 120)}`);
  });
}
for (const p of problems) console.error(p);
if (problems.length > 0) process.exit(1);
console.log(`references: ${files.length} files cite no issue number and no outside document`);
