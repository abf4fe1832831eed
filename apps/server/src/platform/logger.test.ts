import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';

describe('createLogger', () => {
  it('redacts fields that name secrets', () => {
    const lines: string[] = [];
    createLogger('info', (l) => lines.push(l)).info('x', { password: 'p', accessToken: 't', email: 'a@b.c' });
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      password: '[redacted]',
      accessToken: '[redacted]',
      email: 'a@b.c',
    });
  });

  it('drops lines below its level', () => {
    const lines: string[] = [];
    createLogger('warn', (l) => lines.push(l)).info('hidden');
    expect(lines).toEqual([]);
  });
});
