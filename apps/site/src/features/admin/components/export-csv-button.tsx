import { Download } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { datedFileName, downloadBlob } from '@/lib/download';
import { useAdminApi } from '../api/queries';
import { actionToasts } from '../lib/messages';

/** Export CSV: downloads every user matching the search (the server streams the file). */
export function ExportCsvButton({ search }: { search: string }) {
  const api = useAdminApi();
  const [busy, setBusy] = useState(false);

  async function download() {
    setBusy(true);
    try {
      const blob = await api.exportCsv({ status: 'all', search });
      downloadBlob(blob, datedFileName('users', 'csv'));
      toast.success(actionToasts.exported);
    } catch (error) {
      toast.error(actionToasts.exportFailed, {
        description: error instanceof Error ? error.message : undefined,
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Button variant="outline" onClick={() => void download()} disabled={busy}>
      <Download aria-hidden /> {busy ? 'Exporting…' : 'Export CSV'}
    </Button>
  );
}
