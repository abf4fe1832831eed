import { describe, expect, it } from 'vitest';
import { ALLOWED_EXTENSIONS, extensionOf, isAllowedFile, mimeTypeFor } from './file-types';

describe('the extension allow-list and mime types', () => {
  it('allows exactly the provider-supported extensions, case-insensitively', () => {
    expect([...ALLOWED_EXTENSIONS].sort()).toEqual(
      ['.csv', '.doc', '.docx', '.json', '.log', '.md', '.pdf', '.tsv', '.txt', '.xml', '.yaml'].sort(),
    );
    expect(isAllowedFile('Notes.MD')).toBe(true);
    expect(isAllowedFile('report.final.pdf')).toBe(true);
    expect(isAllowedFile('image.png')).toBe(false);
    expect(isAllowedFile('config.yml')).toBe(false);
    expect(isAllowedFile('README')).toBe(false);
    expect(isAllowedFile('.md')).toBe(false);
    expect(extensionOf('archive.tar.gz')).toBe('.gz');
  });

  it('assigns the mime type by extension', () => {
    expect(mimeTypeFor('a.md')).toBe('text/markdown');
    expect(mimeTypeFor('a.PDF')).toBe('application/pdf');
    expect(mimeTypeFor('a.csv')).toBe('text/csv');
    expect(mimeTypeFor('a.json')).toBe('application/json');
    expect(mimeTypeFor('a.docx')).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(mimeTypeFor('a.bin')).toBe('application/octet-stream');
  });
});
