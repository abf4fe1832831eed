/**
 * What the element needs from Engage's public configuration (GET /config.json on the script's own
 * origin): the provider's public key and API base. No zod here: this runs before the first click,
 * where every byte counts (the size budget is 15 kB gzip), so the few fields are checked by hand.
 * @module
 */
import type { AnswerByMail } from '../answer-by-mail/answer-request';

/** The provider as the widget calls it. */
export interface EmbedProvider {
  /**
   * The public key (null: the server has none, the widget says the assistant cannot be reached;
   * undefined: still on its way, on Engage's sign-in-only pages, where a start waits for it).
   */
  publicKey: string | null | undefined;
  /** The provider's API: the real provider's, or `<origin>/provider` with the embedded emulator. */
  apiBaseUrl: string;
  /** Answers by mail, when Engage's server offers them (/config.json's `answerByMail`). */
  answerByMail?: AnswerByMail;
}

export type EmbedConfigResult =
  | {
      ok: true;
      provider: EmbedProvider;
      /**
       * The assistant the public key may start (the public page's, `assistants.index`): the only one
       * another site can embed; null when the configuration does not say.
       */
      offered: string | null;
    }
  | { ok: false; reason: 'origin_not_allowed' | 'unreachable' };

const MAX_KEY_CHARS = 512;

/** /config.json's `answerByMail` (and the owner's phrases), or undefined when it has none. */
export function parseAnswerByMail(body: unknown, origin: string): AnswerByMail | undefined {
  const keepDays = (body as { answerByMail?: { keepDays?: unknown } }).answerByMail?.keepDays;
  if (typeof keepDays !== 'number' || !Number.isInteger(keepDays) || keepDays < 1 || keepDays > 3650)
    return undefined;
  const phrases = (body as { conversations?: { unansweredPhrases?: unknown } }).conversations
    ?.unansweredPhrases;
  const list =
    Array.isArray(phrases) &&
    phrases.length <= 50 &&
    phrases.every((p) => typeof p === 'string' && p.length <= 200)
      ? (phrases as string[])
      : undefined;
  return { origin, keepDays, ...(list && { phrases: list }) };
}

/** A URL the provider may live at: http(s) only, so no configuration can point the widget at javascript:. */
const httpUrl = (value: unknown): string | null => {
  if (typeof value !== 'string' || value.length > 2048) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? value : null;
  } catch {
    return null;
  }
};

/** Reads /config.json's provider part; null when the body is not Engage's configuration. */
export function parseEmbedProvider(body: unknown, origin: string): EmbedProvider | null {
  if (typeof body !== 'object' || body === null) return null;
  const provider = (body as { provider?: unknown }).provider;
  if (typeof provider !== 'object' || provider === null) return null;
  const { publicKey, baseUrl } = provider as { publicKey?: unknown; baseUrl?: unknown };
  const key = typeof publicKey === 'string' && publicKey.length <= MAX_KEY_CHARS ? publicKey : null;
  const base = baseUrl === null || baseUrl === undefined ? `${origin}/provider` : httpUrl(baseUrl);
  if (!base) return null;
  const answerByMail = parseAnswerByMail(body, origin);
  return { publicKey: key, apiBaseUrl: base, ...(answerByMail && { answerByMail }) };
}

/** The public page's assistant in /config.json (`assistants.index`), or null. */
function offeredAssistant(body: unknown): string | null {
  const index = (body as { assistants?: { index?: unknown } }).assistants?.index;
  return typeof index === 'string' && index.length <= 128 ? index : null;
}

/**
 * Loads the configuration from `origin`. A 403 `origin_not_allowed` (this page's origin is not in
 * EMBED_ORIGINS; the server lets the page read that answer) is told apart from every other failure.
 */
export async function loadEmbedConfig(
  origin: string,
  fetchImpl: typeof fetch = fetch,
): Promise<EmbedConfigResult> {
  try {
    const response = await fetchImpl(`${origin}/config.json`, {
      headers: { Accept: 'application/json' },
      credentials: 'omit',
    });
    const body: unknown = await response.json().catch(() => null);
    if (response.status === 403 && (body as { error?: unknown } | null)?.error === 'origin_not_allowed')
      return { ok: false, reason: 'origin_not_allowed' };
    const provider = response.ok ? parseEmbedProvider(body, origin) : null;
    return provider
      ? { ok: true, provider, offered: offeredAssistant(body) }
      : { ok: false, reason: 'unreachable' };
  } catch {
    return { ok: false, reason: 'unreachable' };
  }
}
