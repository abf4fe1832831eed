// The document worker's thread when Engage runs from its TypeScript sources (npm run dev, Vitest):
// tsx loads document-thread-main.ts here whether or not the process itself runs under tsx. The
// compiled server starts dist/document-thread.js, built from that same file, instead.
import { tsImport } from 'tsx/esm/api';

await tsImport('./document-thread-main.ts', import.meta.url);
