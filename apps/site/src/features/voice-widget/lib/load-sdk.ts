import type { CreateVoiceClient, LoadVoiceSdk } from './voice-client';

/**
 * Loads the voice SDK on demand. The dynamic import puts `@engage/voice` (and the call library it
 * loads on its first start) in a chunk of its own, fetched on the first ENGAGE click: a landing
 * page's initial JavaScript carries neither. `captureWorkletUrl`: where the microphone's worklet is
 * served, for a page whose CSP allows no Blob-URL script (a site embedding <engage-widget>).
 */
export function voiceSdkLoader(captureWorkletUrl?: string): LoadVoiceSdk {
  return async () => {
    const { default: Vapi } = await import('@engage/voice');
    const options = captureWorkletUrl ? { browserApis: { captureWorkletUrl } } : undefined;
    const create: CreateVoiceClient = (publicKey, apiBaseUrl) =>
      new Vapi(publicKey, apiBaseUrl, undefined, undefined, options);
    return create;
  };
}

export const loadVoiceSdk: LoadVoiceSdk = voiceSdkLoader();
