import type { SkippedFile } from './duplicates';

/** Every user-facing message of SPEC §5 and §8, word for word. */
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
} as const;
