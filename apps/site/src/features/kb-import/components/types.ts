import type { useKbImport } from '../hooks/use-kb-import';

export type KbImport = ReturnType<typeof useKbImport>;
