/**
 * `@engage/voice/capture-worklet`: the microphone's capture worklet as source text, for a site whose
 * CSP does not allow Blob-URL scripts to serve as a file of its own (RoomOptions' captureWorkletUrl).
 * An entry of its own: the SDK a page loads before a call does not carry it.
 * @module
 */
export { CAPTURE_WORKLET_SOURCE } from './rooms/websocket-audio.js';
