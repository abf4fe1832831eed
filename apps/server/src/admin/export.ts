import type { Logger } from '../platform/logger.js';
import { csvLine, USERS_CSV_HEADER, userCsvLine } from './csv.js';
import type { Ctx } from './inputs.js';
import type { AdminUser } from './types.js';

/**
 * The users CSV of /api/admin/users.csv, streamed: one database page at a time is read when the
 * client takes the previous one, so an export of 100 000 users holds one page in memory. The first
 * page is read before answering (then `recorded` runs: the audit entry), so a failure there is a
 * JSON error and not a truncated file.
 */
export async function usersCsvResponse(
  c: Ctx,
  exported: AsyncIterable<AdminUser[]>,
  recorded: () => Promise<void>,
  logger: Logger,
): Promise<Response> {
  const pages = exported[Symbol.asyncIterator]();
  const first = await pages.next();
  await recorded();
  const encoder = new TextEncoder();
  let pending: IteratorResult<AdminUser[]> | null = first;
  let headerSent = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        if (!headerSent) {
          headerSent = true;
          controller.enqueue(encoder.encode(csvLine(USERS_CSV_HEADER)));
        }
        const page = pending ?? (await pages.next());
        pending = null;
        if (page.done) return controller.close();
        controller.enqueue(encoder.encode(page.value.map(userCsvLine).join('')));
      } catch (error) {
        logger.error('user export failed midway', { error: (error as Error).message });
        controller.error(error);
      }
      return undefined;
    },
    async cancel() {
      await pages.return?.();
    },
  });
  const day = new Date().toISOString().slice(0, 10);
  return c.body(body, 200, {
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="users-${day}.csv"`,
  });
}
