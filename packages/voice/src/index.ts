/**
 * @engage/voice: a drop-in for `@vapi-ai/web` without its known defects.
 *
 * Importing this module has no side effects and touches no browser global, so it is safe in Node
 * and server-side rendering; Daily's code loads on the first `start()`.
 * @example
 * import Vapi from '@engage/voice';
 * const vapi = new Vapi(publicKey);
 * await vapi.start(assistantId);
 * @module
 */
import { Vapi } from './client.js';

export default Vapi;
export { Vapi };
export {
  DEFAULT_API_BASE_URL,
  type DailyCallConfig,
  type DailyCallObjectOptions,
  type VapiOptions,
} from './client-options.js';
export { VoiceValidationError } from './validation.js';
export { VoiceStateError } from './errors.js';
export { VapiApiError, VapiNetworkError, type WebCall } from './api.js';
export { START_STAGES } from './types.js';
/** The capture worklet's source, for a site that serves it as a file (RoomBrowserApis.captureWorkletUrl). */
export type * from './types.js';
export type {
  Room,
  RoomEventMap,
  RoomEventName,
  RoomModule,
  RoomOptions,
  RoomJoinOptions,
  RoomParticipant,
  CreateRoom,
} from './rooms/types.js';
