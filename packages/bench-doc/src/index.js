// The one writer of docs/benchmarks.md. Each bench owns the section between its two markers
// (`<!-- <name>:start -->` … `<!-- <name>:end -->`) and replaces only that; a section not yet in the
// file is appended, a missing file is created. The file is not reformatted (*.md is prettier-ignored),
// so one bench never rewrites another's numbers.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';

/** docs/benchmarks.md of this repository. */
export const BENCHMARKS_FILE = path.join(import.meta.dirname, '..', '..', '..', 'docs', 'benchmarks.md');

const HEADER =
  '# Benchmarks\n\nEach section is written by its `npm run bench:*` script; the machine and date are in the section.\n';

/** The two markers of a section named `name`. */
export const markers = (name) => ({ start: `<!-- ${name}:start -->`, end: `<!-- ${name}:end -->` });

/** The machine a bench ran on, for its section's first line. */
export const machine = () =>
  `${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), Node ${process.version}`;

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Replaces (or appends) the section between `start` and `end` in `file` with `section`. */
export function writeSection(start, end, section, file = BENCHMARKS_FILE) {
  const current = existsSync(file) ? readFileSync(file, 'utf8') : HEADER;
  const block = `${start}\n${section.trim()}\n${end}`;
  const pattern = new RegExp(`${escape(start)}[\\s\\S]*?${escape(end)}`);
  // A function as the replacement: `$` in the section is text, not a replacement pattern.
  const next = pattern.test(current)
    ? current.replace(pattern, () => block)
    : `${current.trimEnd()}\n\n${block}\n`;
  writeFileSync(file, next);
}

/** writeSection for the section named `name`. */
export function writeNamedSection(name, section, file = BENCHMARKS_FILE) {
  const { start, end } = markers(name);
  writeSection(start, end, section, file);
}

/**
 * A bench's last step: prints its section, and with `--write` among the arguments replaces it in the
 * file (and says so). Returns whether it wrote.
 */
export function publishSection(start, end, section, argv = process.argv, file = BENCHMARKS_FILE) {
  process.stdout.write(`${section}\n`);
  if (!argv.includes('--write')) return false;
  writeSection(start, end, section, file);
  process.stdout.write(`\nWrote ${path.relative(path.join(import.meta.dirname, '..', '..', '..'), file)}.\n`);
  return true;
}
