import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, vi } from 'vitest';
import { PublicConfigContext, type PublicConfig } from '@/lib/public-config';
import type { LoadVoiceSdk } from '../lib/voice-client';
import { createFakeSdk } from '../testing/fake-voice-client';
import { widgetTestConfig } from '../testing/public-config';
import { VoiceWidget } from './voice-widget';

// Shared setup of voice-widget.test.tsx and voice-widget.errors.test.tsx: the widget (no StrictMode)
// over the fake SDK client, with an optional SDK loader and public config.

export const baseConfig: PublicConfig = widgetTestConfig;

export function renderWidget(options: { loadSdk?: LoadVoiceSdk; config?: PublicConfig } = {}) {
  const sdk = createFakeSdk();
  const user = userEvent.setup();
  const view = render(
    <PublicConfigContext.Provider value={options.config ?? baseConfig}>
      <button type="button">elsewhere</button>
      <VoiceWidget
        assistantId="asst_index"
        assistantName="CTO/CIO Assistant"
        loadSdk={options.loadSdk ?? sdk.loadSdk}
      />
    </PublicConfigContext.Provider>,
  );
  return { sdk, user, ...view };
}

export const engageButton = () => screen.getByRole('button', { name: 'ENGAGE' });
export const status = () => screen.getByRole('status');

/** Clicks ENGAGE and lets the SDK load and start. */
export async function engage(user: ReturnType<typeof userEvent.setup>) {
  await user.click(engageButton());
  await screen.findByRole('button', { name: 'CONNECTING...' });
}

afterEach(() => {
  vi.useRealTimers();
});
