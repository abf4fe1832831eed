import { describe, expect, it, vi } from 'vitest';
import { advanceUntil, file, setup, slowUploads, withFakeClock } from '../testing/controller-harness';
import { createFakeProvider } from '../testing/fake-provider';
import { KbImportController } from './controller';
import { memoryStorage, storageKeys } from './storage';

withFakeClock();

describe('uploading and polling', () => {
  it('uploads every file, polls them to done on the schedule, and persists the records', async () => {
    const { controller, provider, state, storage } = setup();
    await controller.addFiles([
      file('a.md'),
      file('b.md'),
      file('c.md'),
      file('d.md'),
      file('broken.json', '{"unclosed": '),
    ]);
    const upload = controller.upload();
    expect(state().upload.running).toBe(true);
    await advanceUntil(() => !state().upload.running);
    await upload;
    expect(provider.calls.filter((c) => c.startsWith('POST /file'))).toHaveLength(5);
    expect(state().uploaded.every((f) => f.status === 'processing')).toBe(true);
    // No status check before the first interval of 3 s has passed since a file's upload.
    expect(provider.calls.some((c) => c.startsWith('GET /file/'))).toBe(false);
    await advanceUntil(() => state().uploaded.every((f) => f.status === 'done' || f.status === 'failed'));
    const byName = Object.fromEntries(state().uploaded.map((f) => [f.name, f.status]));
    expect(byName).toEqual({
      'a.md': 'done',
      'b.md': 'done',
      'c.md': 'done',
      'd.md': 'done',
      'broken.json': 'failed',
    });
    // The provider's file object says no more than 'failed': the reason is found in the original.
    await vi.waitFor(() =>
      expect(state().uploaded.find((f) => f.name === 'broken.json')?.error).toBe(
        'Vapi could not process this file: not valid JSON',
      ),
    );
    // One check per file was enough (processing takes 2 s and the first check comes after 3 s), and
    // one listing served all five: no GET /file/{id}, one GET /file besides the duplicate screening.
    expect(provider.calls.filter((c) => c.startsWith('GET /file/'))).toHaveLength(0);
    expect(provider.calls.filter((c) => c === 'GET /file')).toHaveLength(2);
    expect(Object.values(state().progress).every((p) => p === 100)).toBe(true);
    const stored = JSON.parse(storage.getItem(storageKeys.uploadedFiles) ?? '[]') as {
      name: string;
      status: string;
    }[];
    expect(stored.map((f) => f.status).sort()).toEqual(['done', 'done', 'done', 'done', 'failed']);
    // the uploaded file record: id, name, bytes, mimetype, status, createdAt, url.
    expect(stored.find((f) => f.name === 'a.md')).toEqual({
      id: expect.stringMatching(/^file-/),
      name: 'a.md',
      bytes: 11,
      mimetype: 'text/markdown',
      status: 'done',
      createdAt: expect.stringMatching(/^\d{4}-/),
      url: expect.stringMatching(/^https:/),
    });
    expect(state().announcement).toMatch(/ (is ready|failed)$/);
  });

  it('says a key is required when it was cleared after choosing files, and sends nothing', async () => {
    const provider = createFakeProvider();
    let key = true;
    const controller = new KbImportController({
      storage: memoryStorage(),
      providerName: 'Vapi',
      getApi: () => (key ? provider.api : null),
    });
    controller.activate();
    await controller.addFiles([file('a.md')]);
    key = false;
    await controller.upload();
    expect(controller.getState().alert).toEqual({
      variant: 'destructive',
      message: 'API key required to upload files',
    });
    expect(provider.calls.filter((c) => c.startsWith('POST /file'))).toEqual([]);
    expect(controller.getState().selected.map((s) => s.file.name)).toEqual(['a.md']);
  });

  it('keeps at most three uploads in flight with a 200 ms gap per lane', async () => {
    const { controller, provider, state } = setup();
    let inFlight = 0;
    let maxInFlight = 0;
    const upload = provider.api.uploadFile;
    provider.api.uploadFile = async (...args) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, 1_000));
      inFlight--;
      return upload(...args);
    };
    await controller.addFiles(Array.from({ length: 9 }, (_, i) => file(`f${i}.md`)));
    void controller.upload();
    await vi.advanceTimersByTimeAsync(1_000);
    // Three lanes started together; none starts its next file before 1 s + 200 ms.
    expect(provider.calls.filter((c) => c.startsWith('POST /file'))).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(199);
    expect(provider.calls.filter((c) => c.startsWith('POST /file'))).toHaveLength(3);
    await advanceUntil(() => !state().upload.running);
    expect(maxInFlight).toBe(3);
    expect(state().upload).toEqual({ running: false, total: 9, finished: 9 });
  });

  it('retries 429 and 5xx uploads honouring Retry-After, losing no file', async () => {
    const { controller, provider, state } = setup();
    provider.failNext('upload', { status: 429, retryAfterMs: 5_000 }, { status: 503 }, { status: 502 });
    await controller.addFiles([file('a.md'), file('b.md'), file('c.md')]);
    void controller.upload();
    await vi.advanceTimersByTimeAsync(4_900);
    // The lane that got the 429 waits the 5 s the provider asked for.
    expect(provider.files.size).toBeLessThan(3);
    await advanceUntil(() => !state().upload.running);
    expect(provider.files.size).toBe(3);
    expect(
      state()
        .uploaded.map((f) => f.name)
        .sort(),
    ).toEqual(['a.md', 'b.md', 'c.md']);
    expect(state().uploaded.some((f) => f.status === 'failed')).toBe(false);
    expect(
      state().logs.some((l) => l.message === 'Upload of a.md got 429 Too Many Requests; retrying in 5.0 s'),
    ).toBe(true);
  });

  it('gives rate limits and failures separate retry budgets', async () => {
    const { controller, provider, state } = setup();
    provider.failNext(
      'upload',
      { status: 429, retryAfterMs: 1_000 },
      { status: 429, retryAfterMs: 1_000 },
      { status: 503 },
      { status: 503 },
    );
    await controller.addFiles([file('a.md')]);
    void controller.upload();
    await advanceUntil(() => !state().upload.running);
    expect(state().uploaded[0]?.status).toBe('processing');
    provider.failNext('upload', { status: 500 }, { status: 500 }, { status: 500 });
    await controller.addFiles([file('b.md')]);
    void controller.upload();
    await advanceUntil(() => !state().upload.running);
    expect(state().uploaded[0]).toMatchObject({ name: 'b.md', status: 'failed' });
    expect(provider.calls.filter((c) => c === 'POST /file b.md')).toHaveLength(3);
  });

  it('keeps a failed upload with a failed- id and its original, and retries it', async () => {
    const { controller, provider, state } = setup();
    provider.failNext('upload', { status: 400, body: '{"message":"Invalid file"}' });
    await controller.addFiles([file('a.md')]);
    await controller.upload();
    const [failed] = state().uploaded;
    expect(failed?.id).toMatch(/^failed-/);
    expect(failed?.status).toBe('failed');
    // The provider's reason, not its JSON envelope.
    expect(state().alert?.message).toBe('Upload failed: 400 Bad Request - Invalid file');
    expect(failed?.error).toBe('Upload failed: 400 Bad Request - Invalid file');
    expect(state().retriable).toEqual([failed?.id]);
    const retry = controller.retry([failed?.id ?? '']);
    await advanceUntil(() => !state().upload.running);
    await retry;
    expect(state().alert).toEqual({ variant: 'default', message: 'Successfully retried 1 of 1 files' });
    expect(state().uploaded[0]?.id).toMatch(/^file-/);
    expect(state().retriable).toEqual([]);
  });

  it('maps 401 and unsupported types to their messages', async () => {
    const { controller, provider, state } = setup();
    provider.failNext('upload', { status: 401 });
    await controller.addFiles([file('a.md')]);
    await controller.upload();
    expect(state().alert?.message).toBe(
      "Invalid API key. Make sure you're using your VAPI private key, not the public key.",
    );
    provider.failNext('upload', { status: 415 });
    await controller.addFiles([file('b.md')]);
    await controller.upload();
    expect(state().alert?.message).toBe(
      'File type not supported. Please check the file format and try again. Supported: .md, .pdf, .txt, .csv, .tsv, .log, .json, .xml, .yaml, .doc, .docx',
    );
  });

  it('cancel stops sending and puts unsent files back in the selection', async () => {
    const { controller, provider, state } = setup();
    slowUploads(provider.api);
    await controller.addFiles(Array.from({ length: 6 }, (_, i) => file(`f${i}.md`)));
    const run = controller.upload();
    await vi.advanceTimersByTimeAsync(1_100);
    controller.cancelUpload();
    await run;
    expect(provider.files.size).toBe(3);
    expect(state().uploaded).toHaveLength(3);
    expect(
      state()
        .selected.map((s) => s.file.name)
        .sort(),
    ).toEqual(['f3.md', 'f4.md', 'f5.md']);
    expect(state().upload.running).toBe(false);
  });

  it('a status check answered 429 is skipped and tried again on the schedule', async () => {
    const { controller, provider, state } = setup();
    await controller.addFiles([file('a.md')]);
    await controller.upload();
    provider.failNext('get', { status: 429 });
    await vi.advanceTimersByTimeAsync(3_000);
    expect(state().uploaded[0]?.status).toBe('processing');
    expect(state().logs.at(-1)?.message).toBe('Status check of a.md rate limited; skipped');
    await vi.advanceTimersByTimeAsync(3_999);
    expect(state().uploaded[0]?.status).toBe('processing');
    await vi.advanceTimersByTimeAsync(1);
    expect(state().uploaded[0]?.status).toBe('done');
  });

  it('gives up after 20 status checks', async () => {
    const provider = createFakeProvider({ processingMs: 10_000_000 });
    const controller = new KbImportController({
      storage: memoryStorage(),
      providerName: 'Vapi',
      getApi: () => provider.api,
    });
    controller.activate();
    await controller.addFiles([file('slow.md')]);
    await controller.upload();
    await vi.advanceTimersByTimeAsync(400_000);
    expect(provider.calls.filter((c) => c.startsWith('GET /file/'))).toHaveLength(20);
    expect(controller.getState().logs.at(-1)?.message).toBe(
      'Stopped checking slow.md after 20 attempts; use Refresh to check again',
    );
  });

  it('stops checking 300 s after the upload even before 20 checks, when checks are slow', async () => {
    const provider = createFakeProvider({ processingMs: 10_000_000 });
    const getFile = provider.api.getFile;
    // Each status check takes 15 s to answer: 20 checks would need far more than 300 s.
    provider.api.getFile = async (id, options) => {
      await new Promise((resolve) => setTimeout(resolve, 15_000));
      return getFile(id, options);
    };
    const controller = new KbImportController({
      storage: memoryStorage(),
      providerName: 'Vapi',
      getApi: () => provider.api,
    });
    controller.activate();
    await controller.addFiles([file('slow.md')]);
    await controller.upload();
    await vi.advanceTimersByTimeAsync(600_000);
    const checks = provider.calls.filter((c) => c.startsWith('GET /file/')).length;
    expect(checks).toBeLessThan(20);
    expect(controller.getState().logs.at(-1)?.message).toBe(
      `Stopped checking slow.md after ${checks} attempts; use Refresh to check again`,
    );
  });

  it('turns uploads cut off by a reload into failed records, and resumes polling processing ones', async () => {
    const storage = memoryStorage({
      [storageKeys.uploadedFiles]: JSON.stringify([
        {
          id: 'local-x',
          name: 'cut.md',
          bytes: 3,
          mimetype: 'text/markdown',
          status: 'uploading',
          createdAt: '',
          url: '',
        },
        {
          id: 'file-1',
          name: 'p.md',
          bytes: 3,
          mimetype: 'text/markdown',
          status: 'processing',
          createdAt: '',
          url: '',
        },
      ]),
    });
    const { state, provider } = setup({ storage });
    expect(state().uploaded.map((f) => [f.id, f.status])).toEqual([
      ['failed-x', 'failed'],
      ['file-1', 'processing'],
    ]);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(provider.calls).toEqual(['GET /file/file-1']);
  });
});
