import { StrictMode, useEffect } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { getAssistant, type LandingKey } from '@/features/landing/assistants';
import { EngageWidget } from '@/features/voice-widget/components/engage-widget';
import { ISLANDS } from '@/lib/island-names';
import { PublicConfigContext, usePublicConfig, type PublicConfig } from '@/lib/public-config';

// The voice widget on a landing page, as an island: the one file that decides what the widget is
// there (its markup, rendered with the page) and how it comes alive on a static page. The pages
// render <WidgetIsland>; src/app/islands/main.ts calls mountWidgetIsland on the visitor's first input.
// The widget is <engage-widget>, the same element other sites embed.

/** Whose widget: the public page's uses the everyone key, the sign-in-only pages' the members'. */
const audienceOf = (page: LandingKey) => (page === 'index' ? 'public' : 'members');

/** The page's <engage-widget>, for its assistant. */
function PageWidget({ page }: { page: LandingKey }) {
  const assistant = getAssistant(page, usePublicConfig());
  return (
    <EngageWidget assistantId={assistant.id} assistantName={assistant.name} audience={audienceOf(page)} />
  );
}

/** The floating voice widget of a landing page, inside its island's mount point. */
export function WidgetIsland({ page }: { page: LandingKey }) {
  return (
    // The widget places itself (fixed, bottom-left) with the topmost z-index other sites need; here
    // the mount point is a stacking context of its own below the site's dialogs and their dimmed
    // backdrop (z-50), so ENGAGE never shines through them. It has no height: nothing moves.
    <div data-island={ISLANDS.widget} data-page={page} className="relative z-40">
      <PageWidget page={page} />
    </div>
  );
}

const isLandingKey = (value: string | undefined): value is LandingKey =>
  value === 'index' || value === 'ediscovery' || value === 'onboarding';

/**
 * Brings a prerendered widget to life on a static page: hydrates it where it stands (its nodes are
 * kept, so a button clicked before is the very button React now handles). Resolves once the first
 * render has committed.
 */
export function mountWidgetIsland(container: HTMLElement, config: PublicConfig): Promise<void> {
  const page = container.dataset.page;
  if (!isLandingKey(page)) return Promise.reject(new Error(`No landing page named "${page}".`));
  return new Promise((resolve) => {
    function Committed() {
      useEffect(resolve, []);
      return null;
    }
    hydrateRoot(
      container,
      <StrictMode>
        <PublicConfigContext.Provider value={config}>
          <PageWidget page={page} />
          <Committed />
        </PublicConfigContext.Provider>
      </StrictMode>,
    );
  });
}
