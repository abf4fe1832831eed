import { describe, expect, it, vi } from 'vitest';
import {
  advanceUntil,
  file,
  reloadingPages,
  setup,
  slowUploads,
  withFakeClock,
} from '../testing/controller-harness';
import { createFakeProvider } from '../testing/fake-provider';
import { memoryStorage, storageKeys } from './storage';

withFakeClock();

describe('originals kept across a reload', () => {
  it('makes an upload cut off by a reload retriable with its kept original, and drops orphans', async () => {
    const { originals, open } = reloadingPages();
    const provider = createFakeProvider();
    const first = open(provider.api);
    first.activate();
    provider.api.uploadFile = () => new Promise(() => undefined); // the page goes away mid-upload
    await first.addFiles([file('cut.md')]);
    void first.upload();
    await vi.advanceTimersByTimeAsync(0);
    expect([...originals.data.keys()]).toEqual([expect.stringMatching(/^local-/)]);
    await originals.put('orphan', file('old.md'));

    const fresh = createFakeProvider();
    const second = open(fresh.api);
    second.activate();
    await second.restored;
    const [record] = second.getState().uploaded;
    expect(record).toMatchObject({
      name: 'cut.md',
      status: 'failed',
      error: 'Upload interrupted by a page reload',
    });
    expect(record?.id).toMatch(/^failed-/);
    expect(second.getState().retriable).toEqual([record?.id]);
    expect([...originals.data.keys()]).toEqual([record?.id]);
    await second.retry([record?.id ?? '']);
    expect(second.getState().uploaded[0]).toMatchObject({ name: 'cut.md', status: 'processing' });
    expect(fresh.files.size).toBe(1);
    // Held until the provider has processed the file, then let go.
    expect([...originals.data.keys()]).toEqual([second.getState().uploaded[0]?.id]);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(second.getState().uploaded[0]?.status).toBe('done');
    expect(originals.data.size).toBe(0);
  });

  it('still knows after a reload that the provider failed the content: no Retry of the same bytes', async () => {
    const { open } = reloadingPages();
    const provider = createFakeProvider();
    const make = () => open(provider.api);
    const first = make();
    first.activate();
    await first.addFiles([file('broken.json', '{"a":')]);
    await first.upload();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(first.getState().uploaded[0]).toMatchObject({ status: 'failed', failure: 'processing' });
    expect(first.getState().retriable).toEqual([]);

    const second = make();
    second.activate();
    await second.restored;
    await second.loadExisting();
    expect(second.getState().uploaded[0]).toMatchObject({
      status: 'failed',
      failure: 'processing',
      error: 'Vapi could not process this file: not valid JSON',
    });
    expect(second.getState().retriable).toEqual([]);
  });

  it('does not call unchanged content the provider failed to process a retried success', async () => {
    const { controller, provider, state } = setup();
    await controller.addFiles([file('flaky.md', 'version one')]);
    await controller.upload();
    const [first] = state().uploaded;
    provider.files.get(first?.id ?? '')!.broken = true; // the provider's processing fails it
    await vi.advanceTimersByTimeAsync(3_000);
    expect(state().uploaded[0]).toMatchObject({
      id: first?.id,
      status: 'failed',
      failure: 'processing',
      // Nothing in the bytes explains it, and the provider's file object carries no reason.
      error: 'Vapi could not process this file (it gave no reason)',
    });
    // Its held original is the content that failed: no Retry offered, and none sent if asked.
    expect(state().retriable).toEqual([]);
    provider.calls.length = 0;
    await controller.retry([first?.id ?? '']);
    expect(provider.calls.filter((c) => c.startsWith('POST'))).toEqual([]);
    expect(state().alert).toEqual({
      variant: 'destructive',
      message:
        'flaky.md was not retried: its content is unchanged since Vapi could not process it; fix the file, then choose it again',
    });
    // Choosing the same bytes again is refused with the reason, not called a duplicate.
    await controller.addFiles([file('flaky.md', 'version one')]);
    expect(provider.calls.filter((c) => c.startsWith('POST'))).toEqual([]);
    expect(state().alert?.message).toBe(
      '1 file(s) skipped: flaky.md (unchanged since Vapi could not process it)',
    );
    // Changed content under the same name retries the record and replaces the failed copy.
    await controller.addFiles([file('flaky.md', 'version two, fixed')]);
    const [again] = state().uploaded;
    expect(again?.id).not.toBe(first?.id);
    expect(state().selected).toEqual([]);
    await vi.advanceTimersByTimeAsync(0);
    expect([...provider.files.keys()]).toEqual([again?.id]);
    expect(state().alert?.message).toBe('Successfully retried 1 of 1 files');
    await vi.advanceTimersByTimeAsync(3_000);
    expect(state().uploaded[0]).toMatchObject({ status: 'done' });
    expect(state().uploaded[0]?.error).toBeUndefined();
  });

  it('names what is wrong with content the provider failed, and refuses it chosen again unfixed', async () => {
    const { controller, state } = setup();
    await controller.addFiles([file('data.json', '{"a": 1,')]);
    await controller.upload();
    await vi.advanceTimersByTimeAsync(3_000);
    await vi.waitFor(() =>
      expect(state().uploaded[0]?.error).toBe('Vapi could not process this file: not valid JSON'),
    );
    await controller.addFiles([file('data.json', '{"a": 1, "b":')]);
    expect(state().alert?.message).toBe('1 file(s) skipped: data.json (not valid JSON)');
  });

  it('retries a failed upload when its original is chosen again, instead of calling it a duplicate', async () => {
    const storage = memoryStorage({
      [storageKeys.uploadedFiles]: JSON.stringify([
        { id: 'failed-x', name: 'cut.md', bytes: 11, mimetype: 'text/markdown', status: 'failed' },
      ]),
    });
    const { controller, provider, state } = setup({ storage });
    // Its original was not kept (no Retry), so the user chooses the file again.
    expect(state().retriable).toEqual([]);
    await controller.addFiles([file('cut.md')]);
    expect(state().alert?.message).not.toMatch(/duplicate/);
    expect(state().selected).toEqual([]);
    expect(provider.calls).toContain('POST /file cut.md');
    expect(state().uploaded).toEqual([expect.objectContaining({ name: 'cut.md', status: 'processing' })]);
    expect(state().alert?.message).toBe('Successfully retried 1 of 1 files');
  });
});

describe('a failed file chosen again during an upload', () => {
  it('waits, held and retriable, and says so', async () => {
    const { controller, provider, state } = setup();
    provider.failNext('upload', { status: 400, body: 'Invalid file' });
    await controller.addFiles([file('a.md')]);
    await controller.upload();
    const failedId = state().uploaded[0]?.id ?? '';
    const slow = provider.api.uploadFile;
    provider.api.uploadFile = (f, n) =>
      new Promise((resolve) => setTimeout(() => resolve(slow(f, n)), 1_000));
    await controller.addFiles([file('b.md')]);
    const running = controller.upload();
    await vi.advanceTimersByTimeAsync(0);
    await controller.addFiles([file('a.md')]);
    expect(state().alert?.message).toBe(
      '1 failed file(s) chosen again: use Retry once the current upload has finished.',
    );
    await vi.advanceTimersByTimeAsync(1_000);
    await running;
    expect(state().retriable).toEqual([failedId]);
  });
});

describe('empty files', () => {
  it('are refused when chosen, with the reason in view', async () => {
    const { controller, provider, state } = setup();
    await controller.addFiles([file('empty.md', '')]);
    expect(state().selected).toEqual([]);
    expect(state().alert).toEqual({
      variant: 'destructive',
      message: '1 file(s) skipped: empty.md (empty file)',
    });
    await controller.addFiles([file('empty.md', ''), file('full.md')]);
    expect(state().selected.map((s) => s.file.name)).toEqual(['full.md']);
    expect(state().alert?.message).toBe('1 file(s) skipped: empty.md (empty file)');
    expect(provider.calls.filter((c) => c.startsWith('POST'))).toEqual([]);
  });
});

describe('re-activation', () => {
  it('keeps polling after the tool is left and re-entered while a status check is in flight', async () => {
    const { controller, provider, state, stop } = setup();
    await controller.addFiles([file('a.md')]);
    const upload = controller.upload();
    await advanceUntil(() => !state().upload.running);
    await upload;
    // The first status check hangs until released, as a slow network would.
    const getFile = provider.api.getFile;
    let release: () => void = () => undefined;
    provider.api.getFile = (id, options) =>
      new Promise((resolve, reject) => {
        // It answers what was true when it was sent: still processing.
        release = () => getFile(id, options).then((f) => resolve({ ...f, status: 'processing' }), reject);
        provider.api.getFile = getFile;
      });
    await advanceUntil(() => provider.api.getFile === getFile);
    stop();
    controller.activate();
    release();
    // Before the fix the old loop exited on its own abort and nothing polled the file again.
    await advanceUntil(() => state().uploaded[0]?.status === 'done');
  });
});

describe('leaving the page mid-upload', () => {
  it('keeps the records and originals for the next page instead of dropping them', async () => {
    const { open } = reloadingPages();
    const provider = createFakeProvider();
    const first = open(provider.api);
    const stop = first.activate();
    slowUploads(provider.api);
    await first.addFiles([file('a.md'), file('b.md'), file('c.md'), file('d.md')]);
    const run = first.upload();
    await vi.advanceTimersByTimeAsync(1_100);
    stop();
    await run;
    const next = open(provider.api);
    next.activate();
    await next.restored;
    const state = next.getState();
    expect(state.uploaded.map((f) => [f.name, f.status]).sort()).toEqual([
      ['a.md', 'processing'],
      ['b.md', 'processing'],
      ['c.md', 'processing'],
      ['d.md', 'failed'],
    ]);
    expect(state.retriable).toHaveLength(1);
  });
});
