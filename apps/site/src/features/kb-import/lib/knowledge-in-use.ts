import type { ProviderApi, ProviderKnowledge } from '../api/provider-api';
import { messages } from './messages';
import { isAbortError } from './sleep';
import type { CreatedKnowledgeBase } from './storage';
import { describeError, type KbImportStore } from './store';

/** The most v2 knowledge bases whose files are looked up (one request each) when the tool opens. */
export const MAX_BASES_LOOKED_UP = 50;

/**
 * The query tools and v2 knowledge bases the provider holds, each with the files it uses: those
 * made elsewhere (another browser, the provider's dashboard) as well as this browser's.
 */
export async function loadProviderKnowledge(
  api: ProviderApi,
  signal: AbortSignal,
): Promise<ProviderKnowledge[]> {
  const tools = await api.listQueryTools({ signal });
  const bases = await api.listKnowledgeBasesV2({ signal });
  const v2: ProviderKnowledge[] = [];
  for (const base of bases.slice(0, MAX_BASES_LOOKED_UP)) {
    signal.throwIfAborted();
    const view = await api.getKnowledgeBaseV2(base.id);
    v2.push({ kind: 'v2', id: base.id, name: base.name, fileIds: view.files.map((f) => f.fileId) });
  }
  // A v2 base's own search tool lists no files of its own; the base stands for it.
  return [...v2, ...tools];
}

/** Puts the provider's tools and bases in the store; a failure is logged (the rest of the tool works on). */
export async function refreshProviderKnowledge(
  store: KbImportStore,
  api: ProviderApi | null,
  signal: AbortSignal,
): Promise<void> {
  if (!api) return;
  try {
    store.dispatch({ type: 'existing', existing: await loadProviderKnowledge(api, signal) });
  } catch (error) {
    if (!isAbortError(error)) store.log(describeError(error, messages.knowledgeLoadFailed), 'error');
  }
}

/** One entry per tool or base: this browser's record (richer) or, for the others, the provider's. */
export interface KnowledgeEntry {
  key: string;
  kind: 'query-tool' | 'v2';
  name: string;
  fileIds: readonly string[];
  /** Set for the ones this browser created. */
  created?: CreatedKnowledgeBase;
}

export function knowledgeEntries(
  created: readonly CreatedKnowledgeBase[],
  existing: readonly ProviderKnowledge[],
): KnowledgeEntry[] {
  const mine = new Set(created.flatMap((k) => [k.toolId, k.knowledgeBaseId ?? '']));
  return [
    ...created.map((k) => ({
      key: k.toolId,
      kind: k.kind ?? ('query-tool' as const),
      name: k.name,
      fileIds: k.fileIds,
      created: k,
    })),
    ...existing
      .filter((k) => !mine.has(k.id))
      .map((k) => ({ key: k.id, kind: k.kind, name: k.name, fileIds: k.fileIds })),
  ];
}

/** The names of the tools and bases that use a file, for the warning before it is deleted. */
export function usersOf(fileId: string, entries: readonly KnowledgeEntry[]): string[] {
  return [...new Set(entries.filter((k) => k.fileIds.includes(fileId)).map((k) => k.name))];
}
