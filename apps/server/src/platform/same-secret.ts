import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * Whether `candidate` is the secret `expected`, in constant time: both sides are hashed first, so
 * the compared buffers have one length whatever was sent and the time taken tells nothing about
 * how many leading characters were right (`===` stops at the first difference).
 */
export function sameSecret(expected: string, candidate: string | null | undefined): boolean {
  if (typeof candidate !== 'string' || candidate === '' || expected === '') return false;
  return timingSafeEqual(digest(expected), digest(candidate));
}
