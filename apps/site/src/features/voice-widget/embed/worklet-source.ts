// Build-time only (scripts/build-embed.mjs): the capture worklet's source, written out as a file.
export { CAPTURE_WORKLET_SOURCE as default } from '@engage/voice/capture-worklet';
