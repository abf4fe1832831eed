import { afterEach, describe, expect, it, vi } from 'vitest';
import { datedFileName, downloadBlob } from './download';

describe('downloadBlob', () => {
  afterEach(() => vi.restoreAllMocks());

  it('clicks a link to the blob under the given name, leaves no link behind, and revokes the URL', async () => {
    const created = vi.fn(() => 'blob:engage/1');
    const revoked = vi.fn();
    Object.assign(URL, { createObjectURL: created, revokeObjectURL: revoked });
    const clicked: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download });
    });
    const blob = new Blob(['a,b\r\n'], { type: 'text/csv' });
    downloadBlob(blob, 'users-2026-11-28.csv');
    expect(created).toHaveBeenCalledWith(blob);
    expect(clicked).toEqual([{ href: 'blob:engage/1', download: 'users-2026-11-28.csv' }]);
    expect(document.querySelector('a[download]')).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(revoked).toHaveBeenCalledWith('blob:engage/1');
  });

  it('dates an export by its UTC day', () => {
    expect(datedFileName('conversations', 'csv', new Date('2026-11-28T23:30:00Z'))).toBe(
      'conversations-2026-11-28.csv',
    );
  });
});
