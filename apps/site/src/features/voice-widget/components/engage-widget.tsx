import { useEffect, useRef } from 'react';
import { usePublicConfig } from '@/lib/public-config';
import { defineEngageWidget } from '../embed/element';
import type { EmbedProvider } from '../embed/embed-config';
import { declarativeShadowRoot } from '../embed/idle';
import { useMembersPublicKey } from '../hooks/use-members-key';

export interface EngageWidgetProps {
  assistantId: string;
  assistantName: string;
  /** 'members': the sign-in-only pages, whose key /config.json gives only with a session. */
  audience?: 'public' | 'members';
}

type EngageWidgetElement = HTMLElement & { provider?: EmbedProvider };

/**
 * Engage's own pages use the same <engage-widget> element as any other site: prerendered with its
 * idle state as a declarative shadow root (shown before any script runs), defined once the page's
 * script runs, and given the provider as the app already knows it (no second /config.json).
 */
export function EngageWidget({ assistantId, assistantName, audience = 'public' }: EngageWidgetProps) {
  const { provider, answerByMail, conversations } = usePublicConfig();
  const membersKey = useMembersPublicKey(audience === 'members');
  const publicKey = audience === 'members' ? membersKey : provider.publicKey;
  const element = useRef<EngageWidgetElement>(null);

  useEffect(() => {
    defineEngageWidget({ origin: window.location.origin, loadApp: () => import('../embed/widget-app') });
  }, []);
  useEffect(() => {
    if (element.current)
      element.current.provider = {
        publicKey,
        apiBaseUrl: provider.baseUrl ?? `${window.location.origin}/provider`,
        ...(answerByMail && {
          answerByMail: {
            origin: window.location.origin,
            keepDays: answerByMail.keepDays,
            ...(conversations && { phrases: conversations.unansweredPhrases }),
          },
        }),
      };
  }, [publicKey, provider.baseUrl, answerByMail, conversations]);

  return (
    <engage-widget
      ref={element}
      assistant={assistantId}
      name={assistantName}
      // The parser turns this into the element's shadow root; React leaves it alone afterwards.
      dangerouslySetInnerHTML={{
        __html: declarativeShadowRoot({ name: assistantName, mode: 'voice+chat', position: 'bottom-left' }),
      }}
    />
  );
}
