import { describe, expect, it } from 'vitest';
import { bytesProblem } from './content-check';

describe('content the provider would fail', () => {
  it('finds what is wrong with content the provider would fail', () => {
    const bytes = (s: string) => new TextEncoder().encode(s);
    expect(bytesProblem('a.json', bytes(''))).toBe('empty file');
    expect(bytesProblem('a.json', bytes('{"a":'))).toBe('not valid JSON');
    expect(bytesProblem('a.json', bytes('{"a":1}'))).toBeNull();
    expect(bytesProblem('a.pdf', bytes('hello'))).toBe('not a PDF (no %PDF- header)');
    expect(bytesProblem('a.md', new Uint8Array([0xff, 0xfe, 0x00]))).toBe('not UTF-8 text');
    expect(bytesProblem('a.md', bytes('  \n'))).toBe('no text in the file');
  });
});
