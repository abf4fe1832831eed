import { describe, expect, it } from 'vitest';
import { deleteReport } from './messages';

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
});
