import { describe, expect, it } from 'vitest';
import {
  initialWidgetState,
  isFatalError,
  microphoneProblem,
  noticeMessage,
  widgetReducer,
  type WidgetAction,
  type WidgetState,
} from './widget-state';

const run = (...actions: WidgetAction[]): WidgetState => actions.reduce(widgetReducer, initialWidgetState);

describe('widget state machine', () => {
  it('goes idle → connecting → in call → idle', () => {
    expect(run({ type: 'engage' })).toEqual({ status: 'connecting' });
    expect(run({ type: 'engage' }, { type: 'call-start' })).toEqual({
      status: 'in-call',
      speaking: false,
      volume: 0,
      muted: false,
    });
    expect(run({ type: 'engage' }, { type: 'call-start' }, { type: 'call-end' })).toEqual({
      status: 'idle',
      notice: { kind: 'ended' },
    });
  });

  it('engages only from idle', () => {
    const connecting = run({ type: 'engage' });
    expect(widgetReducer(connecting, { type: 'engage' })).toBe(connecting);
    const inCall = run({ type: 'engage' }, { type: 'call-start' });
    expect(widgetReducer(inCall, { type: 'engage' })).toBe(inCall);
  });

  it('ignores call events that do not fit the state', () => {
    expect(run({ type: 'call-start' })).toEqual(initialWidgetState);
    expect(run({ type: 'speech', speaking: true })).toEqual(initialWidgetState);
    expect(run({ type: 'volume', level: 0.5 })).toEqual(initialWidgetState);
    expect(run({ type: 'call-end' })).toEqual(initialWidgetState);
  });

  it('tracks speaking, a clamped volume level and mute during a call', () => {
    const state = run(
      { type: 'engage' },
      { type: 'call-start' },
      { type: 'speech', speaking: true },
      { type: 'volume', level: 3 },
      { type: 'muted', muted: true },
    );
    expect(state).toEqual({ status: 'in-call', speaking: true, volume: 1, muted: true });
    expect(widgetReducer(state, { type: 'volume', level: Number.NaN })).toMatchObject({ volume: 0 });
    expect(widgetReducer(state, { type: 'speech', speaking: false })).toMatchObject({ speaking: false });
  });

  it('returns to idle with a message on any failure', () => {
    expect(run({ type: 'engage' }, { type: 'failed' })).toEqual({
      status: 'idle',
      notice: { kind: 'failed', reason: 'start' },
    });
    expect(run({ type: 'engage' }, { type: 'call-start' }, { type: 'failed' })).toEqual({
      status: 'idle',
      notice: { kind: 'failed', reason: 'dropped' },
    });
    expect(run({ type: 'engage' }, { type: 'failed', reason: 'load' })).toMatchObject({
      notice: { kind: 'failed', reason: 'load' },
    });
  });

  it('lets a microphone problem replace a generic failure of the same attempt, not the reverse', () => {
    expect(
      run({ type: 'engage' }, { type: 'failed' }, { type: 'microphone-failed', problem: 'denied' }),
    ).toEqual({
      status: 'idle',
      notice: { kind: 'microphone', problem: 'denied' },
    });
    expect(
      run({ type: 'engage' }, { type: 'microphone-failed', problem: 'denied' }, { type: 'failed' }),
    ).toEqual({
      status: 'idle',
      notice: { kind: 'microphone', problem: 'denied' },
    });
  });

  it('hang-up ends the call and dismiss clears a message', () => {
    expect(run({ type: 'engage' }, { type: 'call-start' }, { type: 'hang-up' })).toEqual({
      status: 'idle',
      notice: { kind: 'ended' },
    });
    expect(run({ type: 'engage' }, { type: 'failed' }, { type: 'dismiss' })).toEqual(initialWidgetState);
  });
});

describe('microphoneProblem', () => {
  it.each([
    [{ type: 'permissions', msg: 'Permission denied' }, 'denied'],
    [{ error: { type: 'permissions' } }, 'denied'],
    [{ errorMsg: { errorMsg: 'x' }, error: { type: 'not-found' } }, 'missing'],
    [{ error: { type: 'mic-in-use' } }, 'in-use'],
    [new DOMException('Permission denied', 'NotAllowedError'), 'denied'],
    [new DOMException('Requested device not found', 'NotFoundError'), 'missing'],
    [{ stage: 'daily-call-join', error: 'NotReadableError: Could not start audio source' }, 'in-use'],
    [{ type: 'start-method-error', error: 'Request failed with status 500' }, null],
    ['Network error', null],
    [undefined, null],
  ] as const)('reads %j as %s', (payload, expected) => {
    expect(microphoneProblem(payload)).toBe(expected);
  });
});

describe('isFatalError', () => {
  it('keeps the call on errors the SDK only reports', () => {
    expect(isFatalError({ type: 'audio-observer-setup-error' })).toBe(false);
    expect(isFatalError({ type: 'daily-error' })).toBe(true);
    expect(isFatalError('boom')).toBe(true);
  });
});

describe('noticeMessage', () => {
  it('tells the visitor how to unblock the microphone', () => {
    expect(noticeMessage({ kind: 'microphone', problem: 'denied' })).toMatch(/allow the microphone/i);
    expect(noticeMessage({ kind: 'failed', reason: 'start' })).toMatch(/could not be started/);
  });
});
