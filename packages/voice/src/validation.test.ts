import { describe, expect, it } from 'vitest';
import { createFakeTrack } from './testing/fake-daily.js';
import {
  checkAudioLevelInterval,
  checkCustomTrack,
  checkGain,
  checkMessage,
  checkRecordingType,
  checkSay,
  checkUserData,
} from './validation.js';

describe('web-call rules', () => {
  it('userData: serialisable JSON of at most 4096 characters', () => {
    expect(checkUserData({ name: 'Ada' })).toBeNull();
    expect(checkUserData('x'.repeat(4094))).toBeNull(); // 4096 with the quotes
    expect(checkUserData('x'.repeat(4095))).toBe('userData is 4097 characters as JSON; the limit is 4096.');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(checkUserData(cyclic)).toMatch(/^userData must be serialisable to JSON/);
    expect(checkUserData(() => 1)).toMatch(/^userData must be serialisable to JSON, got function/);
    expect(checkUserData(10n)).toMatch(/serialisable/);
  });

  it('audio-level interval: a number of at least 100 ms', () => {
    expect(checkAudioLevelInterval(undefined)).toBeNull();
    expect(checkAudioLevelInterval(100)).toBeNull();
    expect(checkAudioLevelInterval(99)).toMatch(/at least 100 ms, got 99/);
    expect(checkAudioLevelInterval('200')).toMatch(/must be a number/);
    expect(checkAudioLevelInterval(Number.NaN)).toMatch(/must be a number/);
  });

  it('custom track: a media track, a name of at most 50 characters, not reserved, mode music/speech/object', () => {
    const track = createFakeTrack('audio');
    expect(checkCustomTrack({ track, trackName: 'music-bed', mode: 'music' })).toBeNull();
    expect(checkCustomTrack({ track, mode: { bitrate: 64 } })).toBeNull();
    expect(checkCustomTrack({ track: {} })).toBe('The custom track must be a MediaStreamTrack.');
    expect(checkCustomTrack({ track, trackName: 'x'.repeat(51) })).toMatch(/at most 50 characters, got 51/);
    expect(checkCustomTrack({ track, trackName: 'cam-audio' })).toMatch(/reserved/);
    expect(checkCustomTrack({ track, trackName: 'rmpVideo' })).toMatch(/reserved/);
    expect(checkCustomTrack({ track, mode: 'loud' })).toMatch(/mode must be 'music', 'speech' or an object/);
    expect(checkCustomTrack(null)).toMatch(/options object/);
  });

  it('recording type: cloud, raw-tracks or local', () => {
    for (const type of [undefined, 'cloud', 'raw-tracks', 'local'])
      expect(checkRecordingType(type)).toBeNull();
    expect(checkRecordingType('s3')).toBe(
      "The recording type must be one of cloud, raw-tracks, local, got 's3'.",
    );
  });

  it('say(): a non-empty message and boolean flags', () => {
    expect(checkSay('Hi', undefined, false, false)).toBeNull();
    expect(checkSay('Hi', true, true, true)).toBeNull();
    expect(checkSay('', undefined, false, false)).toMatch(/non-empty message/);
    expect(checkSay(42, undefined, false, false)).toMatch(/non-empty message string, got number/);
    expect(checkSay('Hi', 'yes', false, false)).toBe(
      "say(): endCallAfterSpoken must be true or false, got 'yes'.",
    );
    expect(checkSay('Hi', undefined, 1, false)).toMatch(/interruptionsEnabled/);
  });

  it('send(): an object with a type; gain: positive', () => {
    expect(checkMessage({ type: 'end-call' })).toBeNull();
    expect(checkMessage('end-call')).toMatch(/needs a message object/);
    expect(checkMessage({})).toMatch(/string `type`/);
    expect(checkGain(1.5)).toBeNull();
    expect(checkGain(0)).toMatch(/positive gain/);
  });
});
