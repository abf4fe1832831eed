import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { watchingSession } from '@/lib/engage-api';
import { createProviderApi, type ProviderApi } from '../api/provider-api';
import { API_KEY_SAVE_DELAY_MS, ASSISTANT_SAVE_DELAY_MS } from '../lib/constants';
import { KbImportController } from '../lib/controller';
import { browserOriginals, type OriginalsStore } from '../lib/originals';
import { readString, storageKeys, writeString, type KeyValueStorage } from '../lib/storage';

export interface KbImportEnvironment {
  providerName: string;
  /** The provider's API base URL as the browser should call it (the emulator's when embedded). */
  providerBaseUrl: string;
  /** True when the server holds the private key: requests go to the proxy with the user's token. */
  serverHoldsPrivateKey: boolean;
  /** The proxy's base URL (`${origin}/api/provider`). */
  proxyBaseUrl: string;
  /** The signed-in user's access token, for the proxy. */
  getAccessToken: () => Promise<string | null>;
  storage: KeyValueStorage;
  /** Where originals of failed uploads are kept (default IndexedDB, so they survive a reload). */
  originals?: OriginalsStore;
  fetch?: typeof fetch;
  /**
   * The proxy refused the user's token (401): the session may have ended (account deleted, session
   * revoked), which is not a key problem; the app asks the auth service and signs out if so.
   */
  onSessionRefused?: () => void;
}

/** A value saved to storage `delayMs` after its last change, and on unmount. */
function useDebouncedSetting(storage: KeyValueStorage, key: string, delayMs: number, enabled: boolean) {
  const [value, setValue] = useState(() => (enabled ? readString(storage, key) : ''));
  // The value once it has stopped changing for `delayMs`: what gets saved, and what is safe to use
  // for requests (a key being typed is not sent letter by letter).
  const [settled, setSettled] = useState(value);
  const pending = useRef<string | null>(null);
  useEffect(() => {
    if (!enabled || pending.current === null) return undefined;
    const timer = setTimeout(() => {
      writeString(storage, key, value);
      pending.current = null;
      setSettled(value);
    }, delayMs);
    return () => clearTimeout(timer);
  }, [storage, key, value, delayMs, enabled]);
  useEffect(() => {
    // A reload inside the delay unmounts nothing: the page going away saves the value too.
    const flush = () => {
      if (enabled && pending.current !== null) writeString(storage, key, pending.current);
    };
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, [storage, key, enabled]);
  const update = (next: string) => {
    pending.current = next;
    setValue(next);
  };
  return [value, update, settled] as const;
}

/** The import tool's settings, API and controller state for one mounted tool. */
export function useKbImport(env: KbImportEnvironment) {
  const [apiKey, setApiKey, settledApiKey] = useDebouncedSetting(
    env.storage,
    storageKeys.apiKey,
    API_KEY_SAVE_DELAY_MS,
    !env.serverHoldsPrivateKey,
  );
  const [assistantId, setAssistantId] = useDebouncedSetting(
    env.storage,
    storageKeys.assistantId,
    ASSISTANT_SAVE_DELAY_MS,
    true,
  );
  useEffect(() => {
    // The key is never kept in the browser when the server holds it, even from an earlier visit.
    if (env.serverHoldsPrivateKey) writeString(env.storage, storageKeys.apiKey, '');
  }, [env.serverHoldsPrivateKey, env.storage]);

  const hasKey = env.serverHoldsPrivateKey || apiKey.trim() !== '';
  const refused = env.serverHoldsPrivateKey ? env.onSessionRefused : undefined;
  // 401: the session may have ended; 403 mfa_required: the route guard asks for the code first.
  // (A key typed by the user is its own affair: its 401s are not the session's.)
  const sessionFetch = useMemo(() => watchingSession(env.fetch, refused), [env.fetch, refused]);
  const envRef = useRef({ ...env, fetch: sessionFetch });
  const keyRef = useRef(apiKey);
  useEffect(() => {
    envRef.current = { ...env, fetch: sessionFetch };
    keyRef.current = apiKey;
  });

  const [controller] = useState(() => {
    const proxied = (): ProviderApi =>
      createProviderApi({
        baseUrl: envRef.current.serverHoldsPrivateKey
          ? envRef.current.proxyBaseUrl
          : envRef.current.providerBaseUrl,
        getToken: () =>
          envRef.current.serverHoldsPrivateKey
            ? envRef.current.getAccessToken()
            : keyRef.current.trim() || null,
        fetch: envRef.current.fetch ?? ((...args) => fetch(...args)),
      });
    return new KbImportController({
      storage: env.storage,
      originals: env.originals ?? browserOriginals(),
      providerName: env.providerName,
      getApi: () => (envRef.current.serverHoldsPrivateKey || keyRef.current.trim() ? proxied() : null),
    });
  });
  useEffect(() => controller.activate(), [controller]);
  const state = useSyncExternalStore(controller.subscribe, controller.getState, controller.getState);
  /** Changes whenever the credentials in use settle on new values; keys the assistants query. */
  const credentialsKey = env.serverHoldsPrivateKey ? 'server' : settledApiKey.trim();
  // On opening, and for each newly settled key: what the provider already holds, from any browser.
  useEffect(() => {
    if (credentialsKey) void controller.open();
  }, [controller, credentialsKey]);
  const providerName = env.providerName;
  return {
    controller,
    state,
    apiKey,
    setApiKey,
    assistantId,
    setAssistantId,
    hasKey,
    credentialsKey,
    providerName,
  };
}

/** What the tool's tabs get: the hook's settings, API and controller state. */
export type KbImport = ReturnType<typeof useKbImport>;
