import { describe, expect, it } from 'vitest';
import { POLL_MAX_ATTEMPTS, POLL_OVERALL_TIMEOUT_MS, pollDelay } from './constants';
import { bytesProblem } from './content-check';
import { duplicateReason, screenSelection, UNSUPPORTED_REASON } from './duplicates';
import { ALLOWED_EXTENSIONS, extensionOf, isAllowedFile, mimeTypeFor } from './file-types';
import { toFunctionName } from './function-name';
import { deleteReport, messages } from './messages';
import { isRetryableStatus, retryDelay } from './retry';
import { providerReason } from './store';

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

describe('toFunctionName', () => {
  it('replaces every character other than a letter or digit with a hyphen', () => {
    expect(toFunctionName('knowledge-base')).toBe('knowledge-base');
    expect(toFunctionName('My KB: v2.0 (é)')).toBe('My-KB--v2-0----');
    expect(toFunctionName('abc123')).toBe('abc123');
  });
});

describe('the polling schedule', () => {
  it('waits min(3000 + attempt*1000, 10000) ms, at most 20 attempts within 300000 ms', () => {
    expect([0, 1, 2, 6, 7, 8, 19].map(pollDelay)).toEqual([3000, 4000, 5000, 9000, 10000, 10000, 10000]);
    expect(POLL_MAX_ATTEMPTS).toBe(20);
    expect(POLL_OVERALL_TIMEOUT_MS).toBe(300_000);
  });
});

describe('retryable statuses', () => {
  it('retries 408, 429 and 5xx, and nothing the request itself got wrong', () => {
    for (const status of [408, 429, 500, 502, 503, 504])
      expect(isRetryableStatus(status), `${status}`).toBe(true);
    for (const status of [400, 401, 403, 404, 409, 413, 415, 422])
      expect(isRetryableStatus(status), `${status}`).toBe(false);
  });
});

describe('retry delays', () => {
  it('honours what Retry-After asked for, else backs off exponentially with jitter, at most 60 s', () => {
    expect(retryDelay(0, 2_000)).toBe(2000);
    expect(retryDelay(3, 0)).toBe(0);
    expect(retryDelay(0, null, () => 0)).toBe(1000);
    expect(retryDelay(1, undefined, () => 0)).toBe(2000);
    expect(retryDelay(2, null, () => 1)).toBe(5000);
    expect(retryDelay(10, null, () => 0)).toBe(60_000);
    expect(retryDelay(0, 3_600_000)).toBe(60_000);
  });
});

describe("the tool's honest reports", () => {
  it('says what the provider deleted apart from what only left the list', () => {
    const base = { targets: 5, deleted: 0, alreadyGone: 0, removedLocal: 0, failed: 0, lastStatus: 0 };
    expect(deleteReport({ ...base, deleted: 3, removedLocal: 2 })).toEqual({
      variant: 'default',
      message:
        'Successfully deleted 3 files from VAPI. Removed 2 files from the list that never reached VAPI.',
    });
    expect(deleteReport({ ...base, targets: 1, alreadyGone: 1 }).message).toBe(
      'Removed 1 file from the list that VAPI no longer had.',
    );
    expect(deleteReport({ ...base, targets: 1, failed: 1, lastStatus: 503 })).toEqual({
      variant: 'destructive',
      message: 'Failed to delete file from VAPI: 503',
    });
  });

  it("takes the provider's reason out of its error body", () => {
    expect(providerReason('{"statusCode":400,"message":"Invalid file: empty","error":"Bad Request"}')).toBe(
      'Invalid file: empty',
    );
    expect(providerReason('{"message":["purpose must be a string","name too long"]}')).toBe(
      'purpose must be a string; name too long',
    );
    expect(providerReason('upstream timeout')).toBe('upstream timeout');
    expect(providerReason('x'.repeat(1000))).toHaveLength(300);
  });

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
