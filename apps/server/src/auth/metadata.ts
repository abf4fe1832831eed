// One size rule for a user's metadata (user_metadata and app_metadata), on every path that writes
// it: sign-up, sign-in links, PUT /user, both admin APIs, anonymous sign-in. Anyone may create an
// account or an anonymous user, so what each may store is bounded; a merge is measured as merged.
import { authErrors } from './errors.js';

export const MAX_METADATA_BYTES = 16 * 1024;

export const metadataBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value ?? {}));

export const metadataFits = (value: unknown): boolean => metadataBytes(value) <= MAX_METADATA_BYTES;

export const metadataTooLarge = (field = 'user_metadata') =>
  authErrors.validation(`${field} must be at most 16 KiB of JSON`);

/** Throws 400 `validation_failed` when `value` is over the cap. */
export function assertMetadataFits(value: unknown, field = 'user_metadata'): void {
  if (!metadataFits(value)) throw metadataTooLarge(field);
}
