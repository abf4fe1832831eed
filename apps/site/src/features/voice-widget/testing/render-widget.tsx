import {
  act,
  fireEvent,
  render,
  waitFor,
  within,
  type BoundFunctions,
  type queries,
} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode, type ReactNode } from 'react';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import { PublicConfigContext, type PublicConfig } from '@/lib/public-config';
import { EngageWidget } from '../components/engage-widget';
import { defineEngageWidget } from '../embed/element';
// Loaded up front, so the first press's import of the view settles within a test's fake timers.
import '../embed/widget-app';
import type { LoadVoiceSdk } from '../lib/voice-client';
import { createFakeSdk, type FakeVoiceClient } from './fake-voice-client';
import { widgetTestConfig } from './public-config';

// The widget's component tests render what a page renders: <EngageWidget>, the <engage-widget>
// element with its idle markup, and on the first press the React view in the element's shadow root.
// Only the voice SDK is a fake (or the real @engage/voice over its fake room), given to the element
// as any page could give it.

let sdkForThisTest: LoadVoiceSdk = () => Promise.reject(new Error('no voice SDK for this test'));

/** Defines <engage-widget> once per test file, with the SDK each test gives. */
function defineTestElement() {
  defineEngageWidget({
    origin: window.location.origin,
    loadApp: () => import('../embed/widget-app'),
    loadSdk: () => sdkForThisTest(),
  });
}

let shadowForThisTest: ShadowRoot | null = null;

function currentShadow(): HTMLElement {
  if (!shadowForThisTest) throw new Error('no widget rendered');
  // The queries look through any node's descendants; a shadow root is such a node.
  return shadowForThisTest as unknown as HTMLElement;
}

/** Testing Library's queries, inside the widget's shadow root (`screen` does not look there). */
export const widget = new Proxy({} as BoundFunctions<typeof queries>, {
  get: (_, name: keyof BoundFunctions<typeof queries>) => within(currentShadow())[name],
});

export interface RenderWidgetOptions {
  /** Adjusts the fake SDK client when the widget creates it. */
  configure?: (client: FakeVoiceClient) => void;
  /** Another SDK loader (the real SDK, a failing download). */
  loadSdk?: LoadVoiceSdk;
  config?: PublicConfig;
  /** Renders in StrictMode, as the landing pages do. */
  strict?: boolean;
}

export function renderWidget(options: RenderWidgetOptions = {}) {
  const sdk = createFakeSdk();
  sdkForThisTest =
    options.loadSdk ??
    (async () => {
      const create = await sdk.loadSdk();
      return (key, url) => {
        const client = create(key, url) as FakeVoiceClient;
        options.configure?.(client);
        return client;
      };
    });
  defineTestElement();
  const user = userEvent.setup();
  const tree: ReactNode = (
    <PublicConfigContext.Provider value={options.config ?? widgetTestConfig}>
      <button type="button">elsewhere</button>
      <EngageWidget assistantId="asst_index" assistantName="CTO/CIO Assistant" />
    </PublicConfigContext.Provider>
  );
  const view = render(options.strict ? <StrictMode>{tree}</StrictMode> : tree);
  const host = view.container.querySelector('engage-widget');
  if (!host?.shadowRoot) throw new Error('<engage-widget> has no shadow root');
  shadowForThisTest = host.shadowRoot;
  return { sdk, user, host, shadow: host.shadowRoot, fakeSdk: !options.loadSdk, ...view };
}

export type RenderedWidget = ReturnType<typeof renderWidget>;

export const engageButton = () => widget.getByRole('button', { name: 'ENGAGE' });
export const status = () => widget.getByRole('status');
export const politeAnnouncement = () => currentShadow().querySelector('[aria-live="polite"]');
export const captions = () => widget.getByRole('list', { name: 'Captions' });

/** Waits until the React view has taken over from the idle markup (after the first press). */
export async function viewMounted(t: RenderedWidget) {
  await waitFor(() => expect(t.shadow.querySelector('.engage-root')).not.toBeNull());
}

const starts = (t: RenderedWidget) => t.sdk.clients.reduce((n, client) => n + client.started.length, 0);

/** Waits for the view and for the fake SDK's `count`th call start (ENGAGE was pressed). */
export async function callStarting(t: RenderedWidget, count = 1) {
  await viewMounted(t);
  await waitFor(() => expect(starts(t)).toBe(count));
}

/** ENGAGE pressed, the view mounted and (with the fake SDK) the call asked to start. */
export async function connect(t: RenderedWidget) {
  const before = starts(t);
  await t.user.click(engageButton());
  await widget.findByRole('button', { name: 'CONNECTING...' });
  if (t.fakeSdk) await callStarting(t, before + 1);
  else await viewMounted(t);
}

/** ENGAGE, the call starts, and the call panel (lazy) is on screen. */
export async function inCall(t: RenderedWidget) {
  await connect(t);
  act(() => t.sdk.clients.at(-1)?.emit('call-start'));
  await widget.findByLabelText('Type a message');
}

/**
 * Types into a box of the widget; a trailing {Enter} submits its form as the browser's implicit
 * submission does. user-event's typing does not reach React's change events inside a shadow root
 * (the e2e specs type there with real keys).
 */
export function typeIn(box: HTMLElement, keys: string) {
  const enter = keys.endsWith('{Enter}');
  const text = enter ? keys.slice(0, -'{Enter}'.length) : keys;
  const input = box as HTMLInputElement;
  act(() => {
    input.focus();
    fireEvent.change(input, { target: { value: input.value + text } });
    if (enter && input.form) fireEvent.submit(input.form);
  });
}

/** The focused element, looking into the widget's shadow root as the page's focus does. */
function focusedIn(root: Node): Element | null {
  if (root instanceof ShadowRoot) return document.activeElement === root.host ? root.activeElement : null;
  return document.activeElement;
}

expect.extend({
  // jest-dom's toHaveFocus compares with document.activeElement, which is the host for anything
  // focused inside the shadow root.
  toHaveFocus(element: Element) {
    const focused = focusedIn(element.getRootNode());
    const pass = focused === element;
    return {
      pass,
      message: () =>
        `expected the element ${pass ? 'not ' : ''}to have focus; focused: ${focused?.outerHTML.slice(0, 120) ?? 'nothing'}`,
    };
  },
});

beforeEach(() => {
  sessionStorage.clear();
});

afterEach(() => {
  vi.useRealTimers();
  shadowForThisTest = null;
});
