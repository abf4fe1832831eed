/**
 * The local assistant's answers, shared by chats and call rooms: it finds the documents behind an
 * assistant's query tools (model.toolIds and inline model.tools: a query tool's knowledgeBases
 * fileIds, a v2 knowledge base's ready files), indexes their passages once per set of file versions,
 * and answers a question from them (retrieval.ts). Without such tools it says it has no documents.
 * The passages are those stored when each file was processed (file-processing.ts): nothing is
 * parsed here, on a visitor's request.
 * @module
 */
import type { EmulatorQueryable } from '../db.js';
import { iso, json } from '../db.js';
import type { Passage } from './passages.js';
import { answerText, NO_DOCUMENTS, PassageIndex, type SourcedPassage } from './retrieval.js';
import { isGreeting } from './terms.js';

export interface KnowledgeLimits {
  /** Tools looked at per assistant. */
  maxTools: number;
  /** Files indexed per assistant; more are left out (oldest first kept). */
  maxFiles: number;
  /** Passages in one assistant's index, across its files. */
  maxIndexPassages: number;
  /** Indexes kept in memory (least recently used dropped). */
  cachedIndexes: number;
}

export const DEFAULT_KNOWLEDGE_LIMITS: KnowledgeLimits = {
  maxTools: 32,
  maxFiles: 100,
  maxIndexPassages: 5_000,
  cachedIndexes: 16,
};

export interface LocalAssistant {
  /** What the assistant answers to a question (its greeting for a bare "hello"). */
  reply(assistant: Record<string, unknown>, question: string): Promise<string>;
}

interface ToolLike {
  type?: unknown;
  knowledgeBases?: { fileIds?: unknown }[];
  knowledgeBaseId?: unknown;
}

interface FileRow {
  id: string;
  name: string;
  original_name: string;
  updated_at: Date | string;
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.length > 0) : [];

export function createLocalAssistant(deps: {
  db: EmulatorQueryable;
  now: () => Date;
  limits?: Partial<KnowledgeLimits>;
}): LocalAssistant {
  const { db } = deps;
  const limits = { ...DEFAULT_KNOWLEDGE_LIMITS, ...deps.limits };
  const cache = new Map<string, Promise<PassageIndex>>();

  /** The query tools' files of an assistant, or null when it has no query tool at all. */
  const documentsOf = async (assistant: Record<string, unknown>): Promise<FileRow[] | null> => {
    const model = (assistant.model ?? {}) as { toolIds?: unknown; tools?: unknown };
    const ids = strings(model.toolIds).slice(0, limits.maxTools);
    const { rows } = ids.length
      ? await db.query<{ data: unknown }>('select data from emulator_tools where id = any($1::text[])', [ids])
      : { rows: [] };
    const tools = [
      ...rows.map((r) => (typeof r.data === 'string' ? JSON.parse(r.data) : r.data) as ToolLike),
      ...(Array.isArray(model.tools) ? (model.tools as ToolLike[]) : []),
    ].slice(0, limits.maxTools);
    const queryTools = tools.filter((t) => t?.type === 'query' || t?.type === 'knowledgeBase');
    if (queryTools.length === 0) return null;
    const fileIds = new Set(
      queryTools.flatMap((t) => (t.knowledgeBases ?? []).flatMap((kb) => strings(kb?.fileIds))),
    );
    const bases = strings(queryTools.map((t) => t.knowledgeBaseId));
    if (bases.length) {
      // A v2 base's files count once they are indexed ('ready'; the file's own state is checked below).
      const attached = await db.query<{ file_id: string }>(
        `select file_id from emulator_knowledge_base_v2_files
         where knowledge_base_id = any($1::text[]) and ready_at <= $2`,
        [bases, deps.now()],
      );
      for (const r of attached.rows) fileIds.add(r.file_id);
    }
    if (fileIds.size === 0) return [];
    // Files count once processed ('done'), as the provider's tools read them.
    const files = await db.query<FileRow>(
      `select id, name, original_name, updated_at from emulator_files
       where id = any($1::text[]) and parse_ok and processed_at is not null and ready_at <= $2
       order by created_at, id limit $3`,
      [[...fileIds], deps.now(), limits.maxFiles],
    );
    return files.rows;
  };

  const build = async (files: FileRow[]): Promise<PassageIndex> => {
    const passages: SourcedPassage[] = [];
    for (const file of files) {
      if (passages.length >= limits.maxIndexPassages) break;
      const { rows } = await db.query<{ passages: unknown }>(
        'select passages from emulator_files where id = $1',
        [file.id],
      );
      const stored = json<Passage[] | null>(rows[0]?.passages) ?? [];
      // A document that opens with a heading is titled by it; its answers cite that, not the file's name.
      const title = stored[0]?.heading;
      for (const p of stored) {
        if (passages.length >= limits.maxIndexPassages) break;
        passages.push({ ...p, fileName: file.name, ...(title ? { title } : {}) });
      }
    }
    return new PassageIndex(passages);
  };

  /** One index per set of file versions: a renamed or replaced file makes a new one. */
  const indexOf = (files: FileRow[]): Promise<PassageIndex> => {
    const key = files
      .map((f) => `${f.id}@${iso(f.updated_at)}`)
      .sort()
      .join(' ');
    let index = cache.get(key);
    if (index) cache.delete(key);
    else {
      index = build(files);
      // A failed build is not remembered: the next question tries again.
      index.catch(() => cache.get(key) === index && cache.delete(key));
    }
    cache.set(key, index);
    if (cache.size > limits.cachedIndexes) cache.delete(cache.keys().next().value as string);
    return index;
  };

  return {
    async reply(assistant, question) {
      const greeting =
        typeof assistant.firstMessage === 'string' && assistant.firstMessage.trim()
          ? assistant.firstMessage.trim()
          : null;
      const files = await documentsOf(assistant);
      if (files === null) return isGreeting(question) && greeting ? greeting : NO_DOCUMENTS;
      const index = await indexOf(files);
      return answerText(index.retrieve(question), greeting);
    },
  };
}
