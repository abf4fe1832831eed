import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { memoryStorage, storageKeys } from '../lib/storage';
import { useKbImport, type KbImportEnvironment } from './use-kb-import';

const env = (
  storage: ReturnType<typeof memoryStorage>,
  serverHoldsPrivateKey = false,
): KbImportEnvironment => ({
  providerName: 'Vapi',
  providerBaseUrl: 'https://provider.test',
  proxyBaseUrl: 'https://site.test/api/provider',
  serverHoldsPrivateKey,
  getAccessToken: async () => 'token',
  storage,
  fetch: async () => new Response('[]', { headers: { 'Content-Type': 'application/json' } }),
});

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('useKbImport settings', () => {
  it('saves the API key 1000 ms after its last change', () => {
    const storage = memoryStorage();
    const { result } = renderHook(() => useKbImport(env(storage)));
    act(() => result.current.setApiKey('sk-1'));
    act(() => vi.advanceTimersByTime(600));
    act(() => result.current.setApiKey('sk-12'));
    act(() => vi.advanceTimersByTime(999));
    expect(storage.getItem(storageKeys.apiKey)).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(storage.getItem(storageKeys.apiKey)).toBe('sk-12');
    expect(result.current.hasKey).toBe(true);
  });

  it('saves the assistant id 500 ms after its change, and flushes a pending save on unmount', () => {
    const storage = memoryStorage();
    const { result, unmount } = renderHook(() => useKbImport(env(storage)));
    act(() => result.current.setAssistantId('asst-1'));
    act(() => vi.advanceTimersByTime(499));
    expect(storage.getItem(storageKeys.assistantId)).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(storage.getItem(storageKeys.assistantId)).toBe('asst-1');
    act(() => result.current.setAssistantId('asst-2'));
    unmount();
    expect(storage.getItem(storageKeys.assistantId)).toBe('asst-2');
  });

  it('restores saved settings, and never keeps a key when the server holds it', () => {
    const storage = memoryStorage({ [storageKeys.apiKey]: 'sk-saved', [storageKeys.assistantId]: 'asst-9' });
    const { result } = renderHook(() => useKbImport(env(storage)));
    expect(result.current.apiKey).toBe('sk-saved');
    expect(result.current.assistantId).toBe('asst-9');
    const server = renderHook(() => useKbImport(env(storage, true)));
    expect(server.result.current.apiKey).toBe('');
    expect(server.result.current.hasKey).toBe(true);
    expect(storage.getItem(storageKeys.apiKey)).toBeNull();
  });
});
