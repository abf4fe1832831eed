import { describe, expect, it } from 'vitest';
import { EngageApiError } from '@/lib/engage-api';
import { serverProblem } from './oauth-client-row';

describe("the server's refusal of an OAuth client", () => {
  it('marks the field the server names, and only that one', () => {
    const uri = new EngageApiError(400, 'validation_failed', "invalid redirect_uri 'x'", 'redirect_uris');
    expect(serverProblem(uri)).toEqual({ field: 'uris', message: "invalid redirect_uri 'x'" });
    const line = new EngageApiError(
      400,
      'validation_failed',
      'A redirect URI is too long.',
      'redirect_uris.2',
    );
    expect(serverProblem(line)?.field).toBe('uris');
    const name = new EngageApiError(400, 'validation_failed', 'Give the client a name.', 'client_name');
    expect(serverProblem(name)?.field).toBe('name');
  });

  it('guesses nothing from the words when the server names no field', () => {
    const vague = new EngageApiError(500, 'internal_error', 'The name server redirect_uri failed');
    expect(serverProblem(vague)).toEqual({ field: null, message: 'The name server redirect_uri failed' });
    expect(serverProblem('nope')).toEqual({ field: null, message: 'The client could not be saved' });
  });
});
