import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SpeechDetector, volumeOf } from './speech-detector.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function detector() {
  const events: string[] = [];
  const volumes: number[] = [];
  const d = new SpeechDetector({
    volume: (v) => volumes.push(v),
    speechStart: () => events.push('start'),
    speechEnd: () => events.push('end'),
  });
  return { d, events, volumes };
}

describe('SpeechDetector', () => {
  it('reports min(1, sum / 0.15) for every sample', () => {
    const { d, volumes } = detector();
    d.update({ a: 0.03 });
    d.update({ a: 0.1, b: 0.1 });
    d.update({});
    expect(volumes).toEqual([0.03 / 0.15, 1, 0]);
    expect(volumeOf(-1)).toBe(0);
  });

  it('starts above 0.01 (not at it) and ends 1000 ms after the last loud sample', () => {
    const { d, events } = detector();
    d.update({ a: 0.01 });
    expect(events).toEqual([]);
    d.update({ a: 0.006, b: 0.006 });
    expect(events).toEqual(['start']);
    vi.advanceTimersByTime(600);
    d.update({ a: 0.5 }); // still talking: the end moves
    vi.advanceTimersByTime(999);
    expect(events).toEqual(['start']);
    vi.advanceTimersByTime(1);
    expect(events).toEqual(['start', 'end']);
    expect(d.speaking).toBe(false);
  });

  it('dispose() clears the pending end, so nothing fires afterwards', () => {
    const { d, events } = detector();
    d.update({ a: 0.5 });
    d.dispose();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(5000);
    d.update({ a: 0.5 });
    expect(events).toEqual(['start']);
  });
});
