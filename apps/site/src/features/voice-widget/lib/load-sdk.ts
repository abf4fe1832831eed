import type { CreateVoiceClient, LoadVoiceSdk } from './voice-client';

/**
 * Loads the voice SDK on demand. The dynamic import puts `@engage/voice` (and the call library it
 * loads on its first start) in a chunk of its own, fetched on the first ENGAGE click: a landing
 * page's initial JavaScript carries neither.
 */
export const loadVoiceSdk: LoadVoiceSdk = async () => {
  const { default: Vapi } = await import('@engage/voice');
  const create: CreateVoiceClient = (publicKey, apiBaseUrl) => new Vapi(publicKey, apiBaseUrl);
  return create;
};
