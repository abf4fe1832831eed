import { usePublicConfig } from '@/lib/public-config';
import { useMembersPublicKey } from '../hooks/use-members-key';
import type { LoadVoiceSdk } from '../lib/voice-client';
import { VoiceWidgetView } from './voice-widget-view';

export interface VoiceWidgetProps {
  /** The provider assistant this page talks to. */
  assistantId: string;
  /** The assistant's name, for the widget's accessible label. */
  assistantName: string;
  /**
   * Whose page it is: 'public' uses the everyone key; 'members' (the sign-in-only pages) the members'
   * key, which the provider restricts to their assistants and /config.json gives only with a session.
   */
  audience?: 'public' | 'members';
  /** Loads the SDK; tests pass a fake. */
  loadSdk?: LoadVoiceSdk;
}

/**
 * The voice widget inside Engage's React app, with the app's configuration and session: it picks
 * the public key for the page's audience and renders {@link VoiceWidgetView}, which the
 * <engage-widget> element (../embed) renders too.
 */
export function VoiceWidget({ assistantId, assistantName, audience = 'public', loadSdk }: VoiceWidgetProps) {
  const { provider } = usePublicConfig();
  const membersKey = useMembersPublicKey(audience === 'members');
  const publicKey = audience === 'members' ? membersKey : provider.publicKey;
  // Read in the browser only: the page is also prerendered (scripts/prerender.mjs), with no window.
  const apiBaseUrl =
    provider.baseUrl ?? (typeof window === 'undefined' ? '/provider' : `${window.location.origin}/provider`);
  return (
    <VoiceWidgetView
      assistantId={assistantId}
      assistantName={assistantName}
      publicKey={publicKey}
      apiBaseUrl={apiBaseUrl}
      {...(loadSdk && { loadSdk })}
    />
  );
}
