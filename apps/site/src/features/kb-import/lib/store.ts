import { isVapiApiError, isVapiNetworkError } from '@engage/vapi-client';
import { messages } from './messages';
import { reduce, type Action, type AlertState, type KbImportState, type LogLine } from './reducer';
import { saveKnowledgeBases, saveUploadedFiles, type KeyValueStorage } from './storage';

/**
 * The tool's state with no React: `dispatch` runs the pure reducer, saves what the tool keeps in local
 * storage when it changed, and tells subscribers (React's useSyncExternalStore among them).
 */
export class KbImportStore {
  #state: KbImportState;
  readonly #listeners = new Set<() => void>();
  #logId = 0;

  constructor(
    initial: KbImportState,
    private readonly storage: KeyValueStorage,
    private readonly now: () => number,
  ) {
    this.#state = initial;
    saveUploadedFiles(storage, initial.uploaded);
  }

  getState = (): KbImportState => this.#state;

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  dispatch(action: Action): void {
    const previous = this.#state;
    const next = reduce(previous, action);
    if (next === previous) return;
    this.#state = next;
    if (next.uploaded !== previous.uploaded) saveUploadedFiles(this.storage, next.uploaded);
    if (next.knowledgeBases !== previous.knowledgeBases)
      saveKnowledgeBases(this.storage, next.knowledgeBases);
    for (const listener of this.#listeners) listener();
  }

  record(id: string) {
    return this.#state.uploaded.find((f) => f.id === id);
  }

  // ---- logs, alerts and announcements ----------------------------------------------------------

  log = (message: string, level: LogLine['level'] = 'info'): void => {
    this.dispatch({ type: 'log', line: { id: ++this.#logId, at: this.now(), level, message } });
  };

  alert(variant: AlertState['variant'], message: string): void {
    this.log(message, variant === 'destructive' ? 'error' : 'info');
    this.dispatch({ type: 'alert', alert: { variant, message } });
  }

  announce(message: string): void {
    this.log(message);
    this.dispatch({ type: 'announce', message });
  }
}

/** The message for a failed provider call, 401 being always the key's fault. */
export function describeError(
  error: unknown,
  fallback: (status: number, statusText: string, body: string) => string,
): string {
  if (isVapiApiError(error)) {
    if (error.status === 401) return messages.invalidApiKey;
    return fallback(error.status, error.statusText, error.bodyText);
  }
  if (isVapiNetworkError(error)) return fallback(0, 'Network error', error.message);
  return fallback(0, 'Error', error instanceof Error ? error.message : String(error));
}

/** the '… failed: {statusText}' messages. */
export function failureText(error: unknown, message: (statusText: string) => string): string {
  if (isVapiApiError(error)) return message(error.statusText);
  if (isVapiNetworkError(error)) return message('Network error');
  return message(error instanceof Error ? error.message : 'Error');
}

/**
 * The provider's own reason from an error body: its `message` (a string or a list, as NestJS-style
 * APIs answer), else `error`, else the text itself, capped so an HTML error page stays readable.
 */
export function providerReason(body: string): string {
  const text = body.trim();
  try {
    const parsed = JSON.parse(text) as { message?: unknown; error?: unknown } | null;
    if (parsed && typeof parsed === 'object') {
      const m = parsed.message;
      if (typeof m === 'string' && m.trim()) return cap(m.trim());
      if (Array.isArray(m) && m.length > 0) return cap(m.map(String).join('; '));
      if (typeof parsed.error === 'string' && parsed.error.trim()) return cap(parsed.error.trim());
    }
  } catch {
    // Not JSON: the text is the reason.
  }
  return cap(text);
}

const cap = (s: string) => (s.length > 300 ? `${s.slice(0, 299)}…` : s);
