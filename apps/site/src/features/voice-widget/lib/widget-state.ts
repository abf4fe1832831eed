/**
 * The voice widget's state machine: idle → connecting (engage, only from idle) → in call
 * (call-start) → idle (call-end, hang-up or any failure). CONNECTING... can be cancelled; from idle
 * the visitor may type instead (a text chat). Pure, so every transition is unit-tested.
 */

export type MicrophoneProblem = 'denied' | 'missing' | 'in-use' | 'unavailable';
export type FailureReason = 'start' | 'timeout' | 'dropped' | 'load' | 'not-configured';
/** Why the text chat opened: chosen, or no usable microphone (the chat says so). */
export type ChatReason = 'chosen' | 'microphone-denied' | 'microphone-missing';

export type Notice =
  /** The call ended: by the visitor (END), or by the assistant or the network (shown for a while). */
  | { kind: 'ended'; by: 'you' | 'assistant' }
  | { kind: 'cancelled' }
  | { kind: 'microphone'; problem: MicrophoneProblem }
  | { kind: 'failed'; reason: FailureReason };

export type WidgetState =
  | { status: 'idle'; notice: Notice | null }
  | { status: 'connecting' }
  | {
      status: 'in-call';
      speaking: boolean;
      /** The assistant's volume, 0..1 (the wave). */
      volume: number;
      /** The microphone's level, 0..1. */
      inputLevel: number;
      muted: boolean;
      /** When the call started (ms since the epoch), for the call timer. */
      startedAt: number;
    }
  | { status: 'chat'; reason: ChatReason };

export type WidgetAction =
  | { type: 'engage' }
  /** CONNECTING... abandoned by the visitor (Escape or Cancel). */
  | { type: 'cancel' }
  | { type: 'call-start'; at: number }
  | { type: 'speech'; speaking: boolean }
  | { type: 'volume'; level: number }
  | { type: 'input-level'; level: number }
  | { type: 'muted'; muted: boolean }
  /** The call ended without the visitor asking (the assistant or the network ended it). */
  | { type: 'call-end' }
  | { type: 'hang-up' }
  | { type: 'microphone-failed'; problem: MicrophoneProblem }
  /** A failure; `reason` defaults to 'start' while connecting and 'dropped' in a call. */
  | { type: 'failed'; reason?: FailureReason }
  | { type: 'dismiss' }
  /** "Type instead": a text conversation, from idle. */
  | { type: 'open-chat' }
  | { type: 'close-chat' };

/** How long CONNECTING... may last before the attempt is abandoned with a message. */
export const CONNECT_TIMEOUT_MS = 30_000;
/** How long "Call ended" stays on screen after the assistant or the network ended the call. */
export const CALL_ENDED_NOTICE_MS = 5_000;

export const initialWidgetState: WidgetState = { status: 'idle', notice: null };

const clamp01 = (n: number) => (Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0);

export function widgetReducer(state: WidgetState, action: WidgetAction): WidgetState {
  switch (action.type) {
    case 'engage':
      return state.status === 'idle' ? { status: 'connecting' } : state;
    case 'cancel':
      return state.status === 'connecting' ? { status: 'idle', notice: { kind: 'cancelled' } } : state;
    case 'call-start':
      return state.status === 'connecting'
        ? { status: 'in-call', speaking: false, volume: 0, inputLevel: 0, muted: false, startedAt: action.at }
        : state;
    case 'speech':
      return state.status === 'in-call' && state.speaking !== action.speaking
        ? { ...state, speaking: action.speaking }
        : state;
    case 'volume':
      return state.status === 'in-call' ? { ...state, volume: clamp01(action.level) } : state;
    case 'input-level':
      return state.status === 'in-call' ? { ...state, inputLevel: clamp01(action.level) } : state;
    case 'muted':
      return state.status === 'in-call' && state.muted !== action.muted
        ? { ...state, muted: action.muted }
        : state;
    case 'call-end':
      return state.status === 'connecting' || state.status === 'in-call'
        ? { status: 'idle', notice: { kind: 'ended', by: 'assistant' } }
        : state;
    case 'hang-up':
      return state.status === 'connecting' || state.status === 'in-call'
        ? { status: 'idle', notice: { kind: 'ended', by: 'you' } }
        : state;
    case 'microphone-failed':
      // The microphone message says how to fix the problem: it wins over a generic failure that the
      // same attempt may report first (the SDK emits error, camera-error and call-start-failed).
      if (state.status === 'connecting' || state.status === 'in-call' || isFailure(state))
        return { status: 'idle', notice: { kind: 'microphone', problem: action.problem } };
      return state;
    case 'failed':
      if (state.status !== 'connecting' && state.status !== 'in-call') return state;
      return {
        status: 'idle',
        notice: {
          kind: 'failed',
          reason: action.reason ?? (state.status === 'connecting' ? 'start' : 'dropped'),
        },
      };
    case 'dismiss':
      return state.status === 'idle' && state.notice ? { status: 'idle', notice: null } : state;
    case 'open-chat':
      return state.status === 'idle' ? { status: 'chat', reason: chatReason(state.notice) } : state;
    case 'close-chat':
      return state.status === 'chat' ? { status: 'idle', notice: null } : state;
  }
}

const isFailure = (state: WidgetState) => state.status === 'idle' && state.notice?.kind === 'failed';

/**
 * Whether a notice is shown on screen: what went wrong, and a call the visitor did not end. The
 * visitor's own END and Cancel are only announced.
 */
export function isVisibleNotice(notice: Notice): boolean {
  if (notice.kind === 'ended') return notice.by === 'assistant';
  return notice.kind !== 'cancelled';
}

/** Whether the notice offers the text conversation instead (no usable microphone). */
export function offersChat(notice: Notice | null): boolean {
  return chatReason(notice) !== 'chosen';
}

function chatReason(notice: Notice | null): ChatReason {
  if (notice?.kind !== 'microphone') return 'chosen';
  if (notice.problem === 'denied') return 'microphone-denied';
  return notice.problem === 'missing' ? 'microphone-missing' : 'chosen';
}

/** What the visitor reads when something went wrong, and how to fix it. */
export function noticeMessage(notice: Notice): string {
  if (notice.kind === 'ended') return 'Call ended.';
  if (notice.kind === 'cancelled') return 'Call cancelled.';
  if (notice.kind === 'microphone') {
    switch (notice.problem) {
      case 'denied':
        return 'Microphone access is blocked. Allow the microphone for this site in your browser (the icon at the left of the address bar), then press ENGAGE again.';
      case 'missing':
        return 'No microphone was found. Connect a microphone, then press ENGAGE again.';
      case 'in-use':
        return 'Your microphone is in use by another application. Close it, then press ENGAGE again.';
      case 'unavailable':
        return 'The microphone could not be started. Check your browser’s microphone settings, then press ENGAGE again.';
    }
  }
  switch (notice.reason) {
    case 'start':
      return 'The call could not be started. Please try again.';
    case 'dropped':
      return 'The call was interrupted. Press ENGAGE to start again.';
    case 'timeout':
      return 'The assistant did not answer. Please try again in a moment.';
    case 'load':
      return 'The voice assistant could not be loaded. Check your connection and try again.';
    case 'not-configured':
      return 'Voice calls are not configured on this site yet.';
  }
}

const DENIED = /\b(permissions?|NotAllowedError|SecurityError|permission denied|permission dismissed)\b/i;
const MISSING =
  /\b(not-found|NotFoundError|OverconstrainedError|undefined-mediadevices|no microphone|requested device not found)\b/i;
const IN_USE = /\b(mic-in-use|cam-mic-in-use|NotReadableError|device in use|could not start audio source)\b/i;

/** Strings found in an error payload's usual fields (type, name, message, msg, nested error). */
function payloadStrings(payload: unknown, depth = 0): string[] {
  if (typeof payload === 'string') return [payload];
  if (typeof payload !== 'object' || payload === null || depth > 3) return [];
  const record = payload as Record<string, unknown>;
  const out: string[] = [];
  for (const key of ['type', 'name', 'message', 'msg', 'errorMsg', 'error', 'reason'])
    out.push(...payloadStrings(record[key], depth + 1));
  return out;
}

/**
 * Recognises a microphone problem in an SDK event payload: `camera-error` carries Daily's
 * `{ type: 'permissions' | 'not-found' | 'mic-in-use' … }`, local rooms surface getUserMedia's
 * DOMException names (NotAllowedError, NotFoundError, NotReadableError).
 */
export function microphoneProblem(payload: unknown): MicrophoneProblem | null {
  const text = payloadStrings(payload).join(' ');
  if (DENIED.test(text)) return 'denied';
  if (MISSING.test(text)) return 'missing';
  if (IN_USE.test(text)) return 'in-use';
  return null;
}

/** SDK error types that the SDK reports but that do not end a call ("emitted only"). */
const NONFATAL_ERROR_TYPES = new Set([
  'video-recording-setup-error',
  'audio-observer-setup-error',
  'audio-processing-setup-error',
  'audio-processor-recovery-error',
  'recording-error',
]);

export function isFatalError(payload: unknown): boolean {
  const type =
    typeof payload === 'object' && payload !== null ? (payload as { type?: unknown }).type : undefined;
  return !(typeof type === 'string' && NONFATAL_ERROR_TYPES.has(type));
}
