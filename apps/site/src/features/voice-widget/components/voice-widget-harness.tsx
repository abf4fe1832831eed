import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';
import { afterEach, beforeEach, vi } from 'vitest';
import { PublicConfigContext, type PublicConfig } from '@/lib/public-config';
import type { LoadVoiceSdk } from '../lib/voice-client';
import { createFakeSdk, type FakeVoiceClient } from '../testing/fake-voice-client';
import { widgetTestConfig } from '../testing/public-config';
import { VoiceWidget } from './voice-widget';

// Shared setup of voice-widget.conversation.test.tsx and voice-widget.cancel-end-chat.test.tsx:
// the widget in StrictMode over the fake SDK client.

export const config: PublicConfig = widgetTestConfig;

/**
 * Renders the widget (in StrictMode, as the site does: effects run twice); `configure` adjusts the
 * fake SDK client when the widget creates it.
 */
export function renderWidget(configure?: (client: FakeVoiceClient) => void) {
  const sdk = createFakeSdk();
  const loadSdk: LoadVoiceSdk = async () => {
    const create = await sdk.loadSdk();
    return (key, url) => {
      const client = create(key, url) as FakeVoiceClient;
      configure?.(client);
      return client;
    };
  };
  const user = userEvent.setup();
  const view = render(
    <StrictMode>
      <PublicConfigContext.Provider value={config}>
        <button type="button">elsewhere</button>
        <VoiceWidget assistantId="asst_index" assistantName="CTO/CIO Assistant" loadSdk={loadSdk} />
      </PublicConfigContext.Provider>
    </StrictMode>,
  );
  return { sdk, user, ...view };
}

type Widget = ReturnType<typeof renderWidget>;

export const engageButton = () => screen.getByRole('button', { name: 'ENGAGE' });
export const status = () => screen.getByRole('status');
export const politeAnnouncement = () => document.querySelector('[aria-live="polite"]');
export const captions = () => screen.getByRole('list', { name: 'Captions' });

export async function connect(t: Widget) {
  await t.user.click(engageButton());
  await screen.findByRole('button', { name: 'CONNECTING...' });
}

/** ENGAGE, the call starts, and the call panel (lazy) is on screen. */
export async function inCall(t: Widget) {
  await connect(t);
  act(() => t.sdk.client.emit('call-start'));
  await screen.findByLabelText('Type a message');
}

beforeEach(() => {
  sessionStorage.clear();
});

afterEach(() => {
  vi.useRealTimers();
});
