import type { SkippedFile } from './duplicates';

const files = (n: number) => `${n} ${n === 1 ? 'file' : 'files'}`;

/** Every user-facing message, word for word, and the tool's own beside them. */
export const messages = {
  uploadFailed: (status: number, statusText: string, body: string) =>
    `Upload failed: ${status} ${statusText} - ${body}`,
  invalidApiKey: "Invalid API key. Make sure you're using your VAPI private key, not the public key.",
  unsupportedFileType:
    'File type not supported. Please check the file format and try again. Supported: .md, .pdf, .txt, .csv, .tsv, .log, .json, .xml, .yaml, .doc, .docx',
  keyRequiredForDuplicates: 'API key required to check for duplicates',
  keyRequiredToLoadFiles: 'API key required to load files',
  keyRequiredToLoadExisting: 'API key required to load existing files',
  loadFailed: (status: number, statusText: string) => `Failed to load files: ${status} ${statusText}`,
  deleteFailed: (status: number) => `Failed to delete file from VAPI: ${status}`,
  deletedSome: (deleted: number, failed: number) =>
    `Deleted ${deleted} files. Failed to delete ${failed} files from VAPI.`,
  deletedAll: (deleted: number) => `Successfully deleted ${deleted} files from VAPI.`,
  retried: (succeeded: number, attempted: number) =>
    `Successfully retried ${succeeded} of ${attempted} files`,
  skipped: (skipped: readonly SkippedFile[]) =>
    `${skipped.length} file(s) skipped: ${skipped.map((s) => `${s.name} ${s.reason}`).join(', ')}`,
  noNewFiles: 'No new files selected - all were duplicates or unsupported',
  toolCreationFailed: (statusText: string) => `Tool creation failed: ${statusText}`,
  assistantUpdateFailed: (statusText: string) => `Assistant update failed: ${statusText}`,
  noFilesForKnowledgeBase: 'No files selected for knowledge base',
  keyAndAssistantRequired: 'Please provide API key and select an assistant',
  // ---- the tool's own (say what happened, no more and no less) ----
  /** Creation with the key in place (typed, or held by the server) but no assistant. */
  assistantRequired: 'Please select an assistant',
  /** Creation with an assistant but no typed key (the server holds none). */
  keyRequired: 'Please provide API key',
  knowledgeLoadFailed: (status: number, statusText: string) =>
    `Failed to load the provider's knowledge bases and query tools: ${status} ${statusText}`,
  loadedExisting: (total: number, added: number) =>
    `Loaded ${files(total)} from the provider (${added} new).`,
  /** A file the provider accepted and then failed to process; its file object carries no reason. */
  processingFailed: (provider: string, reason: string | null) =>
    reason
      ? `${provider} could not process this file: ${reason}`
      : `${provider} could not process this file (it gave no reason)`,
  /** A file reached the end of processing (the live region and the log). */
  settled: (name: string, status: string) =>
    status === 'failed' ? `${name} failed` : status === 'done' ? `${name} is ready` : `${name} is ${status}`,
  removedLocal: (n: number) => `Removed ${files(n)} from the list that never reached VAPI.`,
  alreadyGone: (n: number) => `Removed ${files(n)} from the list that VAPI no longer had.`,
  notRetried: (name: string, why: string) => `${name} was not retried: ${why}`,
  unchangedContent: (provider: string) =>
    `its content is unchanged since ${provider} could not process it; fix the file, then choose it again`,
} as const;

/** The report of a delete: provider deletions, local removals and failures, each said as it is. */
export function deleteReport(r: {
  targets: number;
  deleted: number;
  alreadyGone: number;
  removedLocal: number;
  failed: number;
  lastStatus: number;
}): { variant: 'default' | 'destructive'; message: string } {
  const rest = [
    r.alreadyGone > 0 ? messages.alreadyGone(r.alreadyGone) : '',
    r.removedLocal > 0 ? messages.removedLocal(r.removedLocal) : '',
  ];
  if (r.failed === 0) {
    const head = r.deleted > 0 ? messages.deletedAll(r.deleted) : '';
    return { variant: 'default', message: [head, ...rest].filter(Boolean).join(' ') };
  }
  const head =
    r.targets === 1 ? messages.deleteFailed(r.lastStatus) : messages.deletedSome(r.deleted, r.failed);
  return { variant: 'destructive', message: [head, ...rest].filter(Boolean).join(' ') };
}
