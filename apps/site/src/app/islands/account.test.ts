import { afterEach, describe, expect, it } from 'vitest';
import { takeEarlyClicks } from '@/lib/first-input';
import type { PublicConfig } from '@/lib/public-config-source';
import { attachAccount } from './account';

const config = {
  siteTitle: 'Site',
  ownerDomain: 'x.example',
  auth: { url: null, anonKey: 'anon', embedded: true },
  provider: { name: 'Vapi', baseUrl: null, publicKey: null, serverHoldsPrivateKey: true, embedded: true },
} as PublicConfig;

/** The prerendered navigation's account part and page links (app/top-nav.tsx, app/account-nav.tsx). */
function nav() {
  document.body.innerHTML = `<nav>
    <div><a href="/kb-import" class="link">KB Import</a></div>
    <div><span class="session-avatar-hint" aria-hidden="true"></span></div>
    <div id="site-menu"><a href="/kb-import" class="link">KB Import</a></div></nav>`;
  return document.querySelector('nav') as HTMLElement;
}

function storeSession(role?: string, expiresIn = 3600) {
  const session = {
    access_token: 'a',
    refresh_token: 'r',
    expires_at: Math.floor(Date.now() / 1000) + expiresIn,
    user: { id: 'u1', email: 'zoe@example.com', app_metadata: role ? { role } : {} },
  };
  localStorage.setItem(`sb-${location.hostname.split('.')[0]}-auth-token`, JSON.stringify(session));
}

describe('the account island of a static page', () => {
  afterEach(() => {
    localStorage.clear();
    document.body.innerHTML = '';
  });

  it('leaves a visitor’s page as it is', () => {
    const el = nav();
    expect(attachAccount(el, config)).toBeNull();
    expect(el.querySelector('.session-avatar-hint')).not.toBeNull();
    expect(el.querySelector('button')).toBeNull();
  });

  it('makes the avatar a labelled menu button for a signed-in user, without the Admin link', () => {
    storeSession();
    const el = nav();
    const button = attachAccount(el, config);
    expect(button?.getAttribute('aria-label')).toBe('Account menu for zoe@example.com');
    expect(button?.getAttribute('aria-haspopup')).toBe('menu');
    expect(button?.textContent).toBe('Z');
    expect(el.querySelector('.session-avatar-hint')).toBeNull();
    expect(el.querySelector('a[href="/admin"]')).toBeNull();
  });

  it('adds the Admin link beside each KB Import link for an admin, with the same look', () => {
    storeSession('admin');
    const el = nav();
    attachAccount(el, config);
    const admins = [...el.querySelectorAll<HTMLAnchorElement>('a[href="/admin"]')];
    expect(admins.map((a) => [a.textContent, a.className])).toEqual([
      ['Admin', 'link'],
      ['Admin', 'link'],
    ]);
  });

  it('adds Conversations after KB Import for an operator, without Admin; an admin gets both, in the bar’s order', () => {
    storeSession('operator');
    const operator = nav();
    attachAccount(operator, config);
    expect(operator.querySelectorAll('a[href="/conversations"]')).toHaveLength(2);
    expect(operator.querySelector('a[href="/admin"]')).toBeNull();

    localStorage.clear();
    storeSession('admin');
    const admin = nav();
    attachAccount(admin, config);
    const bar = admin.querySelector('div') as HTMLElement;
    expect([...bar.querySelectorAll('a')].map((a) => a.textContent)).toEqual([
      'KB Import',
      'Conversations',
      'Admin',
    ]);
  });

  it('gives a plain user neither Conversations nor Admin', () => {
    storeSession('user');
    const el = nav();
    attachAccount(el, config);
    expect(el.querySelector('a[href="/conversations"]')).toBeNull();
    expect(el.querySelector('a[href="/admin"]')).toBeNull();
  });

  it('treats a session about to expire as none: the app decides that one', () => {
    storeSession('admin', 30);
    expect(attachAccount(nav(), config)).toBeNull();
  });
});

describe('early clicks, taken by the part of the page that comes alive', () => {
  afterEach(() => {
    delete window.__engageEarly;
    document.body.innerHTML = '';
  });

  it('takes only the clicks inside the part, marks it live, and leaves the others for theirs', () => {
    document.body.innerHTML = '<div id="a"><button>A</button></div><div id="b"><button>B</button></div>';
    const [a, b] = [...document.querySelectorAll('button')] as HTMLElement[];
    window.__engageEarly = { input: true, clicks: [a as HTMLElement, b as HTMLElement], done: false };
    const part = document.getElementById('a') as HTMLElement;
    expect(takeEarlyClicks(part)).toEqual([a]);
    expect(part.hasAttribute('data-live')).toBe(true);
    expect(window.__engageEarly.clicks).toEqual([b]);
    expect(window.__engageEarly.done).toBe(false);
    expect(takeEarlyClicks()).toEqual([b]);
    expect(window.__engageEarly.done).toBe(true);
  });
});
