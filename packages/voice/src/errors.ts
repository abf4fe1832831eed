import type { SerializedError } from './types.js';

/**
 * An error as a plain object whose fields survive JSON.stringify (Error's own fields are not
 * enumerable). `message` is always a string, whatever was thrown.
 */
export function serializeError(error: unknown): SerializedError {
  if (error instanceof Error || isErrorLike(error)) {
    const out: SerializedError = { message: error.message, name: error.name };
    if (error.stack) out.stack = error.stack;
    const extra = error as Error & Record<string, unknown>;
    for (const key of ['code', 'status', 'statusText', 'body', 'reason', 'details', 'errorMsg'] as const) {
      if (extra[key] !== undefined) out[key] = extra[key];
    }
    if (error.cause !== undefined) out.cause = String(error.cause);
    return out;
  }
  if (typeof error === 'string') return { message: error };
  if (typeof error === 'object' && error !== null) {
    const fields = error as Record<string, unknown>;
    return { ...fields, message: messageOf(fields) };
  }
  return { message: error === undefined || error === null ? 'Unknown error' : String(error) };
}

/** DOMException and errors from other realms are not `instanceof Error` everywhere. */
function isErrorLike(error: unknown): error is Error {
  if (typeof error !== 'object' || error === null) return false;
  const { name, message } = error as { name?: unknown; message?: unknown };
  return (
    typeof name === 'string' &&
    typeof message === 'string' &&
    (typeof DOMException === 'undefined' || error instanceof DOMException || 'stack' in error)
  );
}

/** A readable message for anything thrown. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null) {
    const { message, errorMsg, error: inner } = error as Record<string, unknown>;
    if (typeof message === 'string' && message) return message;
    if (typeof errorMsg === 'string' && errorMsg) return errorMsg;
    if (typeof errorMsg === 'object' && errorMsg !== null) return messageOf(errorMsg);
    if (typeof inner === 'string' && inner) return inner;
    try {
      return JSON.stringify(error);
    } catch {
      return 'Unknown error';
    }
  }
  return error === undefined || error === null ? 'Unknown error' : String(error);
}

/**
 * Aborts the start routine: `byUser` when the app called stop() or end() (a cancellation, not an
 * error), otherwise because the room ended or failed while connecting (a failure).
 */
export class StartCancelledError extends Error {
  readonly byUser: boolean;
  constructor(reason: string, options: { byUser: boolean }) {
    super(reason);
    this.name = 'StartCancelledError';
    this.byUser = options.byUser;
  }
}

/**
 * A method called in a state that does not allow it: no call (or the call has ended), or a call
 * already running. A misuse by the app, like {@link VoiceValidationError} for bad arguments:
 * nothing was sent or changed. A failure of the call itself (the provider, the network, the room)
 * is any other error, or an `error` / `call-start-failed` event.
 */
export class VoiceStateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VoiceStateError';
  }
}

/** @vapi-ai/web's message for a method that needs a call; kept so code matching on it still works. */
export const NO_CALL = 'Call object is not available.';
