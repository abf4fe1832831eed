import { describe, expect, it } from 'vitest';
import { loadPublicConfig } from './public-config';

const answer = (status: number, body: string) => async () => new Response(body, { status });

describe('loadPublicConfig', () => {
  it('says in plain words why the configuration could not be loaded', async () => {
    const offline = async (): Promise<Response> => {
      throw new TypeError('Failed to fetch');
    };
    await expect(loadPublicConfig(offline)).rejects.toThrow(
      'No answer from the server for /config.json (offline, or the server is not running).',
    );
    await expect(loadPublicConfig(answer(500, '{}'))).rejects.toThrow(
      'The server answered 500 for /config.json.',
    );
    await expect(loadPublicConfig(answer(200, '<!doctype html>'))).rejects.toThrow(
      'The server sent /config.json in a form this site does not understand.',
    );
    await expect(loadPublicConfig(answer(200, '{"siteTitle":1}'))).rejects.toThrow(
      'The server sent a configuration this site does not understand.',
    );
  });
});
