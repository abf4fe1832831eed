// Fails when a tracked file cites what a reader of the repository cannot open: an issue number, a
// numbered section of some document, or a markdown document that is not in the repository. A rule a
// comment needs is stated where it applies, or in a document under docs/. It also fails on a source
// file named in prose (a comment, a document) that no longer exists: after a move, the mention moves
// too. Run by `npm run lint`.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const SKIP =
  /(^|\/)package-lock\.json$|\.(png|jpg|svg|ico|woff2?)$|^packages\/vapi-contract\/(openapi\.json|src\/generated\/)/;
const tracked = new Set(execFileSync('git', ['ls-files'], { encoding: 'utf8' }).split('\n'));
const trackedNames = new Set([...tracked].map((f) => f.split('/').pop()));
const trackedList = [...tracked];
// A source file's name in prose (a path or a bare name ending .ts, .tsx or .mjs); not URLs, not `@/` aliases.
const SOURCE_NAME = /(?<![\w@/.*<-])((?:\.\.?\/)*(?:\w[\w.-]*\/)*\w[\w.-]*\.(?:ts|tsx|mjs))(?![\w/>-])/g;
const IMPORT_LINE = /^\s*(import|export)\b.*from\s+['"]|^\s*\} from ['"]|import\(['"]/;
function namesMissingFile(line) {
  if (IMPORT_LINE.test(line)) return false; // imports are checked by TypeScript
  return [...line.matchAll(SOURCE_NAME)].some(([, token]) => {
    const name = token.replace(/^(\.\.?\/)+/, '');
    if (name.startsWith('dist/') || name.includes('/dist/')) return false; // build output
    return name.includes('/')
      ? !trackedList.some((f) => f === name || f.endsWith(`/${name}`))
      : !trackedNames.has(name);
  });
}
const patterns = [
  { what: 'an issue number', test: (line) => /\b[Ii]ssues? #?\d+\b/.test(line) },
  // A section sign with a number points into a document by its sections: the repository's own
  // documents are cited by file and heading instead.
  { what: 'a numbered section of some document', test: (line) => /§\s*\d/.test(line) },
  // An upper-case markdown name (the way planning documents are named) that is no file here.
  {
    what: 'a document the repository does not hold',
    test: (line) =>
      [...line.matchAll(/\b([A-Z][A-Z0-9_-]+\.md)\b/g)].some(([, name]) => !trackedNames.has(name)),
  },
  { what: 'a source file that does not exist', test: namesMissingFile },
];

const files = [...tracked].filter((f) => f && !SKIP.test(f));
const problems = [];
for (const file of files) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    continue; // listed but deleted in the work tree
  }
  text.split('\n').forEach((line, i) => {
    for (const { what, test } of patterns)
      if (test(line)) problems.push(`${file}:${i + 1}: cites ${what}: ${line.trim().slice(0, 120)}`);
  });
}
for (const p of problems) console.error(p);
if (problems.length > 0) process.exit(1);
console.log(
  `references: ${files.length} files cite no issue number, no outside document and no missing source file`,
);
