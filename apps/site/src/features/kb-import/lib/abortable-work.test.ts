import { File as NodeFile } from 'node:buffer';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeProvider } from '../testing/fake-provider';
import { KbImportController } from './controller';
import { memoryOriginals } from './originals';
import { memoryStorage } from './storage';

// Leaving the page (the hook's cleanup: the controller's stop) ends every wait and request of the
// tool at once: bulk delete's pacing and 429 wait, and the file listing's retry wait.

const file = (name: string, content = 'hello world') => new NodeFile([content], name) as unknown as File;

function setup() {
  const provider = createFakeProvider({ processingMs: 0 });
  const controller = new KbImportController({
    storage: memoryStorage(),
    originals: memoryOriginals(),
    providerName: 'Vapi',
    getApi: () => provider.api,
  });
  const stop = controller.activate();
  return { provider, controller, stop };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('leaving the page stops the work under way', () => {
  it('a bulk delete: no request after the stop, in the 500 ms gap or the 429 wait', async () => {
    const { provider, controller, stop } = setup();
    for (const name of ['a.md', 'b.md', 'c.md']) await provider.api.uploadFile(file(name), name);
    await controller.loadExisting();
    const ids = controller.getState().uploaded.map((f) => f.id);
    provider.calls.length = 0;
    const run = controller.delete(ids);
    await vi.advanceTimersByTimeAsync(0);
    expect(provider.calls).toEqual([`DELETE /file/${ids[0]}`]);
    // In the gap before the second file.
    stop();
    await vi.advanceTimersByTimeAsync(60_000);
    await run;
    expect(provider.calls).toEqual([`DELETE /file/${ids[0]}`]);
    expect(controller.getState().deleting).toBe(false);
    expect(controller.getState().uploaded.map((f) => f.id)).toEqual(ids.slice(1));

    // Rate limited, then left while waiting the 2 s.
    const again = setup();
    const d = await again.provider.api.uploadFile(file('d.md'), 'd.md');
    await again.controller.loadExisting();
    again.provider.calls.length = 0;
    again.provider.failNext('delete', { status: 429 });
    const limited = again.controller.delete([d.id]);
    await vi.advanceTimersByTimeAsync(1_000);
    again.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    await limited;
    expect(again.provider.calls).toEqual([`DELETE /file/${d.id}`]);
    expect(again.provider.files.has(d.id)).toBe(true);
  });

  it('hands the signal to the delete request itself, which aborts with it', async () => {
    const { provider, controller, stop } = setup();
    const a = await provider.api.uploadFile(file('a.md'), 'a.md');
    await controller.loadExisting();
    const seen: (AbortSignal | undefined)[] = [];
    const original = provider.api.deleteFile;
    provider.api.deleteFile = (id, options) => {
      seen.push(options?.signal);
      return original(id, options);
    };
    const run = controller.delete([a.id]);
    stop();
    await run;
    expect(seen).toHaveLength(1);
    expect(seen[0]?.aborted).toBe(true);
  });

  it('a file listing retrying after a 429: no second request once the page is left', async () => {
    const { provider, controller, stop } = setup();
    provider.failNext('list', { status: 429, retryAfterMs: 5_000 });
    const loading = controller.loadExisting();
    await vi.advanceTimersByTimeAsync(0);
    expect(provider.calls).toEqual(['GET /file']);
    stop();
    await vi.advanceTimersByTimeAsync(60_000);
    await loading;
    expect(provider.calls).toEqual(['GET /file']);
    // Stopped, not failed: no error is shown for a page that is gone.
    expect(controller.getState().alert).toBeNull();
  });
});
