import { describe, expect, it, vi } from 'vitest';
import { file, setup, withFakeClock } from '../testing/controller-harness';

withFakeClock();

describe('choosing files', () => {
  it('needs a key to check duplicates', async () => {
    const { controller, state } = setup({ key: false });
    await controller.addFiles([file('a.md')]);
    expect(state().alert).toEqual({
      variant: 'destructive',
      message: 'API key required to check for duplicates',
    });
    expect(state().selected).toEqual([]);
  });

  it('selects supported new files and reports the skipped ones', async () => {
    const { controller, provider, state } = setup();
    await provider.api.uploadFile(file('remote.md', 'abc'), 'remote.md');
    await controller.addFiles([file('remote.md', 'abc'), file('pic.png'), file('a.md'), file('b.txt')]);
    expect(state().selected.map((s) => s.file.name)).toEqual(['a.md', 'b.txt']);
    expect(state().alert?.message).toBe(
      '2 file(s) skipped: remote.md (duplicate - already exists in Vapi), pic.png (unsupported format)',
    );
    await controller.addFiles([file('a.md')]);
    expect(state().alert?.message).toBe('No new files selected - all were duplicates or unsupported');
    expect(state().logs.at(-1)?.message).toBe('No new files selected - all were duplicates or unsupported');
  });

  it('retries a rate-limited listing, and reports one that keeps failing with its status', async () => {
    const { controller, provider, state } = setup();
    provider.failNext('list', { status: 429, retryAfterMs: 1_000 });
    const first = controller.addFiles([file('a.md')]);
    await vi.advanceTimersByTimeAsync(1_000);
    await first;
    expect(state().selected.map((s) => s.file.name)).toEqual(['a.md']);
    provider.failNext('list', { status: 503 }, { status: 503 }, { status: 503 });
    const second = controller.addFiles([file('b.md')]);
    await vi.advanceTimersByTimeAsync(10_000);
    await second;
    expect(state().alert).toEqual({
      variant: 'destructive',
      message: 'Failed to load files: 503 Service Unavailable',
    });
    provider.failNext('list', { status: 401 });
    await controller.addFiles([file('b.md')]);
    expect(state().alert?.message).toBe(
      "Invalid API key. Make sure you're using your VAPI private key, not the public key.",
    );
  });
});
