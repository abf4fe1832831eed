import { afterEach, describe, expect, it, vi } from 'vitest';
import { TypedEmitter } from './events.js';

type Events = { ping: [n: number]; error: [e: { type: string }] };

afterEach(() => vi.restoreAllMocks());

describe('TypedEmitter', () => {
  it('on/once/off/removeListener/removeAllListeners behave like Node', () => {
    const e = new TypedEmitter<Events>();
    const seen: string[] = [];
    const a = (n: number) => seen.push(`a${n}`);
    const b = (n: number) => seen.push(`b${n}`);
    e.on('ping', a).once('ping', b);
    e.emit('ping', 1);
    e.emit('ping', 2);
    e.removeListener('ping', a);
    e.emit('ping', 3);
    expect(seen).toEqual(['a1', 'b1', 'a2']);
    e.on('ping', a).on('ping', b);
    e.off('ping', b);
    expect(e.listenerCount('ping')).toBe(1);
    e.removeAllListeners();
    expect(e.emit('ping', 4)).toBe(false);
  });

  it('emitting error with no listener does not throw', () => {
    const e = new TypedEmitter<Events>();
    expect(() => e.emit('error', { type: 'x' })).not.toThrow();
  });

  it('a throwing listener is reported and the others still run', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const e = new TypedEmitter<Events>();
    const after = vi.fn();
    e.on('ping', () => {
      throw new Error('app bug');
    });
    e.on('ping', after);
    expect(() => e.emit('ping', 1)).not.toThrow();
    expect(after).toHaveBeenCalledWith(1);
    expect(error).toHaveBeenCalledTimes(1);
  });

  it('warns once (never throws) above 10 listeners; setMaxListeners changes the limit', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const e = new TypedEmitter<Events>();
    expect(e.getMaxListeners()).toBe(10);
    for (let i = 0; i < 12; i++) e.on('ping', () => {});
    expect(e.listenerCount('ping')).toBe(12);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toContain('possible listener leak');
    const quiet = new TypedEmitter<Events>().setMaxListeners(0);
    for (let i = 0; i < 20; i++) quiet.on('ping', () => {});
    expect(warn).toHaveBeenCalledTimes(1);
    expect(() => quiet.setMaxListeners(-1)).toThrow(RangeError);
  });

  it('rejects a listener that is not a function', () => {
    const e = new TypedEmitter<Events>();
    expect(() => e.on('ping', 'nope' as unknown as () => void)).toThrow(TypeError);
  });
});
