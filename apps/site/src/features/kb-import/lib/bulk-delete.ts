import { isVapiApiError } from '@engage/vapi-client';
import type { ProviderApi } from '../api/provider-api';
import { DELETE_GAP_MS, DELETE_RATE_LIMIT_WAIT_MS } from './constants';
import { messages } from './messages';
import type { LogLine } from './reducer';
import { isNeverSentId } from './reducer';
import { isAbortError, sleep } from './sleep';

export interface BulkDeleteOptions {
  /** Null when no key is available: then only local records can go. */
  api: ProviderApi | null;
  ids: readonly string[];
  nameOf: (id: string) => string | undefined;
  /** The record is gone from the provider (or never was there): drop it from the list. */
  onRemoved: (id: string) => void;
  log: (message: string, level?: LogLine['level']) => void;
  /** Leaving the page stops the run at once: no wait finishes and no further request is sent. */
  signal?: AbortSignal;
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
  /** The signal aborted before every file was handled: the counts are what was done until then. */
  aborted?: boolean;
}

/**
 * Deletes files one by one, 500 ms apart, waiting 2 s after a 429 before trying that file again
 * (three times at most). 'failed-' records exist only here and go without a request; a 404
 * removes the record too. Each outcome is counted apart, so the report says which files the
 * provider deleted and which only left the list.
 */
export async function deleteFiles(options: BulkDeleteOptions): Promise<BulkDeleteResult> {
  const counts = { deleted: 0, alreadyGone: 0, removedLocal: 0, failed: 0, lastStatus: 0 };
  try {
    await deleteEach(options, counts);
    return counts;
  } catch (error) {
    if (isAbortError(error) || options.signal?.aborted) return { ...counts, aborted: true };
    throw error;
  }
}

async function deleteEach(
  { api, ids, nameOf, onRemoved, log, signal }: BulkDeleteOptions,
  counts: Omit<BulkDeleteResult, 'aborted'>,
): Promise<void> {
  let sentBefore = false;
  for (const id of ids) {
    signal?.throwIfAborted();
    const name = nameOf(id);
    if (name === undefined) continue;
    if (isNeverSentId(id) || !api) {
      onRemoved(id);
      counts.removedLocal++;
      log(`Removed ${name} from the list (it never reached the provider)`);
      continue;
    }
    if (sentBefore) await sleep(DELETE_GAP_MS, signal);
    sentBefore = true;
    for (let rateLimited = 0; ; rateLimited++) {
      try {
        await api.deleteFile(id, { signal });
        onRemoved(id);
        counts.deleted++;
        log(`Deleted ${name} (${id})`);
        break;
      } catch (error) {
        if (isAbortError(error) || signal?.aborted) throw error;
        if (isVapiApiError(error) && error.status === 429 && rateLimited < 3) {
          log(`Delete of ${name} rate limited; waiting 2 s`, 'error');
          await sleep(DELETE_RATE_LIMIT_WAIT_MS, signal);
          continue;
        }
        if (isVapiApiError(error) && error.status === 404) {
          onRemoved(id);
          counts.alreadyGone++;
          log(`${name} was already gone from the provider`);
          break;
        }
        counts.failed++;
        counts.lastStatus = isVapiApiError(error) ? error.status : 0;
        log(`${messages.deleteFailed(counts.lastStatus)} (${name})`, 'error');
        break;
      }
    }
  }
}
