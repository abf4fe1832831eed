import { afterEach, describe, expect, it } from 'vitest';
import { attachSiteMenu } from './site-menu';

/** The markup top-nav.tsx renders: the button, and its panel rendered closed. */
function markup() {
  document.body.innerHTML = `
    <button type="button" aria-expanded="false" aria-controls="site-menu">Menu</button>
    <div id="site-menu" class="hidden flex-col"><a href="/ediscovery">Sales Engineer</a></div>
    <a href="/elsewhere">Elsewhere</a>`;
  const button = document.querySelector('button') as HTMLButtonElement;
  const panel = document.getElementById('site-menu') as HTMLElement;
  return { button, panel, link: panel.querySelector('a') as HTMLAnchorElement };
}

const escape = (target: Element) =>
  target.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }));

describe('the phone menu’s disclosure, in the DOM alone', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('opens and closes the panel on the button’s clicks', () => {
    const { button, panel } = markup();
    attachSiteMenu(button, panel);
    button.click();
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(panel.className).toContain('flex');
    expect(panel.classList.contains('hidden')).toBe(false);
    button.click();
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(panel.classList.contains('hidden')).toBe(true);
  });

  it('closes on Escape from inside the panel and gives focus back to the button', () => {
    const { button, panel, link } = markup();
    attachSiteMenu(button, panel);
    button.click();
    link.focus();
    escape(link);
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);
  });

  it('leaves Escape elsewhere alone, and stops listening once detached', () => {
    const { button, panel } = markup();
    const menu = attachSiteMenu(button, panel);
    button.click();
    expect(escape(document.querySelector('a[href="/elsewhere"]') as Element)).toBe(true);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    menu.close();
    expect(button.getAttribute('aria-expanded')).toBe('false');
    menu.detach();
    button.click();
    expect(button.getAttribute('aria-expanded')).toBe('false');
  });
});
