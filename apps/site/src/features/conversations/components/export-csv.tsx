import type { ProviderCall, ProviderChat } from '@engage/http-contract/conversations';
import {
  matchesSearch,
  toConversations,
  visitorTookPart,
  type Conversation,
} from '@engage/http-contract/conversations';
import { Download } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { datedFileName, downloadBlob } from '@/lib/download';
import { useConversationsApi } from '../hooks/queries';
import { conversationsCsv } from '../lib/csv';
import type { Filters } from '../lib/filters';
import { errorText } from '../lib/format';

/** Pages of the export and their size: at most 10 000 rows of each list in one file. */
const EXPORT_PAGE_SIZE = 100;
const EXPORT_MAX_PAGES = 100;

export interface ExportCsvProps {
  filters: Filters;
  keep: (conversation: Conversation) => boolean;
  assistantName: (id: string | null) => string;
  /** What the page's live region says: progress, then the result. */
  onStatus: (text: string, busy: boolean) => void;
}

/** Export CSV: every conversation of the current filters (search included), not only those loaded. */
export function ExportCsv({ filters, keep, assistantName, onStatus }: ExportCsvProps) {
  const api = useConversationsApi();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function run() {
    setBusy(true);
    setError(null);
    onStatus('Exporting conversations…', true);
    try {
      const calls: ProviderCall[] = [];
      const chats: ProviderChat[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < EXPORT_MAX_PAGES; page++) {
        const got = await api.listPage(filters, cursor, { pageSize: EXPORT_PAGE_SIZE });
        calls.push(...got.calls);
        chats.push(...got.chats);
        onStatus(`Exporting conversations… ${calls.length + chats.length} read`, true);
        cursor = got.nextCursor;
        if (!cursor) break;
      }
      const rows = toConversations(calls, chats).filter(
        (c) => keep(c) && visitorTookPart(c) && matchesSearch(c, filters.search),
      );
      const blob = new Blob([conversationsCsv(rows, assistantName)], { type: 'text/csv;charset=utf-8' });
      downloadBlob(blob, datedFileName('conversations', 'csv'));
      onStatus(`Exported ${rows.length} conversation${rows.length === 1 ? '' : 's'}.`, false);
    } catch (e) {
      setError(`The export failed: ${errorText(e)}`);
      onStatus('', false);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="grid justify-items-start gap-1">
      <Button variant="outline" onClick={() => void run()} disabled={busy} aria-busy={busy}>
        <Download aria-hidden /> {busy ? 'Exporting…' : 'Export CSV'}
      </Button>
      {error && (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
