/**
 * The `Vapi` constructor's options: the official SDK's Daily settings, with the values that break
 * Chrome 140+ replaced (and a warning), and Engage's environment. Nothing here touches a browser
 * global until it is called.
 * @module
 */
import type { DailyFactoryLike } from './rooms/daily.js';
import type { RoomBrowserApis } from './rooms/types.js';
import type { Timers } from './speech-detector.js';

export const DEFAULT_API_BASE_URL = 'https://api.vapi.ai';

/** `dailyCallConfig` (third constructor argument): passed to Daily's `dailyConfig`. */
export interface DailyCallConfig {
  avoidEval?: boolean;
  /** Only `true` is honoured; `false` breaks the permission prompt in Chrome 140+ and is dropped. */
  alwaysIncludeMicInPermissionPrompt?: boolean;
}

/** `dailyCallObject` (fourth constructor argument). */
export interface DailyCallObjectOptions {
  /** true (default device), a device id or a track. `false` is replaced by true (Chrome 140+). */
  audioSource?: boolean | string | MediaStreamTrack;
  startAudioOff?: boolean;
}

/** Engage-only fifth constructor argument: the environment, for tests and unusual hosts. */
export interface VapiOptions {
  /** fetch for the web-call request (default: the global fetch). */
  fetch?: typeof fetch;
  /** A Daily factory to use instead of loading `@daily-co/daily-js` (the test fake). */
  dailyFactory?: DailyFactoryLike;
  /** Mobile detection (default: the user agent). */
  isMobile?: () => boolean;
  /** Timers for speaking detection (default: the global ones). */
  timers?: Timers;
  /** The browser objects a WebSocket call room opens (socket, audio, microphone); Daily ignores them. */
  browserApis?: RoomBrowserApis;
}

/** A copy of `dailyCallConfig` without `alwaysIncludeMicInPermissionPrompt: false`. */
export function normalizeDailyCallConfig(dailyCallConfig?: DailyCallConfig): DailyCallConfig {
  const config = { ...dailyCallConfig };
  if (config.alwaysIncludeMicInPermissionPrompt === false) {
    console.warn('[engage/voice] alwaysIncludeMicInPermissionPrompt: false breaks Chrome 140+; ignored.');
    delete config.alwaysIncludeMicInPermissionPrompt;
  }
  return config;
}

/** A copy of `dailyCallObject` with `audioSource: false` replaced by the default microphone. */
export function normalizeDailyCallObject(dailyCallObject?: DailyCallObjectOptions): DailyCallObjectOptions {
  const callObject = { ...dailyCallObject };
  if (callObject.audioSource === false) {
    console.warn('[engage/voice] audioSource: false breaks Chrome 140+; using the default microphone.');
    callObject.audioSource = true;
  }
  return callObject;
}

const MOBILE_AGENT = /android|iphone|ipad|ipod|iemobile|blackberry|bada/i;

/** The default mobile detection: the user agent, false without a browser. */
export function isMobileBrowser(): boolean {
  return typeof navigator !== 'undefined' && MOBILE_AGENT.test(navigator.userAgent);
}
