import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { KbImportTool } from '../components/kb-import-tool';
import { memoryStorage } from '../lib/storage';
import { providerFetch } from './fake-fetch';
import { createFakeProvider } from './fake-provider';

export const BASE = 'https://provider.test';
export const PROXY = 'https://site.test/api/provider';

/**
 * The tool over the in-memory provider through the real client (component tests). Expects fake
 * timers; user-event advances them by its delays (kb-import-tool.test.tsx runs on them alone).
 */
export function renderTool(
  options: {
    serverHoldsPrivateKey?: boolean;
    storage?: ReturnType<typeof memoryStorage>;
    /** A provider filled beforehand (what other browsers made). */
    provider?: ReturnType<typeof createFakeProvider>;
  } = {},
) {
  const provider = options.provider ?? createFakeProvider({ processingMs: 2_000 });
  const server = options.serverHoldsPrivateKey ?? false;
  const net = providerFetch(provider.api, server ? PROXY : BASE);
  const storage = options.storage ?? memoryStorage();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms), applyAccept: false });
  const view = render(
    <QueryClientProvider client={client}>
      <KbImportTool
        providerName="Vapi"
        providerBaseUrl={BASE}
        proxyBaseUrl={PROXY}
        serverHoldsPrivateKey={server}
        getAccessToken={async () => 'user-access-token'}
        storage={storage}
        fetch={net.fetch}
      />
    </QueryClientProvider>,
  );
  return { provider, net, storage, user, view };
}

export const tick = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

export async function typeKey(user: ReturnType<typeof userEvent.setup>, key = 'sk-private') {
  await user.type(screen.getByLabelText('Private API key'), key);
  // The key is used once it has settled (1000 ms after the last keystroke).
  await tick(1_000);
}

export async function chooseFiles(user: ReturnType<typeof userEvent.setup>, files: File[]) {
  await user.click(screen.getByRole('tab', { name: 'Files' }));
  // The drop zone is a real file input, reachable by keyboard and labelled 'Choose files'.
  await user.upload(screen.getByLabelText('Choose files'), files);
}

/** The hooks of every tool test file: Testing Library on the fake clock alone, and jsdom's gaps filled. */
export function withToolTestHooks(): void {
  beforeAll(() => {
    // Testing Library advances fake timers while it waits (findBy…, user-event) when it sees a `jest`
    // global; Vitest's clock stands in, so waiting moves the fake clock instead of the wall clock.
    (globalThis as { jest?: unknown }).jest = {
      advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms),
    };
    // jsdom lacks what Radix Select uses for pointer handling and scrolling.
    Element.prototype.hasPointerCapture ??= () => false;
    Element.prototype.releasePointerCapture ??= () => undefined;
    Element.prototype.scrollIntoView ??= () => undefined;
  });

  beforeEach(() => {
    // The fake clock alone: time moves only when a test (or Testing Library's waiting) advances it.
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}
