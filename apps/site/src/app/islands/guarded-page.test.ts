import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { rememberRecovery } from '@/lib/password-recovery';
import type { PublicConfig } from '@/lib/public-config-source';
import { storageKeyFor } from '@/lib/stored-session';
import { attachGuardedPage, GUARDED_CONTENT } from './guarded-page';

const config = {
  siteTitle: 'Site',
  ownerDomain: 'x.example',
  auth: { url: null, anonKey: 'anon', embedded: true },
  provider: { name: 'Vapi', baseUrl: null, publicKey: null, serverHoldsPrivateKey: true, embedded: true },
} as PublicConfig;
const app = { entry: '/assets/index-abc.js', preloads: ['/assets/react-abc.js'] };

/** A guarded page's prerendered shell (features/auth/components/route-guard.tsx). */
function shell() {
  document.body.innerHTML = `<div id="root"><nav>Main</nav>
    <div role="status" data-guard>Loading your session…</div>
    <main data-guard><h1>Protected Resource</h1></main></div>`;
  return [...document.querySelectorAll<HTMLElement>('[data-guard]')];
}

function storeSession() {
  const session = {
    access_token: 'the-token',
    refresh_token: 'r',
    expires_at: Math.floor(Date.now() / 1000) + 3600,
    user: { id: 'u1', email: 'zoe@example.com', app_metadata: {} },
  };
  localStorage.setItem(storageKeyFor(null, location.origin), JSON.stringify(session));
}

const appScript = () => document.head.querySelector(`script[src="${app.entry}"]`);

beforeAll(() => {
  // jsdom has no setHTMLUnsafe; the page's content here holds no shadow root, so innerHTML will do.
  if (!('setHTMLUnsafe' in Element.prototype))
    Object.defineProperty(Element.prototype, 'setHTMLUnsafe', {
      configurable: true,
      value(this: Element, html: string) {
        this.innerHTML = html;
      },
    });
});

describe('a guarded static page', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
    sessionStorage.clear();
    document.head.innerHTML = '';
    document.body.innerHTML = '';
  });

  it('gives a visitor the sign-in card’s code only at their first input, and asks the server nothing', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    expect(await attachGuardedPage(shell(), config, app)).toBe('app');
    expect(appScript()).toBeNull();
    window.dispatchEvent(new Event('pointerdown'));
    expect(appScript()).not.toBeNull();
    expect(
      document.head.querySelector(`link[rel="modulepreload"][href="${app.preloads[0]}"]`),
    ).not.toBeNull();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('asks the server for a signed-in user’s page with their token and puts it in place of the shell', async () => {
    storeSession();
    const fetch = vi.fn(async () => Response.json({ html: '<main><h1>sales engineer</h1></main>' }));
    vi.stubGlobal('fetch', fetch);
    expect(await attachGuardedPage(shell(), config, app)).toBe('content');
    expect(fetch).toHaveBeenCalledWith(`/api/page-content?path=${encodeURIComponent(location.pathname)}`, {
      headers: { Authorization: 'Bearer the-token' },
    });
    expect(document.querySelector('h1')?.textContent).toBe('sales engineer');
    expect(document.querySelectorAll('[data-guard]')).toHaveLength(0);
    expect(document.getElementById('root')?.hasAttribute(GUARDED_CONTENT)).toBe(true);
    expect(appScript()).toBeNull();
  });

  it('hands the page to the app, shell untouched, when the server refuses or cannot be reached', async () => {
    storeSession();
    for (const answer of [
      async () => Response.json({ error: 'mfa_required' }, { status: 403 }),
      async () => {
        throw new TypeError('Failed to fetch');
      },
    ]) {
      vi.stubGlobal('fetch', vi.fn(answer));
      expect(await attachGuardedPage(shell(), config, app)).toBe('app');
      expect(document.querySelectorAll('[data-guard]')).toHaveLength(2);
      expect(appScript()).not.toBeNull();
      document.head.innerHTML = '';
    }
  });

  it('leaves a reset link’s pending new password to the app’s prompt', async () => {
    storeSession();
    rememberRecovery('u1');
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    expect(await attachGuardedPage(shell(), config, app)).toBe('app');
    expect(fetch).not.toHaveBeenCalled();
    expect(appScript()).not.toBeNull();
  });
});
