// The phone menu's disclosure (the Menu button and the panel of links it controls), in the DOM
// alone: the app's navigation (top-nav.tsx) and the static pages' islands (src/app/islands/main.ts)
// both attach it to the same markup, so it works one way whether or not React runs the page.

export interface SiteMenu {
  close(): void;
  detach(): void;
}

/**
 * Makes `button` open and close `panel`: a click toggles it (`aria-expanded`, and the panel's
 * `hidden`/`flex` classes, as the markup renders them closed); Escape from the button or the panel
 * closes it and gives focus back to the button.
 */
export function attachSiteMenu(button: HTMLButtonElement, panel: HTMLElement): SiteMenu {
  const isOpen = () => button.getAttribute('aria-expanded') === 'true';
  const set = (open: boolean) => {
    button.setAttribute('aria-expanded', String(open));
    panel.classList.toggle('hidden', !open);
    panel.classList.toggle('flex', open);
  };
  const onClick = () => set(!isOpen());
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !isOpen()) return;
    const target = event.target as Node;
    if (target !== button && !panel.contains(target)) return;
    event.preventDefault();
    set(false);
    button.focus();
  };
  button.addEventListener('click', onClick);
  document.addEventListener('keydown', onKeyDown);
  return {
    close: () => set(false),
    detach: () => {
      button.removeEventListener('click', onClick);
      document.removeEventListener('keydown', onKeyDown);
    },
  };
}
