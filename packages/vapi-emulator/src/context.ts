import type { EmulatorDb } from './db.js';

/** What every resource route needs, resolved once from the emulator's deps. */
export interface EmulatorContext {
  db: EmulatorDb;
  now: () => Date;
  /** How long a new file stays 'processing'. */
  processingDelayMs: number;
  /** Largest accepted upload. */
  maxFileBytes: number;
  newId: () => string;
}
