import { spaceOut } from '@/lib/letter-spacing';
import type { PublicConfig } from '@/lib/public-config';
// The roles each page lists come from the site's configuration (site.config.json at the repository's
// root), which the server also reads for the assistants' starter documents and the end-to-end specs
// for what the pages must show.
import siteConfig from '../../../../../site.config.json';

const landingRoles = siteConfig.roles;

/** The three landing pages, each with its own assistant. */
export type LandingKey = 'index' | 'ediscovery' | 'onboarding';

/** How a landing page paints its full-screen background. */
export type LandingBackground = { kind: 'class'; className: string } | { kind: 'image'; src: string };

/** An entry of the assistant registry, plus how its page looks. */
export interface AssistantEntry {
  /** The provider's assistant id the page's voice widget calls. */
  id: string;
  name: string;
  /** The page's letter-spaced title, as shown. */
  title: string;
  /** The title as written ('sales engineer'): what assistive technology reads. */
  titleText: string;
  subtitle: string;
  roles: readonly string[];
  pageName: string;
  /** The route module that shows the page. */
  filePath: string;
  background: LandingBackground;
}

/** The assistants the embedded emulator seeds; /config.json may name others. */
export const defaultAssistantIds: Record<LandingKey, string> = {
  index: 'asst_index',
  ediscovery: 'asst_ediscovery',
  onboarding: 'asst_onboarding',
};

const subtitle = 'Click the engage button on the left to start a conversation.';
/** On a phone the button sits at the bottom of the screen, under the text, not beside it. */
export const phoneSubtitle = 'Tap the engage button at the bottom of the screen to start a conversation.';

const entries: Record<LandingKey, (config: PublicConfig) => Omit<AssistantEntry, 'id'>> = {
  index: (config) => ({
    name: 'CTO/CIO Assistant',
    title: spaceOut(config.ownerDomain),
    titleText: config.ownerDomain,
    subtitle,
    roles: landingRoles.index,
    pageName: 'Index',
    filePath: 'apps/site/src/app/routes/home.tsx',
    background: { kind: 'class', className: 'landing-bg-personal' },
  }),
  ediscovery: () => ({
    name: 'Sales Engineer Assistant',
    title: spaceOut('sales engineer'),
    titleText: 'sales engineer',
    subtitle,
    roles: landingRoles.ediscovery,
    pageName: 'EDiscovery',
    filePath: 'apps/site/src/app/routes/ediscovery.tsx',
    background: { kind: 'image', src: '/se.svg' },
  }),
  onboarding: () => ({
    name: 'Project Onboarding Assistant',
    title: spaceOut('case.onboarding'),
    titleText: 'case.onboarding',
    subtitle,
    roles: landingRoles.onboarding,
    pageName: 'Onboarding',
    filePath: 'apps/site/src/app/routes/onboarding.tsx',
    background: { kind: 'image', src: '/onboard.svg' },
  }),
};

/** The registry entry of a landing page, with its assistant id from the public configuration. */
export function getAssistant(key: LandingKey, config: PublicConfig): AssistantEntry {
  const id = config.assistants?.[key]?.trim() || defaultAssistantIds[key];
  return { id, ...entries[key](config) };
}
