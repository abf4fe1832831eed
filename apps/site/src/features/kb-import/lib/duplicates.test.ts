import { describe, expect, it } from 'vitest';
import { duplicateReason, screenSelection, UNSUPPORTED_REASON } from './duplicates';
import { messages } from './messages';

describe('screenSelection (duplicates by name and size)', () => {
  const existing = {
    providerFiles: [{ name: 'at-provider.md', bytes: 10 }],
    uploaded: [{ name: 'uploaded.txt', bytes: 20 }],
    selected: [{ name: 'selected.csv', size: 30 }],
  };
  it('skips unsupported files and duplicates of provider, uploaded, selected and same-batch files', () => {
    const result = screenSelection(
      [
        { name: 'at-provider.md', size: 10 },
        { name: 'at-provider.md', size: 11 },
        { name: 'uploaded.txt', size: 20 },
        { name: 'selected.csv', size: 30 },
        { name: 'photo.png', size: 5 },
        { name: 'new.json', size: 7 },
        { name: 'new.json', size: 7 },
      ],
      existing,
      'Vapi',
    );
    expect(result.accepted.map((f) => `${f.name}:${f.size}`)).toEqual(['at-provider.md:11', 'new.json:7']);
    expect(result.skipped).toEqual([
      { name: 'at-provider.md', reason: '(duplicate - already exists in Vapi)' },
      { name: 'uploaded.txt', reason: duplicateReason('Vapi') },
      { name: 'selected.csv', reason: duplicateReason('Vapi') },
      { name: 'photo.png', reason: UNSUPPORTED_REASON },
      { name: 'new.json', reason: duplicateReason('Vapi') },
    ]);
    expect(messages.skipped(result.skipped.slice(3, 4))).toBe(
      '1 file(s) skipped: photo.png (unsupported format)',
    );
  });
  it('refuses an empty file with its reason', () => {
    expect(screenSelection([{ name: 'blank.md', size: 0 }], existing, 'Vapi')).toEqual({
      accepted: [],
      skipped: [{ name: 'blank.md', reason: '(empty file)' }],
    });
  });
  it('treats same name with another size, or same size with another name, as new', () => {
    const result = screenSelection(
      [
        { name: 'uploaded.txt', size: 21 },
        { name: 'other.txt', size: 20 },
      ],
      existing,
      'Vapi',
    );
    expect(result.accepted).toHaveLength(2);
    expect(result.skipped).toEqual([]);
  });
});
