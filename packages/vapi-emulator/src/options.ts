// What createVapiEmulator takes: its storage, keys and logger, and the limits that keep one caller
// from using it all up, with their defaults.
import type { LimitStore } from '@engage/rate-limit';
import type { Hono } from 'hono';
import type { ClientAddress } from './address-limit.js';
import type { EmulatorKeys } from './auth.js';
import type { EmulatorCallDirectory } from './calls/directory.js';
import type { EmulatorDb } from './db.js';
import type { EmulatorFaults } from './faults.js';
import type { DocumentWorker } from './knowledge/document-worker.js';
import type { ProcessedFile } from './knowledge/file-processing.js';

export interface EmulatorLogger {
  error(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
}

/** The emulator's protections against one caller using it all up. */
export interface EmulatorLimits {
  /** Largest body of any request but a file upload (JSON), in bytes; larger ones get 413. Default 1 MiB. */
  maxJsonBytes?: number;
  /**
   * The caller's address, for per-address limits: default the socket's address (Node). Never a
   * header. Undefined (the server calling in-process) means not limited.
   */
  clientAddress?: ClientAddress;
  /** POST /call/web per caller address per minute; more get 429 with Retry-After. Default 20. */
  callsPerMinutePerAddress?: number;
  /** POST /chat/web per caller address per minute; more get 429 with Retry-After. Default 60. */
  chatsPerMinutePerAddress?: number;
  /**
   * Where those limits count (`@engage/rate-limit`): the server passes its own (PostgreSQL with
   * DATABASE_URL, so the limits hold across instances); default one in this process's memory.
   */
  limitStore?: LimitStore;
  /**
   * Chats (exchanges) and chat sessions kept, each; past it the oldest go, so callers of the public
   * key cannot fill the database, whatever session lifetime they ask for. Default 10 000.
   */
  maxStoredChats?: number;
  /**
   * Largest GET /chat answer, in bytes of its JSON (default 8 MiB). Each chat carries its session's
   * history (up to 50 messages), so 1000 of them, the limit the document allows, could come to
   * hundreds of megabytes: the page is cut short past this (at least one chat), `hasNextPage` true.
   */
  maxChatListBytes?: number;
  /** Calls kept; past it the oldest go (and any past the conversation retention). Default 10 000. */
  maxStoredCalls?: number;
  /**
   * Days calls and chats are kept (EMULATOR_CONVERSATION_DAYS): older ones go when a call is stored
   * and whenever `scheduleConversationRetention` runs. Default 30.
   */
  conversationDays?: number;
}

export interface VapiEmulatorDeps extends EmulatorLimits {
  /** The server's database with `emulatorMigrations` applied. */
  db: EmulatorDb;
  keys: EmulatorKeys;
  now?: () => Date;
  /** How long a new file stays 'processing' before 'done' or 'failed'. Default 1500 ms. */
  processingDelayMs?: number;
  /** Largest accepted upload in bytes; larger ones get 413. Default 10 MiB. */
  maxFileBytes?: number;
  faults?: EmulatorFaults;
  /**
   * The local call rooms, mounted at /rooms (where POST /call/web's webCallUrl points). Either the
   * rooms app itself, or a factory given the call directory (greeting lookup and status updates).
   */
  rooms?: Hono | ((calls: EmulatorCallDirectory) => Hono);
  logger?: EmulatorLogger;
  /**
   * GET /file without `purpose` gets 400, as the OpenAPI document (since 2026-07-30) requires it.
   * False answers every file instead, as earlier versions of the provider did. Default true.
   */
  requireFilePurpose?: boolean;
  /**
   * Reads uploaded files into passages, in a worker thread with time, memory and size limits
   * (default: createDocumentWorker() with its default limits).
   */
  documentWorker?: DocumentWorker;
  /** Told when an uploaded file is settled: 'done', or 'failed' with the reason (also logged). */
  onFileProcessed?: (file: ProcessedFile) => void;
  /** Id generator (default random UUIDs, as the provider uses). */
  newId?: () => string;
  /**
   * X-Forwarded-Proto/Host (used in the file and room URLs handed back) are believed only from a
   * request whose `x-engage-proxy` header equals this secret: the server's own proxy sends it. Unset,
   * they are never believed and URLs use the request's own address.
   */
  forwardedHeaderSecret?: string;
}

export const DEFAULT_PROCESSING_DELAY_MS = 1500;
export const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024;
export const DEFAULT_CALLS_PER_MINUTE_PER_ADDRESS = 20;
export const DEFAULT_CHATS_PER_MINUTE_PER_ADDRESS = 60;
export const DEFAULT_MAX_STORED_CHATS = 10_000;
export const DEFAULT_MAX_CHAT_LIST_BYTES = 8 * 1024 * 1024;
export const DEFAULT_MAX_STORED_CALLS = 10_000;
