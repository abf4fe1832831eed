/**
 * @engage/vapi-emulator: an embedded stand-in for the provider (Vapi) speaking its HTTP contract:
 * files with their processing lifecycle, assistants, tools, knowledge bases, web calls and chats
 * (answered from the assistant's documents by the local assistant), stored in the server's
 * database, with the provider's keys and error bodies. Bodies and query parameters
 * are checked against the provider's OpenAPI document (@engage/vapi-contract); every other route
 * the document or the client names answers 501.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { addressKey, createLimiter, memoryLimitStore, retryAfterSeconds } from '@engage/rate-limit';
import { Hono, type Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { socketAddress } from './address-limit.js';
import { keyAuth } from './auth.js';
import { DEFAULT_MAX_JSON_BYTES, emulatorBodyLimit } from './body-limit.js';
import { callDirectory } from './calls/directory.js';
import type { EmulatorContext } from './context.js';
import { DEFAULT_CONVERSATION_DAYS } from './conversations/retention.js';
import { faultInjection } from './faults.js';
import { errorBody } from './http.js';
import { createDocumentWorker } from './knowledge/document-worker.js';
import { createFileProcessing } from './knowledge/file-processing.js';
import { createLocalAssistant } from './knowledge/local-assistant.js';
import {
  DEFAULT_CALLS_PER_MINUTE_PER_ADDRESS,
  DEFAULT_CHATS_PER_MINUTE_PER_ADDRESS,
  DEFAULT_MAX_CHAT_LIST_BYTES,
  DEFAULT_MAX_FILE_BYTES,
  DEFAULT_MAX_STORED_CALLS,
  DEFAULT_MAX_STORED_CHATS,
  DEFAULT_PROCESSING_DELAY_MS,
  type VapiEmulatorDeps,
} from './options.js';
import { assistantRoutes } from './routes/assistants.js';
import { callRoutes } from './routes/calls.js';
import { chatRoutes } from './routes/chats.js';
import { filesRoutes, storageRoutes } from './routes/files.js';
import { knowledgeBaseV2Routes } from './routes/knowledge-bases-v2.js';
import { knowledgeBaseRoutes } from './routes/knowledge-bases.js';
import {
  NOT_IMPLEMENTED_PUBLIC,
  notImplementedBesides,
  notImplementedRoutes,
  registeredRoutes,
} from './routes/not-implemented.js';
import { tokenRoutes } from './routes/tokens.js';
import { toolRoutes } from './routes/tools.js';
import { tokenStore } from './tokens/store.js';

export { emulatorMigrations, type EmulatorMigration } from './migrations.js';
export { EMULATOR_ORG_ID, SEEDED_ASSISTANT_IDS } from './seed.js';
export { CHAT_LIMITS } from './routes/chats.js';
export { NO_DOCUMENTS, DONT_KNOW } from './knowledge/retrieval.js';
export {
  createDocumentWorker,
  type DocumentWorker,
  type DocumentWorkerOptions,
} from './knowledge/document-worker.js';
export type { ProcessedFile } from './knowledge/file-processing.js';
/** The OpenAPI document's operations, for tests that walk the whole contract. */
export { DOCUMENTED_ROUTES } from '@engage/vapi-contract';
export { PROXY_SECRET_HEADER } from './http.js';
export { DEFAULT_MAX_JSON_BYTES } from './body-limit.js';
export { addressKey, socketAddress, type ClientAddress } from './address-limit.js';
export { SUPPORTED_TYPES } from './content-check.js';
export type { EmulatorKeys, PublicKeyGrant } from './auth.js';
export type { TokenRestrictions } from './tokens/scope.js';
export type { EmulatorDb, EmulatorQueryable } from './db.js';
export type { EmulatorFaults } from './faults.js';
export { INLINE_ASSISTANT_MAX_BYTES, VARIABLE_VALUES_LIMITS } from './routes/assistant-choice.js';
export type { EmulatorCallDirectory } from './calls/directory.js';
export { CALL_RETENTION_MS } from './calls/store.js';
export { CALL_MESSAGE_LIMITS, type CallMessage, type StoredCallMessage } from './calls/artifact.js';
export {
  conversationCutoff,
  CONVERSATION_DAYS_RANGE,
  DEFAULT_CONVERSATION_DAYS,
  pruneConversations,
  RETENTION_EVERY_MS,
  scheduleConversationRetention,
  type ConversationRetention,
  type ConversationRetentionOptions,
  type PruneCounts,
} from './conversations/retention.js';
export {
  createRooms,
  ROOM_CLOSE,
  SPEAKER_NAME,
  type Rooms,
  type RoomsOptions,
  type RoomUpgrade,
} from './rooms/index.js';

export * from './options.js';

/** Every implemented route group; the 501 table is what the contract names beyond them. */
function resourceRoutes(ctx: EmulatorContext): Hono {
  const app = new Hono();
  app.route('/', filesRoutes(ctx));
  app.route('/', assistantRoutes(ctx));
  app.route('/', toolRoutes(ctx));
  app.route('/', knowledgeBaseRoutes(ctx));
  app.route('/', knowledgeBaseV2Routes(ctx));
  app.route('/', callRoutes(ctx));
  app.route('/', chatRoutes(ctx));
  app.route('/', tokenRoutes(ctx));
  return app;
}

/**
 * The routes the emulator implements, read from its registered apps. Building them touches nothing
 * of the context (handlers only use it when called), so an empty one lists them.
 */
export const IMPLEMENTED = registeredRoutes(resourceRoutes({} as EmulatorContext));
/** The provider's other routes: each answers 501 naming itself. */
export const NOT_IMPLEMENTED = notImplementedBesides(IMPLEMENTED);

/**
 * Creates the emulator. Its routes sit at its root (/file, /assistant, /call/web …); the server
 * mounts it at /provider.
 * @example
 * app.route('/provider', createVapiEmulator({ db, keys: { publicKey, privateKey } }));
 */
export function createVapiEmulator(deps: VapiEmulatorDeps): Hono {
  const clientAddress = deps.clientAddress ?? socketAddress;
  const clock = deps.now ? () => deps.now!().getTime() : Date.now;
  const store = deps.limitStore ?? memoryLimitStore();
  /** `perMinute` per address (/64 for IPv6): that many at once, then one every 60/perMinute s. */
  const perAddressPerMinute = (name: string, perMinute: number) => {
    const limiter = createLimiter(
      `emulator.${name}`,
      { burst: perMinute, perWindow: perMinute, windowMs: 60_000 },
      { store, now: clock },
    );
    return async (c: Context): Promise<number | null> => {
      const address = clientAddress(c);
      if (address === undefined) return null;
      const decision = await limiter.take(addressKey(address));
      return decision.allowed ? null : retryAfterSeconds(decision);
    };
  };
  const now = deps.now ?? (() => new Date());
  const files = createFileProcessing({
    db: deps.db,
    now,
    worker: deps.documentWorker ?? createDocumentWorker(),
    logger: deps.logger,
    onProcessed: deps.onFileProcessed,
  });
  const ctx: EmulatorContext = {
    db: deps.db,
    now,
    processingDelayMs: deps.processingDelayMs ?? DEFAULT_PROCESSING_DELAY_MS,
    maxFileBytes: deps.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
    maxStoredChats: deps.maxStoredChats ?? DEFAULT_MAX_STORED_CHATS,
    maxChatListBytes: deps.maxChatListBytes ?? DEFAULT_MAX_CHAT_LIST_BYTES,
    maxStoredCalls: deps.maxStoredCalls ?? DEFAULT_MAX_STORED_CALLS,
    conversationDays: deps.conversationDays ?? DEFAULT_CONVERSATION_DAYS,
    newId: deps.newId ?? randomUUID,
    requireFilePurpose: deps.requireFilePurpose ?? true,
    forwardedHeaderSecret: deps.forwardedHeaderSecret || undefined,
    takeWebCall: perAddressPerMinute(
      'call-web',
      deps.callsPerMinutePerAddress ?? DEFAULT_CALLS_PER_MINUTE_PER_ADDRESS,
    ),
    takeWebChat: perAddressPerMinute(
      'chat-web',
      deps.chatsPerMinutePerAddress ?? DEFAULT_CHATS_PER_MINUTE_PER_ADDRESS,
    ),
    localAssistant: createLocalAssistant({ db: deps.db, now }),
    files,
  };
  const app = new Hono();
  // Files a stopped server left processing are taken up at the first request (creating the
  // emulator touches no table).
  let resumed = false;
  app.use('*', async (_c, next) => {
    if (!resumed) {
      resumed = true;
      files
        .resume()
        .catch((error: unknown) =>
          deps.logger?.error('emulator: could not resume file processing', { error: String(error) }),
        );
    }
    await next();
  });
  // Before any route, so none reads an unbounded body.
  app.use('*', emulatorBodyLimit(deps.maxJsonBytes ?? DEFAULT_MAX_JSON_BYTES));

  app.onError((error, c) => {
    if (error instanceof HTTPException) return error.getResponse();
    deps.logger?.error('emulator: unhandled error', {
      path: c.req.path,
      error: error.message,
      stack: error.stack,
    });
    return c.json(errorBody(500, 'Internal server error'), 500);
  });

  // Public paths first: a handler that answers ends the chain before the key check below.
  if (deps.rooms) {
    const rooms = typeof deps.rooms === 'function' ? deps.rooms(callDirectory(ctx, deps.logger)) : deps.rooms;
    app.route('/rooms', rooms);
  }
  app.route('/', storageRoutes(ctx));
  app.route('/', notImplementedRoutes(NOT_IMPLEMENTED_PUBLIC));

  const api = new Hono();
  api.use('*', faultInjection(deps.faults));
  api.use('*', keyAuth(deps.keys, tokenStore(ctx).scopeOf));
  const resources = resourceRoutes(ctx);
  api.route('/', resources);
  api.route('/', notImplementedRoutes(notImplementedBesides(registeredRoutes(resources))));
  // Answer unknown paths here, so a mounted emulator never falls through to the site.
  api.all('*', (c) => c.json(errorBody(404, `Cannot ${c.req.method} ${c.req.path}`), 404));
  app.route('/', api);
  return app;
}
