/**
 * Test helpers for the voice SDK and the apps using it: a typed fake of Daily's call object and
 * the DOM stubs jsdom needs for audio playback.
 * @example
 * const daily = new FakeDaily();
 * const vapi = new Vapi('pk', 'http://api.test', undefined, undefined, { dailyFactory: daily, fetch });
 * @module
 */
export {
  FakeDaily,
  FakeDailyCall,
  createFakeTrack,
  createGate,
  type Gate,
  type RecordedCall,
} from './fake-daily.js';
export { audioElements, blockAutoplay, installMediaStubs } from './dom.js';
export { createRoomParticipant } from '../rooms/participant.js';
