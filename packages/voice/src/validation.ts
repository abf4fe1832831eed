/**
 * The web-call input rules that the SDK checks itself, as pure functions.
 * Each returns null when the input is acceptable, else one readable sentence naming the argument;
 * callers throw {@link VoiceValidationError} with it before changing anything.
 * @module
 */

/** Bad input to an SDK method. Nothing was changed or sent. */
export class VoiceValidationError extends TypeError {
  constructor(message: string) {
    super(message);
    this.name = 'VoiceValidationError';
  }
}

/** Throws a {@link VoiceValidationError} with a check's sentence. */
export function failValidation(message: string): never {
  throw new VoiceValidationError(message);
}

export const USER_DATA_MAX_CHARS = 4096;
export const AUDIO_LEVEL_INTERVAL_MIN_MS = 100;
export const CUSTOM_TRACK_NAME_MAX_CHARS = 50;
export const RESERVED_TRACK_NAMES: readonly string[] = [
  'cam-audio',
  'cam-video',
  'screen-video',
  'screen-audio',
  'rmpAudio',
  'rmpVideo',
  'customVideoDefaults',
];
export const RECORDING_TYPES = ['cloud', 'raw-tracks', 'local'] as const;

const describe = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'an array'
      : typeof value === 'string'
        ? `'${value}'`
        : typeof value;

/** userData must serialise to JSON, at most 4096 characters. */
export function checkUserData(data: unknown): string | null {
  let json: string | undefined;
  try {
    json = JSON.stringify(data);
  } catch (error) {
    return `userData must be serialisable to JSON (${error instanceof Error ? error.message : String(error)}).`;
  }
  if (json === undefined) return `userData must be serialisable to JSON, got ${describe(data)}.`;
  if (json.length > USER_DATA_MAX_CHARS) {
    return `userData is ${json.length} characters as JSON; the limit is ${USER_DATA_MAX_CHARS}.`;
  }
  return null;
}

/** An audio-level observer interval: omitted, or a number of at least 100 ms. */
export function checkAudioLevelInterval(interval: unknown): string | null {
  if (interval === undefined) return null;
  if (typeof interval !== 'number' || !Number.isFinite(interval)) {
    return `The audio level observer interval must be a number of milliseconds, got ${describe(interval)}.`;
  }
  if (interval < AUDIO_LEVEL_INTERVAL_MIN_MS) {
    return `The audio level observer interval must be at least ${AUDIO_LEVEL_INTERVAL_MIN_MS} ms, got ${interval}.`;
  }
  return null;
}

/** True for a MediaStreamTrack (or, where the class is missing, an object that looks like one). */
export function isMediaTrack(value: unknown): value is MediaStreamTrack {
  if (typeof MediaStreamTrack !== 'undefined' && value instanceof MediaStreamTrack) return true;
  if (typeof value !== 'object' || value === null) return false;
  const track = value as { kind?: unknown; stop?: unknown };
  return (track.kind === 'audio' || track.kind === 'video') && typeof track.stop === 'function';
}

/** A custom track: a media track, a name of at most 50 characters that is not reserved, a known mode. */
export function checkCustomTrack(options: unknown): string | null {
  if (typeof options !== 'object' || options === null) return 'startCustomTrack needs an options object.';
  const { track, trackName, mode } = options as { track?: unknown; trackName?: unknown; mode?: unknown };
  if (!isMediaTrack(track)) return 'The custom track must be a MediaStreamTrack.';
  if (trackName !== undefined) {
    if (typeof trackName !== 'string' || trackName.length === 0)
      return 'trackName must be a non-empty string.';
    if (trackName.length > CUSTOM_TRACK_NAME_MAX_CHARS) {
      return `trackName must be at most ${CUSTOM_TRACK_NAME_MAX_CHARS} characters, got ${trackName.length}.`;
    }
    if (RESERVED_TRACK_NAMES.includes(trackName)) {
      return `trackName '${trackName}' is reserved (${RESERVED_TRACK_NAMES.join(', ')}).`;
    }
  }
  if (mode !== undefined && mode !== 'music' && mode !== 'speech') {
    if (typeof mode !== 'object' || mode === null || Array.isArray(mode)) {
      return `mode must be 'music', 'speech' or an object, got ${describe(mode)}.`;
    }
  }
  return null;
}

/** A recording type, when given: cloud, raw-tracks or local. */
export function checkRecordingType(type: unknown): string | null {
  if (type === undefined) return null;
  if (typeof type === 'string' && (RECORDING_TYPES as readonly string[]).includes(type)) return null;
  return `The recording type must be one of ${RECORDING_TYPES.join(', ')}, got ${describe(type)}.`;
}

/** say(message, endCallAfterSpoken?, interruptionsEnabled?, interruptAssistantEnabled?). */
export function checkSay(
  message: unknown,
  endCallAfterSpoken: unknown,
  interruptionsEnabled: unknown,
  interruptAssistantEnabled: unknown,
): string | null {
  if (typeof message !== 'string' || message.trim() === '') {
    return `say() needs a non-empty message string, got ${describe(message)}.`;
  }
  const flags = { endCallAfterSpoken, interruptionsEnabled, interruptAssistantEnabled };
  for (const [name, value] of Object.entries(flags)) {
    if (value !== undefined && typeof value !== 'boolean') {
      return `say(): ${name} must be true or false, got ${describe(value)}.`;
    }
  }
  return null;
}

/** send(message): a plain object with a string `type`, serialisable to JSON. */
export function checkMessage(message: unknown): string | null {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    return `send() needs a message object such as { type: 'add-message', ... }, got ${describe(message)}.`;
  }
  const { type } = message as { type?: unknown };
  if (typeof type !== 'string' || type === '') return 'send(): the message needs a string `type`.';
  try {
    JSON.stringify(message);
  } catch (error) {
    return `send(): the message must be serialisable to JSON (${error instanceof Error ? error.message : String(error)}).`;
  }
  return null;
}

/** increaseMicLevel(gain): a positive finite number. */
export function checkGain(gain: unknown): string | null {
  if (typeof gain !== 'number' || !Number.isFinite(gain) || gain <= 0) {
    return `increaseMicLevel() needs a positive gain, got ${describe(gain)}.`;
  }
  return null;
}

/** The start() arguments: an assistant, squad or workflow is required. */
export const MISSING_TARGET = 'Assistant or Squad or Workflow must be provided.';
