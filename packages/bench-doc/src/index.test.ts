import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { markers, publishSection, writeNamedSection, writeSection } from './index.js';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'bench-doc-'));
  file = path.join(dir, 'benchmarks.md');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const doc = [
  '# Benchmarks',
  '',
  '<!-- a:start -->',
  '## A',
  'old a',
  '<!-- a:end -->',
  '',
  '<!-- b:start -->',
  '## B',
  'b stays',
  '<!-- b:end -->',
  '',
].join('\n');

describe('writeSection', () => {
  it('replaces only its marked section and leaves the others to the letter', () => {
    writeFileSync(file, doc);
    writeNamedSection('a', '## A\nnew a', file);
    expect(readFileSync(file, 'utf8')).toBe(doc.replace('old a', 'new a'));
  });

  it('appends the section with its markers when the file has none, keeping what is there', () => {
    writeFileSync(file, doc);
    writeNamedSection('c', '## C\nfresh', file);
    expect(readFileSync(file, 'utf8')).toBe(
      `${doc.trimEnd()}\n\n<!-- c:start -->\n## C\nfresh\n<!-- c:end -->\n`,
    );
  });

  it('creates the file when it is missing, with a heading above the section', () => {
    writeNamedSection('a', 'only', file);
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('# Benchmarks\n')).toBe(true);
    expect(text.endsWith('<!-- a:start -->\nonly\n<!-- a:end -->\n')).toBe(true);
  });

  it('takes `$` in a section as text, and writing twice leaves one section', () => {
    writeFileSync(file, doc);
    const { start, end } = markers('b');
    writeSection(start, end, 'costs $& and $1', file);
    writeSection(start, end, 'costs $& and $1', file);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('<!-- b:start -->\ncosts $& and $1\n<!-- b:end -->');
    expect(text.match(/b:start/g)).toHaveLength(1);
    expect(text).toContain('old a');
  });
});

describe('publishSection', () => {
  it('prints the section every time and writes it only when the bench was run with --write', () => {
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    writeFileSync(file, doc);
    const { start, end } = markers('a');
    expect(publishSection(start, end, 'printed only', ['node', 'bench-script', '--no-build'], file)).toBe(
      false,
    );
    expect(readFileSync(file, 'utf8')).toBe(doc);
    expect(publishSection(start, end, 'new a', ['node', 'bench-script', '--write'], file)).toBe(true);
    expect(readFileSync(file, 'utf8')).toContain('<!-- a:start -->\nnew a\n<!-- a:end -->');
    expect(out.mock.calls.map(([text]) => text)).toEqual([
      'printed only\n',
      'new a\n',
      expect.stringMatching(/^\nWrote .*benchmarks\.md\.\n$/),
    ]);
    out.mockRestore();
  });
});
