/**
 * `<engage-widget assistant="asst_…" position mode lang name>`: the voice widget as a custom element,
 * for any site (the /embed.js script, embed-entry.ts) and Engage's own landing pages
 * (engage-widget.tsx). Its idle state is plain DOM in a shadow root (idle.ts); the first click
 * loads the configuration and the React view (widget-app.tsx: the voice SDK, the call room, the chat
 * follow from there), which then owns the shadow root. Nothing is defined globally but the element.
 * @module
 */
import type { EngageWidgetViewProps, WidgetMode, WidgetPosition } from '../components/engage-widget-view';
import type { LoadVoiceSdk } from '../lib/voice-client';
import { loadEmbedConfig, type EmbedConfigResult, type EmbedProvider } from './embed-config';
import { IDLE_CSS, idleMarkup, type IdleStatus } from './idle';

/** The React view, mounted into the shadow root on the first click. */
export interface WidgetApp {
  mountWidget(shadow: ShadowRoot, props: EngageWidgetViewProps, options?: MountOptions): MountedWidget;
}
export interface MountOptions {
  /** The microphone worklet's file on Engage's origin (see @engage/voice's captureWorkletUrl). */
  captureWorkletUrl?: string;
  /** Loads the voice SDK; by default @engage/voice, on demand. Component tests give a fake. */
  loadSdk?: LoadVoiceSdk;
}
export interface MountedWidget {
  update(props: EngageWidgetViewProps): void;
  unmount(): void;
}

export interface EngageWidgetOptions {
  /** Engage's origin: where /config.json and the provider are (the script's own origin). */
  origin: string;
  /** Loads the React view (from the same origin). */
  loadApp: () => Promise<WidgetApp>;
  /** Given when the page's CSP may not allow Blob-URL scripts (other sites). */
  captureWorkletUrl?: string;
  /** Loads the voice SDK; by default @engage/voice, on demand. Component tests give a fake. */
  loadSdk?: LoadVoiceSdk;
}

export const ELEMENT_NAME = 'engage-widget';
/** Assistant ids as the server accepts them (config.ts's CALL_ASSISTANTS). */
const ASSISTANT_ID = /^[\w.:-]{1,128}$/;

const modeOf = (value: string | null): WidgetMode =>
  value === 'voice' || value === 'chat' ? value : 'voice+chat';
const positionOf = (value: string | null): WidgetPosition =>
  value === 'bottom-right' ? 'bottom-right' : 'bottom-left';

/** The view's props from the element's attributes and the provider it knows. */
function viewProps(
  element: HTMLElement,
  origin: string,
  start: EngageWidgetViewProps['start'] | null,
  known: EmbedProvider | undefined,
): EngageWidgetViewProps {
  // The conversation's language: the element's `lang`, or the page's around it.
  const lang = element.closest('[lang]')?.getAttribute('lang');
  return {
    assistantId: element.getAttribute('assistant') ?? '',
    assistantName: element.getAttribute('name') || 'assistant',
    publicKey: known ? known.publicKey : null,
    apiBaseUrl: known?.apiBaseUrl ?? `${origin}/provider`,
    ...(known?.answerByMail && { answerByMail: known.answerByMail }),
    mode: modeOf(element.getAttribute('mode')),
    position: positionOf(element.getAttribute('position')),
    ...(lang && { lang }),
    ...(start && { start }),
  };
}

/**
 * Draws the idle markup for `status` into the shadow root, keeping the focus on the widget's main
 * control; an element with no assistant id is misconfigured (said once, in the console and on it).
 */
function renderIdle(element: HTMLElement, shadow: ShadowRoot, status: IdleStatus): IdleStatus {
  const hadFocus = shadow.activeElement !== null;
  const assistant = element.getAttribute('assistant');
  if (assistant === null || !ASSISTANT_ID.test(assistant)) {
    if (status !== 'misconfigured')
      console.error(
        `<engage-widget>: "assistant" must be an assistant id, got ${JSON.stringify(assistant)}.`,
      );
    status = 'misconfigured';
  }
  const template = document.createElement('template');
  template.innerHTML = idleMarkup({
    name: element.getAttribute('name') || 'assistant',
    mode: modeOf(element.getAttribute('mode')),
    position: positionOf(element.getAttribute('position')),
    status,
  });
  const old = shadow.querySelector('section');
  if (old) old.replaceWith(template.content);
  else shadow.append(template.content);
  // The pressed button was replaced: the focus stays on the widget's main control.
  if (hadFocus) shadow.querySelector<HTMLElement>('[data-action]')?.focus();
  return status;
}

/** Why the first press found nothing to call: the site refused, the server unreachable, or the assistant not offered. */
function refusalStatus(config: EmbedConfigResult, appLoaded: boolean): IdleStatus {
  if (!config.ok) return config.reason === 'origin_not_allowed' ? 'refused' : 'unreachable';
  return appLoaded ? 'not-offered' : 'unreachable';
}

/** Defines <engage-widget> once (a second script tag, or both the page and /embed.js, are harmless). */
export function defineEngageWidget(options: EngageWidgetOptions): void {
  if (typeof customElements === 'undefined' || customElements.get(ELEMENT_NAME)) return;
  let idleSheet: CSSStyleSheet | null = null;

  class EngageWidgetElement extends HTMLElement {
    static observedAttributes = ['assistant', 'position', 'mode', 'lang', 'name'];
    #provider: EmbedProvider | undefined;
    #shadow: ShadowRoot | null = null;
    #status: IdleStatus = 'idle';
    /** The click being served; a Cancel (or a disconnect) drops it. */
    #attempt: object | null = null;
    #mounted: MountedWidget | null = null;
    /** The provider /config.json gave on the first click (other sites), for the view's later props. */
    #loaded: EmbedProvider | undefined;

    /** Set by Engage's own pages: the provider as the app knows it (the members' key on theirs). */
    get provider(): EmbedProvider | undefined {
      return this.#provider;
    }
    set provider(value: EmbedProvider | undefined) {
      this.#provider = value;
      this.#mounted?.update(this.#props(null));
    }

    connectedCallback() {
      if (!this.#shadow) {
        // A prerendered page brings its shadow root (declarative); it is kept, with the buttons the
        // visitor may already have pressed.
        const shadow = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
        this.#shadow = shadow;
        // A constructed sheet, not a <style>: a site's style-src does not govern it.
        idleSheet ??= new CSSStyleSheet();
        idleSheet.replaceSync(IDLE_CSS);
        shadow.adoptedStyleSheets = [idleSheet];
        shadow.addEventListener('click', (event) => this.#onClick(event));
        shadow.addEventListener('keydown', (event) => this.#onKeyDown(event as KeyboardEvent));
      }
      if (!this.#shadow.querySelector('section')) this.#render();
    }

    disconnectedCallback() {
      // A page that moves the element (appendChild elsewhere, a framework re-ordering its children)
      // disconnects and reconnects it in one task: the call goes on. Only an element still out of
      // the document once that task is done has left the page, and its call ends.
      queueMicrotask(() => {
        if (this.isConnected) return;
        this.#attempt = null;
        this.#status = 'idle';
        this.#unmount();
      });
    }

    attributeChangedCallback(name: string, previous: string | null, value: string | null) {
      if (!this.#shadow || previous === value) return;
      // Another assistant is another conversation: the view (and a call or chat with the previous
      // one) ends, and the next press checks the new one. The other attributes change in place.
      if (name === 'assistant' && this.#mounted) this.#unmount();
      if (name === 'assistant') {
        this.#attempt = null;
        this.#status = 'idle';
      }
      if (this.#mounted) this.#mounted.update(this.#props(null));
      else this.#render();
    }

    /** Back to the idle markup: the React view (its call, its microphone, its chat) is gone. */
    #unmount() {
      this.#mounted?.unmount();
      this.#mounted = null;
      this.#shadow?.replaceChildren();
      if (this.#shadow && idleSheet) this.#shadow.adoptedStyleSheets = [idleSheet];
    }

    #props(start: EngageWidgetViewProps['start'] | null, provider?: EmbedProvider): EngageWidgetViewProps {
      return viewProps(this, options.origin, start, provider ?? this.#provider ?? this.#loaded);
    }

    #render() {
      if (this.#shadow) this.#status = renderIdle(this, this.#shadow, this.#status);
    }

    #onClick(event: Event) {
      if (this.#mounted) return; // the React view handles its own controls
      const target = event.target instanceof Element ? event.target.closest('[data-action]') : null;
      const action = target?.getAttribute('data-action');
      if (action === 'cancel') this.#cancel();
      else if ((action === 'engage' || action === 'chat') && target?.getAttribute('aria-disabled') !== 'true')
        void this.#activate(action);
    }

    #onKeyDown(event: KeyboardEvent) {
      if (this.#mounted) return;
      if (event.key === 'Escape' && this.#status === 'connecting' && !event.isComposing) {
        event.preventDefault();
        this.#cancel();
      }
    }

    #cancel() {
      this.#attempt = null;
      this.#status = 'idle';
      this.#render();
    }

    async #activate(action: 'engage' | 'chat') {
      if (this.#attempt) return;
      const attempt = {};
      this.#attempt = attempt;
      this.#status = action === 'engage' ? 'connecting' : 'loading-chat';
      this.#render();
      const assistant = this.getAttribute('assistant') ?? '';
      const [config, app] = await Promise.all([
        // Engage's own pages give the provider (and may use their members' assistants).
        this.#provider
          ? { ok: true as const, provider: this.#provider, offered: null }
          : loadEmbedConfig(options.origin),
        options.loadApp().catch(() => null),
      ]);
      if (this.#attempt !== attempt || !this.#shadow) return; // cancelled, or removed meanwhile
      this.#attempt = null;
      if (!config.ok || !app || (config.offered !== null && config.offered !== assistant)) {
        this.#status = refusalStatus(config, app !== null);
        this.#render();
        return;
      }
      if (!this.#provider) this.#loaded = config.provider;
      const shadow = this.#shadow;
      const focus = shadow.activeElement !== null;
      this.#status = 'idle';
      shadow.replaceChildren();
      shadow.adoptedStyleSheets = [];
      const { captureWorkletUrl, loadSdk } = options;
      this.#mounted = app.mountWidget(shadow, this.#props({ action, focus }, config.provider), {
        ...(captureWorkletUrl && { captureWorkletUrl }),
        ...(loadSdk && { loadSdk }),
      });
    }
  }

  customElements.define(ELEMENT_NAME, EngageWidgetElement);
}
