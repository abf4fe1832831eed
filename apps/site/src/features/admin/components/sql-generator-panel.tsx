import { Copy, ExternalLink, ShieldCheck } from 'lucide-react';
import { useEffect, useId, useRef } from 'react';
import { toast } from 'sonner';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Textarea } from '@/components/ui/textarea';
import { toasts } from '../lib/messages';
import { buildVerifySql } from '../lib/verify-sql';

export interface SqlGeneratorPanelProps {
  ids: readonly string[];
  /** The hosted project's SQL editor, or null when the auth is embedded (no SQL editor exists). */
  editorUrl: string | null;
  onClose: () => void;
  onVerify: () => void;
  verifying: boolean;
}

/** The SQL Query Generator: read-only SQL for the selected users, Copy, Open SQL Editor, Close. */
export function SqlGeneratorPanel({ ids, editorUrl, onClose, onVerify, verifying }: SqlGeneratorPanelProps) {
  const id = useId();
  const sql = buildVerifySql(ids);
  const textarea = useRef<HTMLTextAreaElement>(null);
  // The panel opens below a list that may be long: take the reader (and keyboard focus) to the SQL.
  useEffect(() => textarea.current?.focus(), []);

  async function copy(): Promise<boolean> {
    try {
      await navigator.clipboard.writeText(sql);
      toast.success(toasts.copied);
      return true;
    } catch {
      toast.error(toasts.copyFailed);
      return false;
    }
  }

  async function openEditor(url: string) {
    // Open first, inside the click, so pop-up blockers allow it; then copy.
    window.open(url, '_blank', 'noopener,noreferrer');
    await copy();
  }

  return (
    <Card aria-labelledby={`${id}-title`} className="border-sky-300">
      <CardHeader>
        <div className="grid gap-1.5">
          <CardTitle id={`${id}-title`}>SQL Query Generator</CardTitle>
          <CardDescription>
            Run this in the SQL editor of the auth database to confirm the {ids.length} selected user
            {ids.length === 1 ? '' : 's'}.
          </CardDescription>
        </div>
      </CardHeader>
      <CardContent className="grid gap-3">
        <label htmlFor={`${id}-sql`} className="sr-only">
          Generated SQL
        </label>
        <Textarea
          ref={textarea}
          id={`${id}-sql`}
          readOnly
          value={sql}
          rows={Math.min(14, 6 + ids.length)}
          className="font-mono text-xs"
        />
        <div className="flex flex-wrap gap-2">
          <Button onClick={copy}>
            <Copy aria-hidden /> Copy SQL
          </Button>
          {/* The embedded auth has no SQL editor: no button that could only say so. */}
          {editorUrl && (
            <Button variant="outline" onClick={() => void openEditor(editorUrl)}>
              <ExternalLink aria-hidden /> Open SQL Editor
            </Button>
          )}
          <Button variant="outline" onClick={onClose}>
            Close
          </Button>
        </div>
        {!editorUrl && (
          <Alert>
            <AlertDescription>
              <p>
                This site uses the embedded auth service, which has no SQL editor. Verify the selected users
                here instead.
              </p>
              <Button size="sm" onClick={onVerify} disabled={verifying}>
                <ShieldCheck aria-hidden /> Verify selected
              </Button>
            </AlertDescription>
          </Alert>
        )}
        <p className="text-sm text-muted-foreground">
          After running the SQL, click the refresh button to see the updated user lists.
        </p>
      </CardContent>
    </Card>
  );
}
