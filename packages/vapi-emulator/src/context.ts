import type { Context } from 'hono';
import type { EmulatorDb } from './db.js';
import type { FileProcessing } from './knowledge/file-processing.js';
import type { LocalAssistant } from './knowledge/local-assistant.js';

/** What every resource route needs, resolved once from the emulator's deps. */
export interface EmulatorContext {
  db: EmulatorDb;
  now: () => Date;
  /** How long a new file stays 'processing'. */
  processingDelayMs: number;
  /** Largest accepted upload. */
  maxFileBytes: number;
  /** Chats and chat sessions kept, each (the oldest go past it). */
  maxStoredChats: number;
  /** Largest GET /chat answer (JSON bytes): past it the page is cut short. */
  maxChatListBytes: number;
  /** Calls kept (the oldest go past it, as do calls past their retention). */
  maxStoredCalls: number;
  /** Days a conversation (call or chat) is kept (EMULATOR_CONVERSATION_DAYS). */
  conversationDays: number;
  newId: () => string;
  /** GET /file refuses a listing without `purpose` (400), as the document says. */
  requireFilePurpose: boolean;
  /**
   * X-Forwarded-Proto/Host are believed only from a request carrying `x-engage-proxy` equal to this
   * (the server's own proxy); without it they are never believed.
   */
  forwardedHeaderSecret?: string | undefined;
  /**
   * Counts a web call against its caller's address: null when it may go ahead, else the seconds
   * to wait. A caller without an address (the server in-process) is never limited.
   */
  takeWebCall: (c: Context) => Promise<number | null>;
  /** The same for POST /chat/web, with its own per-minute budget. */
  takeWebChat: (c: Context) => Promise<number | null>;
  /** Answers questions from an assistant's documents (chats and call rooms share its index cache). */
  localAssistant: LocalAssistant;
  /** Reads uploaded files into passages, off the request path (knowledge/file-processing.ts). */
  files: FileProcessing;
}
