import { getAssistant } from '@/features/landing/assistants';
import { LandingPage } from '@/features/landing/components/landing-page';
import { EngageWidgetMount } from '@/features/voice-widget/components/engage-widget-mount';
import { usePublicConfig } from '@/lib/public-config';

/** The onboarding landing page (SPEC §2) with its floating voice widget. */
export function Component() {
  const assistant = getAssistant('onboarding', usePublicConfig());
  return (
    <>
      <LandingPage assistant={assistant} />
      <EngageWidgetMount assistantId={assistant.id} assistantName={assistant.name} audience="members" />
    </>
  );
}
