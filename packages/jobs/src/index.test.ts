import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { schedulePeriodic } from './index.js';

describe('schedulePeriodic', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs at once, then every everyMs', async () => {
    const run = vi.fn(async () => 'done');
    const job = schedulePeriodic({ run, everyMs: 1000, onError: () => undefined });
    await vi.advanceTimersByTimeAsync(0);
    expect(run).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(run).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(3000);
    expect(run).toHaveBeenCalledTimes(5);
    await job.stop();
  });

  it('waits firstDelayMs before the first run', async () => {
    const run = vi.fn(async () => undefined);
    const job = schedulePeriodic({ run, everyMs: 1000, firstDelayMs: 5000, onError: () => undefined });
    await vi.advanceTimersByTimeAsync(4999);
    expect(run).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledTimes(1);
    await job.stop();
  });

  it('never overlaps runs: a tick or a runOnce during a run joins it', async () => {
    let finish: (value: string) => void = () => undefined;
    const run = vi.fn(() => new Promise<string>((resolve) => (finish = resolve)));
    const job = schedulePeriodic({ run, everyMs: 1000, onError: () => undefined });
    await vi.advanceTimersByTimeAsync(5000);
    expect(run).toHaveBeenCalledTimes(1);
    const joined = job.runOnce();
    expect(run).toHaveBeenCalledTimes(1);
    finish('first');
    await expect(joined).resolves.toBe('first');
    await vi.advanceTimersByTimeAsync(1000);
    expect(run).toHaveBeenCalledTimes(2);
    finish('second');
    await job.stop();
  });

  it('reports a failed run and goes on with the schedule', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const run = vi.fn(async () => {
      calls++;
      if (calls === 1) throw new Error('database away');
      return calls;
    });
    const job = schedulePeriodic({ run, everyMs: 1000, onError: (e) => errors.push(e) });
    await vi.advanceTimersByTimeAsync(0);
    expect(errors).toEqual([new Error('database away')]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(run).toHaveBeenCalledTimes(2);
    await expect(job.runOnce()).resolves.toBe(3);
    await job.stop();
  });

  it('stops: no further runs, and stop() waits for the run in flight', async () => {
    let finish: () => void = () => undefined;
    let ended = false;
    const run = vi.fn(
      () =>
        new Promise<void>((resolve) => {
          finish = () => {
            ended = true;
            resolve();
          };
        }),
    );
    const job = schedulePeriodic({ run, everyMs: 1000, onError: () => undefined });
    const stopping = job.stop();
    let stoppedYet = false;
    void stopping.then(() => (stoppedYet = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stoppedYet).toBe(false);
    finish();
    await stopping;
    expect(ended).toBe(true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(run).toHaveBeenCalledTimes(1);
  });
});
