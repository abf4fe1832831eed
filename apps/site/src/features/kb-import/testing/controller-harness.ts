import { File as NodeFile } from 'node:buffer';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import { KbImportController } from '../lib/controller';
import { memoryOriginals } from '../lib/originals';
import { memoryStorage } from '../lib/storage';
import { createFakeProvider } from './fake-provider';

/** The import controller's tests: a controller over the fake provider, on the fake clock. */

// Node's File: its bytes are read without a timer tick (jsdom's FileReader waits for one).
export const file = (name: string, content = 'hello world') =>
  new NodeFile([content], name) as unknown as File;

export function setup(options: { key?: boolean; storage?: ReturnType<typeof memoryStorage> } = {}) {
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

/**
 * One browser's storage and kept originals across page loads: `open(api)` is the controller of a
 * new page over them (as after a reload), not yet activated.
 */
export function reloadingPages() {
  const originals = memoryOriginals();
  const storage = memoryStorage();
  const open = (api: ReturnType<typeof createFakeProvider>['api']) =>
    new KbImportController({ storage, providerName: 'Vapi', getApi: () => api, originals });
  return { originals, storage, open };
}

/** Makes each upload take `ms` of fake time, and end with an AbortError when its signal aborts. */
export function slowUploads(api: ReturnType<typeof createFakeProvider>['api'], ms = 1_000) {
  const upload = api.uploadFile;
  api.uploadFile = (f, n, o) =>
    new Promise((resolve, reject) => {
      const t = setTimeout(() => resolve(upload(f, n)), ms);
      o?.signal?.addEventListener('abort', () => {
        clearTimeout(t);
        reject(new DOMException('aborted', 'AbortError'));
      });
    });
}

/** Advances fake time until `predicate` holds (each step runs due timers and settles promises). */
export async function advanceUntil(predicate: () => boolean, stepMs = 100, limitMs = 400_000) {
  for (let t = 0; t <= limitMs && !predicate(); t += stepMs) await vi.advanceTimersByTimeAsync(stepMs);
  expect(predicate()).toBe(true);
}

/** Fake timers in each test of the file, real ones after it. */
export function withFakeClock(): void {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}
