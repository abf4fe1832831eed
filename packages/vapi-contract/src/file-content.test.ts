import { describe, expect, it } from 'vitest';
import { contentProblem, extensionOf, isBinaryType } from './file-content.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('contentProblem', () => {
  it.each([
    ['notes.md', bytes('# Title'), null],
    ['data.json', bytes('{"a":[1,2]}'), null],
    ['data.json', bytes('{"a":'), 'not valid JSON'],
    ['doc.pdf', bytes('%PDF-1.4\n'), null],
    ['doc.pdf', bytes('hello'), 'not a PDF (no %PDF- header)'],
    ['doc.docx', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1]), null],
    ['doc.docx', bytes('text'), 'not a .docx (not a zip package)'],
    ['old.doc', new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), null],
    ['feed.xml', bytes('\uFEFF  <rss/>'), null],
    ['feed.xml', bytes('rss'), 'not valid XML'],
    ['table.csv', new Uint8Array([0x61, 0x00, 0x62]), 'not UTF-8 text'],
    ['table.tsv', new Uint8Array([0xc3, 0x28]), 'not UTF-8 text'],
    ['blank.txt', bytes('  \n\t'), 'no text in the file'],
    ['empty.yaml', new Uint8Array(), 'empty file'],
  ])('%s → %s', (name, content, problem) => {
    expect(contentProblem(name, content)).toBe(problem);
  });
});

describe('extensionOf', () => {
  it('lower-cases the last extension and ignores dotfiles', () => {
    expect(extensionOf('Report.Final.PDF')).toBe('.pdf');
    expect(extensionOf('.env')).toBe('');
    expect(extensionOf('README')).toBe('');
  });
});

describe('isBinaryType', () => {
  it('names the types checked by signature', () => {
    expect(['a.pdf', 'b.DOCX', 'c.doc'].every(isBinaryType)).toBe(true);
    expect(isBinaryType('d.json')).toBe(false);
  });
});
