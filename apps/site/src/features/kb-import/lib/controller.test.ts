import { File as NodeFile } from 'node:buffer';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeProvider } from '../testing/fake-provider';
import { KbImportController } from './controller';
import { memoryOriginals } from './originals';
import { memoryStorage, storageKeys } from './storage';

// Node's File: its bytes are read without a timer tick (jsdom's FileReader waits for one).
const file = (name: string, content = 'hello world') => new NodeFile([content], name) as unknown as File;

function setup(options: { key?: boolean; storage?: ReturnType<typeof memoryStorage> } = {}) {
  const provider = createFakeProvider({ processingMs: 2_000 });
  const storage = options.storage ?? memoryStorage();
  let ids = 0;
  const controller = new KbImportController({
    storage,
    providerName: 'Vapi',
    getApi: () => (options.key === false ? null : provider.api),
    newId: () => `id${++ids}`,
  });
  const stop = controller.activate();
  return { provider, storage, controller, stop, state: () => controller.getState() };
}

/** Advances fake time until `predicate` holds (each step runs due timers and settles promises). */
async function advanceUntil(predicate: () => boolean, stepMs = 100, limitMs = 400_000) {
  for (let t = 0; t <= limitMs && !predicate(); t += stepMs) await vi.advanceTimersByTimeAsync(stepMs);
  expect(predicate()).toBe(true);
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

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
    // SPEC §3's uploaded file record: id, name, bytes, mimetype, status, createdAt, url.
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
    const upload = provider.api.uploadFile;
    provider.api.uploadFile = (f, n, o) =>
      new Promise((resolve, reject) => {
        const t = setTimeout(() => resolve(upload(f, n)), 1_000);
        o?.signal?.addEventListener('abort', () => {
          clearTimeout(t);
          reject(new DOMException('aborted', 'AbortError'));
        });
      });
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

describe('originals kept across a reload', () => {
  it('makes an upload cut off by a reload retriable with its kept original, and drops orphans', async () => {
    const originals = memoryOriginals();
    const storage = memoryStorage();
    const provider = createFakeProvider();
    const first = new KbImportController({
      storage,
      providerName: 'Vapi',
      getApi: () => provider.api,
      originals,
    });
    first.activate();
    provider.api.uploadFile = () => new Promise(() => undefined); // the page goes away mid-upload
    await first.addFiles([file('cut.md')]);
    void first.upload();
    await vi.advanceTimersByTimeAsync(0);
    expect([...originals.data.keys()]).toEqual([expect.stringMatching(/^local-/)]);
    await originals.put('orphan', file('old.md'));

    const fresh = createFakeProvider();
    const second = new KbImportController({
      storage,
      providerName: 'Vapi',
      getApi: () => fresh.api,
      originals,
    });
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
    const originals = memoryOriginals();
    const storage = memoryStorage();
    const provider = createFakeProvider();
    const make = () =>
      new KbImportController({ storage, providerName: 'Vapi', getApi: () => provider.api, originals });
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

describe('loading from the provider', () => {
  it('needs a key to load files', async () => {
    const { controller, state } = setup({ key: false });
    await controller.loadExisting();
    expect(state().alert?.message).toBe('API key required to load existing files');
    await controller.refresh();
    expect(state().alert?.message).toBe('API key required to load files');
  });

  it('says why loading or refreshing failed, with the status, and blames the key for a 401', async () => {
    const { controller, provider, state } = setup();
    provider.failNext('list', { status: 400 });
    await controller.loadExisting();
    expect(state().alert).toEqual({
      variant: 'destructive',
      message: 'Failed to load files: 400 Bad Request',
    });
    provider.failNext('list', { status: 401 });
    await controller.loadExisting();
    expect(state().alert?.message).toBe(
      "Invalid API key. Make sure you're using your VAPI private key, not the public key.",
    );
    provider.failNext('list', { status: 400 });
    await controller.refresh();
    expect(state().alert).toEqual({
      variant: 'destructive',
      message: 'Failed to load files: 400 Bad Request',
    });
    provider.failNext('list', { status: 401 });
    await controller.refresh();
    expect(state().alert?.message).toBe(
      "Invalid API key. Make sure you're using your VAPI private key, not the public key.",
    );
  });

  it("adds the provider's existing files once and follows those still processing", async () => {
    const { controller, provider, state } = setup();
    await provider.api.uploadFile(file('old.md'), 'old.md');
    await vi.advanceTimersByTimeAsync(2_000);
    await provider.api.uploadFile(file('new.md'), 'new.md');
    await controller.loadExisting();
    expect(state().uploaded.map((f) => [f.name, f.status])).toEqual([
      ['old.md', 'done'],
      ['new.md', 'processing'],
    ]);
    expect(state().alert).toEqual({
      variant: 'default',
      message: 'Loaded 2 files from the provider (2 new).',
    });
    await provider.api.uploadFile(file('third.md'), 'third.md');
    await controller.loadExisting();
    expect(state().uploaded).toHaveLength(3);
    // Not 'Loaded 1 existing file(s)' nor 'Loaded 0': the provider holds 3, one of them new here.
    expect(state().alert?.message).toBe('Loaded 3 files from the provider (1 new).');
    await controller.loadExisting();
    expect(state().alert?.message).toBe('Loaded 3 files from the provider (0 new).');
    await vi.advanceTimersByTimeAsync(3_000);
    expect(state().uploaded[1]?.status).toBe('done');
  });

  it('refreshes statuses from the provider list', async () => {
    const { controller, provider, state } = setup();
    await controller.addFiles([file('a.md')]);
    await controller.upload();
    provider.failNext('get', { status: 500 }, { status: 500 });
    await vi.advanceTimersByTimeAsync(3_000);
    expect(state().uploaded[0]?.status).toBe('processing');
    await controller.refresh();
    expect(state().uploaded[0]?.status).toBe('done');
    expect(state().logs.at(-1)?.message).toBe('Refreshed 1 file(s) from the provider');
  });
});

describe('leaving the page mid-upload', () => {
  it('keeps the records and originals for the next page instead of dropping them', async () => {
    const originals = memoryOriginals();
    const storage = memoryStorage();
    const provider = createFakeProvider();
    const first = new KbImportController({
      storage,
      providerName: 'Vapi',
      getApi: () => provider.api,
      originals,
    });
    const stop = first.activate();
    const upload = provider.api.uploadFile;
    provider.api.uploadFile = (f, n, o) =>
      new Promise((resolve, reject) => {
        const t = setTimeout(() => resolve(upload(f, n)), 1_000);
        o?.signal?.addEventListener('abort', () => {
          clearTimeout(t);
          reject(new DOMException('aborted', 'AbortError'));
        });
      });
    await first.addFiles([file('a.md'), file('b.md'), file('c.md'), file('d.md')]);
    const run = first.upload();
    await vi.advanceTimersByTimeAsync(1_100);
    stop();
    await run;
    const next = new KbImportController({
      storage,
      providerName: 'Vapi',
      getApi: () => provider.api,
      originals,
    });
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

describe('deleting', () => {
  async function withUploaded(n: number) {
    const ctx = setup();
    await ctx.controller.addFiles(Array.from({ length: n }, (_, i) => file(`f${i}.md`)));
    const run = ctx.controller.upload();
    await advanceUntil(() => !ctx.state().upload.running);
    await run;
    return ctx;
  }

  it('deletes checked files 500 ms apart and waits 2 s after a 429', async () => {
    const { controller, provider, state } = await withUploaded(3);
    controller.setAllChecked(true);
    expect(state().checked).toHaveLength(3);
    provider.failNext('delete', { status: 429 });
    provider.calls.length = 0;
    const run = controller.deleteChecked();
    await vi.advanceTimersByTimeAsync(0);
    expect(provider.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(provider.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(provider.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(499);
    expect(provider.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(provider.calls).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(500);
    await run;
    expect(provider.files.size).toBe(0);
    expect(state().uploaded).toEqual([]);
    expect(state().alert).toEqual({ variant: 'default', message: 'Successfully deleted 3 files from VAPI.' });
  });

  it('reports partial failures and removes failed- records without a request', async () => {
    const { controller, provider, state } = await withUploaded(2);
    provider.failNext('upload', { status: 400 });
    await controller.addFiles([file('bad.md')]);
    await controller.upload();
    provider.failNext('delete', { status: 500 });
    provider.calls.length = 0;
    controller.setAllChecked(true);
    const run = controller.deleteChecked();
    await vi.advanceTimersByTimeAsync(2_000);
    await run;
    expect(provider.calls.filter((c) => c.startsWith('DELETE'))).toHaveLength(2);
    // One deleted on the provider, one refused there, and one that never reached it: each said as it is.
    expect(state().alert).toEqual({
      variant: 'destructive',
      message:
        'Deleted 1 files. Failed to delete 1 files from VAPI. Removed 1 file from the list that never reached VAPI.',
    });
    expect(state().uploaded).toHaveLength(1);
  });

  it('says records that never reached the provider were removed from the list, not deleted from it', async () => {
    const storage = memoryStorage({
      [storageKeys.uploadedFiles]: JSON.stringify(
        ['a', 'b'].map((n) => ({
          id: `failed-${n}`,
          name: `${n}.md`,
          bytes: 1,
          mimetype: '',
          status: 'failed',
        })),
      ),
    });
    const { controller, provider, state } = setup({ storage });
    await controller.delete(['failed-a', 'failed-b']);
    expect(provider.calls).toEqual([]);
    expect(state().uploaded).toEqual([]);
    expect(state().alert).toEqual({
      variant: 'default',
      message: 'Removed 2 files from the list that never reached VAPI.',
    });
  });

  it('a single failed delete says its status', async () => {
    const { controller, provider, state } = await withUploaded(1);
    provider.failNext('delete', { status: 503 });
    await controller.delete([state().uploaded[0]?.id ?? '']);
    expect(state().alert?.message).toBe('Failed to delete file from VAPI: 503');
  });
});

describe('creating the knowledge base', () => {
  async function withDone() {
    const ctx = setup();
    await ctx.controller.addFiles([file('a.md'), file('b.md'), file('broken.json', '{')]);
    void ctx.controller.upload();
    await advanceUntil(() => ctx.state().uploaded.every((f) => f.status === 'done' || f.status === 'failed'));
    return ctx;
  }

  it('needs a key, an assistant and done files', async () => {
    const noKey = setup({ key: false });
    await noKey.controller.createKnowledgeBase({ name: '', description: '', assistantId: 'asst-1' });
    expect(noKey.state().alert?.message).toBe('Please provide API key');
    const { controller, state } = setup();
    await controller.createKnowledgeBase({ name: '', description: '', assistantId: '' });
    // The key is there (typed, or held by the server): only the assistant is asked for.
    expect(state().alert?.message).toBe('Please select an assistant');
    await noKey.controller.createKnowledgeBase({ name: '', description: '', assistantId: '' });
    expect(noKey.state().alert?.message).toBe('Please provide API key and select an assistant');
    await controller.createKnowledgeBase({ name: '', description: '', assistantId: 'asst-1' });
    expect(state().alert?.message).toBe('No files selected for knowledge base');
  });

  it('creates the tool from done files with defaults and keeps the assistant model and earlier tools', async () => {
    const { controller, provider, state } = await withDone();
    const kb = await controller.createKnowledgeBase({ name: '  ', description: '', assistantId: 'asst-1' });
    const [tool] = [...provider.tools.values()];
    const doneIds = state()
      .uploaded.filter((f) => f.status === 'done')
      .map((f) => f.id);
    expect(tool).toMatchObject({
      type: 'query',
      function: { name: 'knowledge-base' },
      knowledgeBases: [
        {
          provider: 'google',
          name: 'knowledge-base',
          description: 'Custom knowledge base',
          fileIds: doneIds,
        },
      ],
    });
    expect(provider.assistants.get('asst-1')?.model).toEqual({
      provider: 'openai',
      model: 'gpt-4o',
      toolIds: ['tool-old', tool?.id],
    });
    expect(state().knowledgeBases).toEqual([kb]);
    expect(state().alert?.variant).toBe('default');
    expect(state().creating).toBe(false);
  });

  it('never creates a tool without its name: a refused name is reported, and nothing is created', async () => {
    const { controller, provider, state } = await withDone();
    provider.failNext('tool', { status: 400, body: '{"message":["function.name must be a-z"]}' });
    expect(
      await controller.createKnowledgeBase({ name: 'kb', description: '', assistantId: 'asst-1' }),
    ).toBeNull();
    expect(provider.tools.size).toBe(0);
    expect(provider.calls.filter((c) => c === 'POST /tool')).toHaveLength(1);
    expect(state().alert).toEqual({ variant: 'destructive', message: 'Tool creation failed: Bad Request' });
    expect(state().knowledgeBases).toHaveLength(0);
  });

  it("checks the query tool's name before creating anything: at most 64 characters", async () => {
    const { controller, provider, state } = await withDone();
    provider.calls.length = 0;
    const long = 'a'.repeat(65);
    expect(
      await controller.createKnowledgeBase({ name: long, description: '', assistantId: 'asst-1' }),
    ).toBeNull();
    expect(state().alert).toEqual({
      variant: 'destructive',
      message: "The name is 65 characters long; a query tool's name is at most 64.",
    });
    expect(provider.calls).toEqual([]);
    await controller.createKnowledgeBase({ name: 'a'.repeat(64), description: '', assistantId: 'asst-1' });
    expect([...provider.tools.values()][0]?.function?.name).toBe('a'.repeat(64));
  });

  it('is busy while creating, and ignores a second request until the first has finished', async () => {
    const { controller, provider, state } = await withDone();
    const held: (() => void)[] = [];
    const create = provider.api.createQueryTool;
    provider.api.createQueryTool = async (input) => {
      await new Promise<void>((resolve) => held.push(resolve));
      return create(input);
    };
    const first = controller.createKnowledgeBase({ name: 'kb', description: '', assistantId: 'asst-1' });
    expect(state().creating).toBe(true);
    const second = controller.createKnowledgeBase({ name: 'kb', description: '', assistantId: 'asst-1' });
    await vi.advanceTimersByTimeAsync(0);
    for (const release of held) release();
    expect(await second).toBeNull();
    expect(await first).not.toBeNull();
    expect(state().creating).toBe(false);
    expect(provider.tools.size).toBe(1);
    expect(state().knowledgeBases).toHaveLength(1);
  });

  it('adds the tool id to model.toolIds only once, even when the assistant already lists it', async () => {
    const { controller, provider } = await withDone();
    // The provider answers with an id the assistant already has (a tool attached earlier).
    provider.api.createQueryTool = async () => ({ id: 'tool-old' });
    await controller.createKnowledgeBase({ name: 'kb', description: '', assistantId: 'asst-1' });
    expect(provider.assistants.get('asst-1')?.model).toEqual({
      provider: 'openai',
      model: 'gpt-4o',
      toolIds: ['tool-old'],
    });
  });

  it('does not add the tool twice and reports failures with the status text', async () => {
    const { controller, provider, state } = await withDone();
    provider.failNext('tool', { status: 400 });
    await controller.createKnowledgeBase({ name: 'kb', description: '', assistantId: 'asst-1' });
    expect(state().alert).toEqual({ variant: 'destructive', message: 'Tool creation failed: Bad Request' });
    provider.failNext('update', { status: 500 });
    await controller.createKnowledgeBase({ name: 'kb', description: '', assistantId: 'asst-1' });
    expect(state().alert).toEqual({
      variant: 'destructive',
      message: 'Assistant update failed: Internal Server Error',
    });
    expect(state().knowledgeBases).toEqual([]);
  });
});
