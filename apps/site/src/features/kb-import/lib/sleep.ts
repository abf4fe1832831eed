// The workspace's one abortable wait; its abort rejects with the signal's reason, which is an
// AbortError for the controller's reason-less aborts (so isAbortError below still holds).
export { sleep } from '@engage/vapi-client';

export function abortError(): DOMException {
  return new DOMException('The operation was cancelled.', 'AbortError');
}

export function isAbortError(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === 'AbortError';
}
