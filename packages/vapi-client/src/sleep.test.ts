import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sleep } from './index.js';

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

/** Settles `promise` into a readable outcome without awaiting the clock. */
function track(promise: Promise<void>) {
  const outcome: { state: 'pending' | 'resolved' | 'rejected'; error?: unknown } = { state: 'pending' };
  promise.then(
    () => (outcome.state = 'resolved'),
    (error: unknown) => Object.assign(outcome, { state: 'rejected', error }),
  );
  return outcome;
}

describe('sleep', () => {
  it('resolves once the time has passed, not before', async () => {
    const outcome = track(sleep(1000));
    await vi.advanceTimersByTimeAsync(999);
    expect(outcome.state).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome.state).toBe('resolved');
  });

  it("rejects with the signal's reason as soon as it aborts, and clears its timer", async () => {
    const controller = new AbortController();
    const reason = new Error('stop() was called.');
    const waiting = sleep(60_000, controller.signal);
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects with an AbortError when aborted without a reason', async () => {
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('rejects at once for a signal that has already aborted, starting no timer', async () => {
    const reason = new Error('already over');
    await expect(sleep(1000, AbortSignal.abort(reason))).rejects.toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('stops listening to the signal once it has resolved', async () => {
    const controller = new AbortController();
    const remove = vi.spyOn(controller.signal, 'removeEventListener');
    const outcome = track(sleep(10, controller.signal));
    await vi.advanceTimersByTimeAsync(10);
    expect(outcome.state).toBe('resolved');
    expect(remove).toHaveBeenCalledWith('abort', expect.any(Function));
    controller.abort();
    await Promise.resolve();
    expect(outcome.state).toBe('resolved');
  });
});
