import { describe, expect, it, vi } from 'vitest';
import { loadEmbedConfig, parseEmbedProvider } from './embed-config';
import { declarativeShadowRoot, idleMarkup, NOT_ALLOWED_MESSAGE, NOT_OFFERED_MESSAGE } from './idle';
import { withPropertyDefaults } from './shadow-css';

const ORIGIN = 'https://engage.example';
const json = (status: number, body: unknown) =>
  Promise.resolve(
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
  );

describe('parseEmbedProvider', () => {
  it('takes the public key and the embedded provider on the script’s origin', () => {
    expect(parseEmbedProvider({ provider: { publicKey: 'pk', baseUrl: null } }, ORIGIN)).toEqual({
      publicKey: 'pk',
      apiBaseUrl: `${ORIGIN}/provider`,
    });
    expect(
      parseEmbedProvider({ provider: { publicKey: 'pk', baseUrl: 'https://api.vapi.ai' } }, ORIGIN),
    ).toEqual({
      publicKey: 'pk',
      apiBaseUrl: 'https://api.vapi.ai',
    });
  });

  it('refuses what is not Engage’s configuration, and never a javascript: provider', () => {
    expect(parseEmbedProvider(null, ORIGIN)).toBeNull();
    expect(parseEmbedProvider({ provider: 'x' }, ORIGIN)).toBeNull();
    expect(
      parseEmbedProvider({ provider: { publicKey: 'pk', baseUrl: 'javascript:alert(1)' } }, ORIGIN),
    ).toBeNull();
    expect(parseEmbedProvider({ provider: { publicKey: 'x'.repeat(513) } }, ORIGIN)?.publicKey).toBeNull();
  });
});

describe('answers by mail in /config.json', () => {
  it('offers them on the script’s own origin, with the owner’s phrases when configured', () => {
    const body = {
      provider: { publicKey: 'pk', baseUrl: null },
      answerByMail: { keepDays: 7 },
      conversations: { unansweredPhrases: ['No idea'] },
    };
    expect(parseEmbedProvider(body, ORIGIN)?.answerByMail).toEqual({
      origin: ORIGIN,
      keepDays: 7,
      phrases: ['No idea'],
    });
  });

  it('does not offer them when the configuration has none, or a value out of range', () => {
    for (const answerByMail of [undefined, null, { keepDays: 0 }, { keepDays: 1.5 }, { keepDays: '7' }])
      expect(
        parseEmbedProvider({ provider: { publicKey: 'pk', baseUrl: null }, answerByMail }, ORIGIN)
          ?.answerByMail,
      ).toBeUndefined();
  });
});

describe('loadEmbedConfig', () => {
  it('asks the script’s origin, without cookies', async () => {
    const fetchImpl = vi.fn(() => json(200, { provider: { publicKey: 'pk', baseUrl: null } }));
    expect(await loadEmbedConfig(ORIGIN, fetchImpl)).toEqual({
      ok: true,
      provider: { publicKey: 'pk', apiBaseUrl: `${ORIGIN}/provider` },
      offered: null,
    });
    expect(fetchImpl).toHaveBeenCalledWith(
      `${ORIGIN}/config.json`,
      expect.objectContaining({ credentials: 'omit' }),
    );
  });

  it('names the assistant other sites may use: the public page’s', async () => {
    const body = { provider: { publicKey: 'pk', baseUrl: null }, assistants: { index: 'asst_index' } };
    expect(await loadEmbedConfig(ORIGIN, () => json(200, body))).toMatchObject({ offered: 'asst_index' });
  });

  it('tells a refused site apart from a server that cannot be reached', async () => {
    const refused = () => json(403, { error: 'origin_not_allowed', message: NOT_ALLOWED_MESSAGE });
    expect(await loadEmbedConfig(ORIGIN, refused)).toEqual({ ok: false, reason: 'origin_not_allowed' });
    expect(await loadEmbedConfig(ORIGIN, () => json(403, { error: 'forbidden' }))).toEqual({
      ok: false,
      reason: 'unreachable',
    });
    expect(await loadEmbedConfig(ORIGIN, () => json(500, {}))).toEqual({ ok: false, reason: 'unreachable' });
    expect(await loadEmbedConfig(ORIGIN, () => Promise.reject(new TypeError('offline')))).toEqual({
      ok: false,
      reason: 'unreachable',
    });
  });
});

describe('idleMarkup', () => {
  const base = { name: 'CTO/CIO Assistant', mode: 'voice+chat', position: 'bottom-left' } as const;

  it('shows ENGAGE and "Type instead", then CONNECTING... with Cancel', () => {
    const idle = idleMarkup({ ...base, status: 'idle' });
    expect(idle).toContain('aria-label="Voice conversation with the CTO/CIO Assistant"');
    expect(idle).toContain('ENGAGE</button>');
    expect(idle).toContain('>Type instead<');
    const connecting = idleMarkup({ ...base, status: 'connecting' });
    expect(connecting).toContain('aria-disabled="true">CONNECTING...');
    expect(connecting).toContain('>Cancel<');
    expect(connecting).toContain('Connecting to the assistant…');
  });

  it('follows the mode, and says why a refused site gets no call', () => {
    expect(idleMarkup({ ...base, mode: 'voice', status: 'idle' })).not.toContain('Type instead');
    expect(idleMarkup({ ...base, mode: 'chat', status: 'idle' })).not.toContain('ENGAGE');
    expect(idleMarkup({ ...base, status: 'refused' })).toContain(
      `<div role="alert" class="alert"><p>${NOT_ALLOWED_MESSAGE}`,
    );
  });

  it('says what a site got wrong: no buttons without an assistant, the reason for one not offered', () => {
    const missing = idleMarkup({ ...base, status: 'misconfigured' });
    expect(missing).toContain('This assistant is not set up: the page must give &lt;engage-widget&gt;');
    expect(missing).not.toContain('<button');
    const other = idleMarkup({ ...base, status: 'not-offered' });
    expect(other).toContain(NOT_OFFERED_MESSAGE);
    expect(other).toContain('ENGAGE</button>');
  });

  it('escapes the name (an attribute of the host page)', () => {
    expect(idleMarkup({ ...base, name: '"><img src=x onerror=alert(1)>', status: 'idle' })).not.toContain(
      '<img',
    );
  });

  it('gives prerendered pages a declarative shadow root with its styles', () => {
    const html = declarativeShadowRoot(base);
    expect(html.startsWith('<template shadowrootmode="open"><style>:host{all:initial!important')).toBe(true);
  });
});

describe('withPropertyDefaults', () => {
  it('turns @property initial values into a first, lowest layer (ignored in shadow roots otherwise)', () => {
    const css =
      '@property --tw-border-style{syntax:"*";inherits:false;initial-value:solid}.b{border-style:var(--tw-border-style)}';
    expect(withPropertyDefaults(css)).toBe(
      `@layer engage-defaults{*,::before,::after,::backdrop{--tw-border-style:solid}}\n${css}`,
    );
    expect(withPropertyDefaults('.a{color:red}')).toBe('.a{color:red}');
  });
});
