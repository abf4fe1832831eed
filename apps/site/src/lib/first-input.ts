/**
 * The visitor's first input, including what happened before the app ran. A prerendered page loads
 * the app only after its first paint (scripts/prerender.mjs); meanwhile its inline loader records
 * on `window.__engageEarly` whether the visitor pressed anything, and which buttons they clicked.
 * Links need nothing: a click on a prerendered <a href> navigates natively.
 */
export interface EarlyInput {
  /** True once the visitor pressed a pointer, touched or pressed a key (kept up to date). */
  input: boolean;
  /** Buttons clicked before hydration started, in order, each once. */
  clicks: HTMLElement[];
  /** Set when the app's hydration starts: from then on React sees clicks itself. */
  done: boolean;
  /** On a static page: the whole app's script, for its islands to bring when they need it. */
  app?: AppScript | null;
}

/** A page script as the inline loader has it: its entry and the modules it imports at once. */
export interface AppScript {
  entry: string;
  preloads: string[];
}

declare global {
  interface Window {
    __engageEarly?: EarlyInput;
  }
}

const early = (): EarlyInput | undefined =>
  typeof window === 'undefined' ? undefined : window.__engageEarly;

/** Runs `fn` once, on the visitor's first input (a pointer press, a touch or a key), or now if it came. */
export function onFirstInput(fn: () => void): void {
  if (early()?.input) {
    fn();
    return;
  }
  const events = ['pointerdown', 'touchstart', 'keydown'] as const;
  const run = () => {
    for (const e of events) window.removeEventListener(e, run, true);
    fn();
  };
  for (const e of events) window.addEventListener(e, run, { capture: true, passive: true });
}

/**
 * Called right before a part of the page comes alive: returns the buttons clicked so far (once; a
 * second call returns none), for replayEarlyInput once it has. The whole app (no `within`) stops
 * the recording; an island (`within`, src/app/islands/main.ts) takes the clicks inside itself and is
 * marked `data-live`, which the loader does not record in from then on.
 */
export function takeEarlyClicks(within?: HTMLElement): HTMLElement[] {
  const state = early();
  if (!state) return [];
  if (!within) {
    state.done = true;
    return state.clicks.splice(0);
  }
  within.setAttribute('data-live', '');
  const taken = state.clicks.filter((el) => within.contains(lightDomOf(el)));
  state.clicks = state.clicks.filter((el) => !taken.includes(el));
  return taken;
}

/** The element itself, or for one in a shadow root (<engage-widget>'s) its host: what the page holds. */
function lightDomOf(el: Element): Element {
  const root = el.getRootNode();
  return root instanceof ShadowRoot ? lightDomOf(root.host) : el;
}

/**
 * Replays, now that React handles them, what the visitor did before hydration: the focus (React saw
 * no focus event, e.g. the widget would not hand focus on from ENGAGE to END) and the buttons they
 * clicked. Hydration keeps the prerendered nodes, so each is the very button the visitor clicked; one
 * React replaced (a hydration mismatch) or removed is no longer in the container and is skipped,
 * never another. Each list is replayed once.
 */
export function replayEarlyInput(clicks: HTMLElement[], container: HTMLElement): void {
  const pending = clicks.splice(0);
  // In a task of its own: a click dispatched from the hydrating commit's own effects never reached
  // the button's handler (seen in Chromium), one a task later does.
  setTimeout(() => {
    // Through shadow roots (<engage-widget>'s): the host is not what holds the focus.
    let focused = document.activeElement;
    while (focused?.shadowRoot?.activeElement) focused = focused.shadowRoot.activeElement;
    const owner = focused && lightDomOf(focused);
    if (focused instanceof HTMLElement && owner !== container && owner && container.contains(owner)) {
      focused.blur();
      focused.focus();
    }
    for (const el of pending) {
      if (!el.isConnected || !container.contains(lightDomOf(el)) || (el as HTMLButtonElement).disabled)
        continue;
      el.click();
    }
  }, 0);
}
