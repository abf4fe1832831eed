import { isProviderHttpError, type ProviderApi } from '../api/provider-api';
import { DELETE_GAP_MS, DELETE_RATE_LIMIT_WAIT_MS } from './constants';
import { messages } from './messages';
import { sleep } from './sleep';
import type { LogLine } from './state';
import { FAILED_PREFIX } from './state';

export interface BulkDeleteOptions {
  /** Null when no key is available: then only local records can go. */
  api: ProviderApi | null;
  ids: readonly string[];
  nameOf: (id: string) => string | undefined;
  /** The record is gone from the provider (or never was there): drop it from the list. */
  onRemoved: (id: string) => void;
  log: (message: string, level?: LogLine['level']) => void;
}

export interface BulkDeleteResult {
  /** Deleted on the provider by this request. */
  deleted: number;
  /** Answered 404: the provider no longer had them; removed from the list. */
  alreadyGone: number;
  /** Never reached the provider ('failed-' records, or no key): removed from the list only. */
  removedLocal: number;
  failed: number;
  /** The status of the last failure (0 without an answer), for a single delete's message. */
  lastStatus: number;
}

/**
 * Deletes files one by one, 500 ms apart, waiting 2 s after a 429 before trying that file again
 * (SPEC §9; three times at most). 'failed-' records exist only here and go without a request; a 404
 * removes the record too. Each outcome is counted apart, so the report says which files the
 * provider deleted and which only left the list.
 */
export async function deleteFiles({
  api,
  ids,
  nameOf,
  onRemoved,
  log,
}: BulkDeleteOptions): Promise<BulkDeleteResult> {
  let deleted = 0;
  let alreadyGone = 0;
  let removedLocal = 0;
  let failed = 0;
  let lastStatus = 0;
  let sentBefore = false;
  for (const id of ids) {
    const name = nameOf(id);
    if (name === undefined) continue;
    if (id.startsWith(FAILED_PREFIX) || !api) {
      onRemoved(id);
      removedLocal++;
      log(`Removed ${name} from the list (it never reached the provider)`);
      continue;
    }
    if (sentBefore) await sleep(DELETE_GAP_MS);
    sentBefore = true;
    for (let rateLimited = 0; ; rateLimited++) {
      try {
        await api.deleteFile(id);
        onRemoved(id);
        deleted++;
        log(`Deleted ${name} (${id})`);
        break;
      } catch (error) {
        if (isProviderHttpError(error) && error.status === 429 && rateLimited < 3) {
          log(`Delete of ${name} rate limited; waiting 2 s`, 'error');
          await sleep(DELETE_RATE_LIMIT_WAIT_MS);
          continue;
        }
        if (isProviderHttpError(error) && error.status === 404) {
          onRemoved(id);
          alreadyGone++;
          log(`${name} was already gone from the provider`);
          break;
        }
        failed++;
        lastStatus = isProviderHttpError(error) ? error.status : 0;
        log(`${messages.deleteFailed(lastStatus)} (${name})`, 'error');
        break;
      }
    }
  }
  return { deleted, alreadyGone, removedLocal, failed, lastStatus };
}
