import { chmodSync, rmSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Logger } from '../platform/logger.js';

/**
 * `npm run backup` asks the running server for a backup over a Unix socket in the data directory: the
 * directory is 0700 and the socket 0600, so only its owner can connect (no token, no port). PGlite is
 * single-process, so the server that holds the database must be the one that dumps it.
 */
export const backupSocketPath = (dataDir: string) => path.join(dataDir, 'engage.sock');

const BACKUP_PATH = '/backup';
/** What a second request gets while a backup is being taken (409): one dump at a time. */
export const BACKUP_BUSY = 'a backup is already being taken; try again when it has finished';

export interface BackupChannel {
  close(): Promise<void>;
}

/**
 * Listens on the data directory's socket; each POST /backup answers one fresh backup. One at a time:
 * a dump holds the whole database in memory, so a request while one runs gets 409 and BACKUP_BUSY.
 */
export async function openBackupChannel(
  dataDir: string,
  produce: () => Promise<Buffer>,
  logger: Logger,
): Promise<BackupChannel | null> {
  const socketPath = backupSocketPath(dataDir);
  // The data directory's lock is ours, so a socket file left here belongs to a dead server.
  rmSync(socketPath, { force: true });
  let busy = false;
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== BACKUP_PATH) {
      res.writeHead(404).end('not found');
      return;
    }
    if (busy) {
      res.writeHead(409, { 'content-type': 'text/plain' }).end(BACKUP_BUSY);
      return;
    }
    busy = true;
    produce()
      .finally(() => {
        busy = false;
      })
      .then(
        (archive) => {
          res.writeHead(200, {
            'content-type': 'application/octet-stream',
            'content-length': archive.length,
          });
          res.end(archive);
        },
        (error: unknown) => {
          logger.error('backup failed', { error: (error as Error).message });
          res.writeHead(500, { 'content-type': 'text/plain' }).end((error as Error).message);
        },
      );
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => resolve());
    });
  } catch (error) {
    // A path over the socket limit (about 107 bytes) or a read-only directory: the server still runs.
    logger.warn('npm run backup cannot reach this server (its socket could not be opened)', {
      socketPath,
      error: (error as Error).message,
    });
    return null;
  }
  chmodSync(socketPath, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        rmSync(socketPath, { force: true });
      }),
  };
}

/** Asks the server running on `dataDir` for a backup. */
export function requestBackup(dataDir: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { socketPath: backupSocketPath(dataDir), method: 'POST', path: BACKUP_PATH },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          if (res.statusCode === 200) resolve(body);
          else
            reject(new Error(`the running server could not take it: ${body.toString('utf8').slice(0, 300)}`));
        });
        res.on('error', reject);
      },
    );
    req.on('error', (error) =>
      reject(
        new Error(`the running server did not answer on ${backupSocketPath(dataDir)} (${error.message})`),
      ),
    );
    req.end();
  });
}
