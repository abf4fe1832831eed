import { describe, expect, it } from 'vitest';
import {
  initialWidgetState,
  isFatalError,
  isVisibleNotice,
  microphoneProblem,
  noticeMessage,
  offersChat,
  widgetReducer,
  type WidgetAction,
  type WidgetState,
} from './widget-state';

const run = (...actions: WidgetAction[]): WidgetState => actions.reduce(widgetReducer, initialWidgetState);
const start = { type: 'call-start', at: 1_000 } as const;

describe('widget state machine', () => {
  it('goes idle → connecting → in call → idle', () => {
    expect(run({ type: 'engage' })).toEqual({ status: 'connecting' });
    expect(run({ type: 'engage' }, start)).toEqual({
      status: 'in-call',
      speaking: false,
      volume: 0,
      inputLevel: 0,
      muted: false,
      startedAt: 1_000,
    });
    expect(run({ type: 'engage' }, start, { type: 'call-end' })).toEqual({
      status: 'idle',
      notice: { kind: 'ended', by: 'assistant' },
    });
  });

  it('engages only from idle', () => {
    const connecting = run({ type: 'engage' });
    expect(widgetReducer(connecting, { type: 'engage' })).toBe(connecting);
    const inCall = run({ type: 'engage' }, start);
    expect(widgetReducer(inCall, { type: 'engage' })).toBe(inCall);
  });

  it('ignores call events that do not fit the state', () => {
    expect(run(start)).toEqual(initialWidgetState);
    expect(run({ type: 'input-level', level: 0.5 })).toEqual(initialWidgetState);
    expect(run({ type: 'cancel' })).toEqual(initialWidgetState);
    expect(run({ type: 'speech', speaking: true })).toEqual(initialWidgetState);
    expect(run({ type: 'volume', level: 0.5 })).toEqual(initialWidgetState);
    expect(run({ type: 'call-end' })).toEqual(initialWidgetState);
  });

  it('tracks speaking, a clamped volume level and mute during a call', () => {
    const state = run(
      { type: 'engage' },
      start,
      { type: 'speech', speaking: true },
      { type: 'volume', level: 3 },
      { type: 'input-level', level: 0.25 },
      { type: 'muted', muted: true },
    );
    expect(state).toEqual({
      status: 'in-call',
      speaking: true,
      volume: 1,
      inputLevel: 0.25,
      muted: true,
      startedAt: 1_000,
    });
    expect(widgetReducer(state, { type: 'input-level', level: -1 })).toMatchObject({ inputLevel: 0 });
    expect(widgetReducer(state, { type: 'volume', level: Number.NaN })).toMatchObject({ volume: 0 });
    expect(widgetReducer(state, { type: 'speech', speaking: false })).toMatchObject({ speaking: false });
  });

  it('returns to idle with a message on any failure', () => {
    expect(run({ type: 'engage' }, { type: 'failed' })).toEqual({
      status: 'idle',
      notice: { kind: 'failed', reason: 'start' },
    });
    expect(run({ type: 'engage' }, start, { type: 'failed' })).toEqual({
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
    expect(run({ type: 'engage' }, start, { type: 'hang-up' })).toEqual({
      status: 'idle',
      notice: { kind: 'ended', by: 'you' },
    });
    expect(run({ type: 'engage' }, { type: 'failed' }, { type: 'dismiss' })).toEqual(initialWidgetState);
  });

  it('cancels only while connecting, and then ignores the late events of the abandoned attempt', () => {
    const cancelled = run({ type: 'engage' }, { type: 'cancel' });
    expect(cancelled).toEqual({ status: 'idle', notice: { kind: 'cancelled' } });
    expect(widgetReducer(cancelled, { type: 'failed' })).toBe(cancelled);
    expect(widgetReducer(cancelled, { type: 'call-end' })).toBe(cancelled);
    expect(widgetReducer(cancelled, start)).toBe(cancelled);
    const inCall = run({ type: 'engage' }, start);
    expect(widgetReducer(inCall, { type: 'cancel' })).toBe(inCall);
  });

  it('opens the text conversation from idle only, and closes it back to idle', () => {
    const denied = run({ type: 'engage' }, { type: 'microphone-failed', problem: 'denied' });
    const chat = widgetReducer(denied, { type: 'open-chat' });
    expect(chat).toEqual({ status: 'chat', reason: 'microphone-denied' });
    expect(run({ type: 'open-chat' })).toEqual({ status: 'chat', reason: 'chosen' });
    expect(
      run({ type: 'engage' }, { type: 'microphone-failed', problem: 'missing' }, { type: 'open-chat' }),
    ).toEqual({ status: 'chat', reason: 'microphone-missing' });
    expect(widgetReducer(chat, { type: 'engage' })).toBe(chat);
    expect(widgetReducer(chat, { type: 'microphone-failed', problem: 'denied' })).toBe(chat);
    expect(widgetReducer(chat, { type: 'close-chat' })).toEqual(initialWidgetState);
    const connecting = run({ type: 'engage' });
    expect(widgetReducer(connecting, { type: 'open-chat' })).toBe(connecting);
  });
});

describe('notices', () => {
  it('shows a call ended by the assistant or the network, and only announces END and Cancel', () => {
    expect(isVisibleNotice({ kind: 'ended', by: 'assistant' })).toBe(true);
    expect(isVisibleNotice({ kind: 'ended', by: 'you' })).toBe(false);
    expect(isVisibleNotice({ kind: 'cancelled' })).toBe(false);
    expect(isVisibleNotice({ kind: 'failed', reason: 'dropped' })).toBe(true);
    expect(noticeMessage({ kind: 'ended', by: 'assistant' })).toBe('Call ended.');
    expect(noticeMessage({ kind: 'cancelled' })).toBe('Call cancelled.');
  });

  it('offers typing instead when the microphone is denied or missing', () => {
    expect(offersChat({ kind: 'microphone', problem: 'denied' })).toBe(true);
    expect(offersChat({ kind: 'microphone', problem: 'missing' })).toBe(true);
    expect(offersChat({ kind: 'microphone', problem: 'in-use' })).toBe(false);
    expect(offersChat({ kind: 'failed', reason: 'start' })).toBe(false);
    expect(offersChat(null)).toBe(false);
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
