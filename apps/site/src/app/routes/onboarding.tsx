import { WidgetIsland } from '@/app/islands/widget-island';
import { getAssistant } from '@/features/landing/assistants';
import { LandingPage } from '@/features/landing/components/landing-page';
import { usePublicConfig } from '@/lib/public-config';

/** The onboarding landing page with its floating voice widget. */
export function Component() {
  const assistant = getAssistant('onboarding', usePublicConfig());
  return (
    <>
      <LandingPage assistant={assistant} />
      <WidgetIsland page="onboarding" />
    </>
  );
}
