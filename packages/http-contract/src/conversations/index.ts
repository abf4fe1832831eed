/**
 * @engage/http-contract/conversations: the pure conversation logic the site and the server share
 * (the provider's calls and chats as conversations, the unanswered questions among them, the
 * Answers document), and the server's /api/conversations contract. Apart from the main entry: it
 * carries zod schemas the site's other pages do not need.
 * @module
 */
export * from './conversation.js';
export * from './unanswered-questions.js';
export * from './answers-doc.js';
export * from './api.js';
export { normaliseQuestion } from '../unanswered.js';
