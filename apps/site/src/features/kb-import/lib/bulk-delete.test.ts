import { describe, expect, it, vi } from 'vitest';
import { withFakeClock } from '../testing/controller-harness';
import { createFakeProvider } from '../testing/fake-provider';
import { deleteFiles } from './bulk-delete';

withFakeClock();

describe('deleteFiles', () => {
  it('keeps 500 ms between deletes, waits 2 s after a 429, removes failed- records without a request', async () => {
    const provider = createFakeProvider();
    const a = await provider.api.uploadFile(new File(['a'], 'a.md'), 'a.md');
    const b = await provider.api.uploadFile(new File(['b'], 'b.md'), 'b.md');
    provider.calls.length = 0;
    provider.failNext('delete', { status: 429 });
    const removed: string[] = [];
    const run = deleteFiles({
      api: provider.api,
      ids: ['failed-x', a.id, b.id],
      nameOf: (id) => id,
      onRemoved: (id) => removed.push(id),
      log: () => undefined,
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(removed).toEqual(['failed-x']);
    expect(provider.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(provider.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(499);
    expect(provider.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(await run).toEqual({ deleted: 2, alreadyGone: 0, removedLocal: 1, failed: 0, lastStatus: 0 });
    expect(removed).toEqual(['failed-x', a.id, b.id]);
  });

  it('counts a 404 as already gone, not as deleted, and reports other failures with their status', async () => {
    const provider = createFakeProvider();
    const a = await provider.api.uploadFile(new File(['a'], 'a.md'), 'a.md');
    provider.failNext('delete', { status: 503 });
    const run = deleteFiles({
      api: provider.api,
      ids: [a.id, 'file-gone'],
      nameOf: (id) => id,
      onRemoved: () => undefined,
      log: () => undefined,
    });
    await vi.advanceTimersByTimeAsync(500);
    expect(await run).toEqual({ deleted: 0, alreadyGone: 1, removedLocal: 0, failed: 1, lastStatus: 503 });
  });
});
