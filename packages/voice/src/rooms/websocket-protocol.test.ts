// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  closeError,
  closeMessage,
  joinFailureMessage,
  microphoneConstraints,
  microphoneError,
  outgoingMessage,
  parseIncoming,
} from './websocket-protocol.js';
import { isWebSocketUrl } from './websocket-url.js';

describe('the vapi.websocket protocol', () => {
  it('serves ws: and wss: URLs, whatever their case, and nothing else', () => {
    expect(isWebSocketUrl('wss://engage.test/provider/rooms/1')).toBe(true);
    expect(isWebSocketUrl('WS://localhost:8787/r')).toBe(true);
    expect(isWebSocketUrl('https://x.daily.co/r')).toBe(false);
    expect(isWebSocketUrl('see ws://x')).toBe(false);
  });

  it('reads binary frames as audio, {"type":"listening"} as the start, and any other text as a message', () => {
    const pcm = new Int16Array([1, 2]).buffer;
    expect(parseIncoming(pcm)).toEqual({ kind: 'audio', data: pcm });
    expect(parseIncoming('{"type":"listening"}')).toEqual({ kind: 'listening' });
    expect(parseIncoming('{"type":"status-update","status":"in-progress"}')).toEqual({
      kind: 'message',
      data: '{"type":"status-update","status":"in-progress"}',
    });
    expect(parseIncoming('not json')).toEqual({ kind: 'message', data: 'not json' });
    expect(parseIncoming('null')).toEqual({ kind: 'message', data: 'null' });
  });

  it('puts only JSON on the wire: Daily-only strings such as playable are dropped', () => {
    expect(outgoingMessage('{"type":"say","message":"hi"}')).toBe('{"type":"say","message":"hi"}');
    expect(outgoingMessage('playable')).toBeNull();
  });

  it("turns a close frame's {error, message} reason into its message, else the raw reason or the code", () => {
    expect(
      closeMessage({
        code: 1013,
        reason: '{"error":"room_limit","message":"All 50 call rooms are in use."}',
      }),
    ).toBe('All 50 call rooms are in use.');
    expect(closeMessage({ code: 4000, reason: 'plain words' })).toBe('plain words');
    expect(closeMessage({ code: 4000, reason: 'null' })).toBe('null');
    expect(closeMessage({ code: 4001, reason: '' })).toBe('The call connection closed (code 4001).');
  });

  it('explains a join that never connected (1006) apart from one the room refused', () => {
    expect(joinFailureMessage({ code: 1006, reason: '' })).toBe('Could not connect to the call room.');
    expect(
      joinFailureMessage({ code: 4404, reason: '{"error":"call_not_found","message":"No call gone."}' }),
    ).toBe('No call gone.');
  });

  it('treats 1000 and 1001 as a normal end and any other close of a joined call as an error', () => {
    expect(closeError({ code: 1000, reason: 'call ended' })).toBeNull();
    expect(closeError({ code: 1001, reason: '' })).toBeNull();
    expect(closeError({ code: 1011, reason: 'boom' })).toEqual({
      errorMsg: 'boom',
      error: { code: 1011, reason: 'boom' },
    });
  });

  it('asks for a voice-processed mono microphone, on the chosen device when there is one', () => {
    const voice = { echoCancellation: true, noiseSuppression: true, autoGainControl: true, channelCount: 1 };
    expect(microphoneConstraints()).toEqual({ audio: voice });
    expect(microphoneConstraints('mic-2')).toEqual({ audio: { ...voice, deviceId: { exact: 'mic-2' } } });
  });

  it("reports microphone failures in Daily's camera-error shape, by the browser's error name", () => {
    const named = (name: string) => Object.assign(new Error(`${name} happened`), { name });
    expect(microphoneError(named('NotAllowedError'))).toEqual({
      errorMsg: { errorMsg: 'NotAllowedError happened', audioOk: false, videoOk: true },
      error: { type: 'permissions', msg: 'NotAllowedError happened' },
    });
    expect(microphoneError(named('SecurityError')).error.type).toBe('permissions');
    expect(microphoneError(named('NotFoundError')).error.type).toBe('not-found');
    expect(microphoneError(named('OverconstrainedError')).error.type).toBe('not-found');
    expect(microphoneError(named('NotReadableError')).error.type).toBe('cam-mic-in-use');
    expect(microphoneError('odd').error).toEqual({ type: 'unknown', msg: 'odd' });
  });
});
