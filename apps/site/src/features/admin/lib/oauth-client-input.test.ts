import { describe, expect, it } from 'vitest';
import { parseClientInput } from './oauth-client-input';

describe('parseClientInput', () => {
  it('takes one whole redirect URI per line', () => {
    expect(parseClientInput(' App ', 'https://a.example/cb\n\n  https://b.example/cb  \r\n')).toEqual({
      ok: true,
      name: 'App',
      redirectUris: ['https://a.example/cb', 'https://b.example/cb'],
    });
  });

  it('quotes a bad line whole and names only its field', () => {
    expect(parseClientInput('App', 'https://a.example/cb\nnot a url')).toEqual({
      ok: false,
      field: 'uris',
      message:
        '"not a url" is not an address: each line is one whole redirect URI, such as https://app.example.com/callback.',
    });
    expect(parseClientInput('', 'https://a.example/cb')).toMatchObject({ ok: false, field: 'name' });
    expect(parseClientInput('App', '  ')).toMatchObject({ ok: false, field: 'uris' });
    expect(parseClientInput('App', 'a'.repeat(3) + '\n'.repeat(1) + 'x'.repeat(0))).toMatchObject({
      field: 'uris',
    });
    const eleven = Array.from({ length: 11 }, (_, i) => `https://a.example/${i}`).join('\n');
    expect(parseClientInput('App', eleven)).toMatchObject({ ok: false, field: 'uris' });
  });
});
