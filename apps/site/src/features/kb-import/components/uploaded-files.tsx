import { formatSize } from '@engage/http-contract';
import {
  CheckCircle2Icon,
  CircleIcon,
  Loader2Icon,
  RefreshCwIcon,
  RotateCcwIcon,
  Trash2Icon,
  XCircleIcon,
} from 'lucide-react';
import { useRef, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { Progress } from '@/components/ui/progress';
import type { KbImport } from '../hooks/use-kb-import';
import { knowledgeEntries, usersOf } from '../lib/knowledge-in-use';
import { isInFlightId } from '../lib/reducer';
import type { UploadedFileRecord } from '../lib/storage';
import { ConfirmDelete } from './confirm-delete';
import { FileName } from './file-name';

function StatusIcon({ status }: { status: string }) {
  if (status === 'done') return <CheckCircle2Icon className="size-4 text-emerald-600" aria-hidden />;
  if (status === 'failed') return <XCircleIcon className="size-4 text-destructive" aria-hidden />;
  if (status === 'processing' || status === 'uploading')
    return <Loader2Icon className="size-4 animate-spin text-sky-600" aria-hidden />;
  return <CircleIcon className="size-4 text-muted-foreground" aria-hidden />;
}

const statusVariant = (status: string) =>
  status === 'done' ? 'success' : status === 'failed' ? 'destructive' : 'secondary';

/** The provider's files: status, retry, delete one or the checked ones, load and refresh. */
export function UploadedFiles({ kb }: { kb: KbImport }) {
  const { state, controller } = kb;
  const { upload, uploaded, checked, retriable } = state;
  const deletable = uploaded.filter((f) => !isInFlightId(f.id));
  const allChecked = deletable.length > 0 && checked.length === deletable.length;
  // The files a delete is waiting on confirmation for.
  const [asking, setAsking] = useState<UploadedFileRecord[] | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const ask = (ids: readonly string[]) => {
    const files = uploaded.filter((f) => ids.includes(f.id));
    if (files.length === 0) return;
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setAsking(files);
  };
  /** Back to the button that asked, or to the list's heading when that button has gone. */
  const refocus = () => {
    if (opener.current?.isConnected && !opener.current.hasAttribute('disabled')) opener.current.focus();
    else heading.current?.focus();
  };
  const confirm = async () => {
    const ids = (asking ?? []).map((f) => f.id);
    setAsking(null);
    await controller.delete(ids);
    // A deleted row takes its button with it: keyboard users continue at the list.
    const active = document.activeElement;
    if (!active || active === document.body) refocus();
  };
  return (
    <section aria-labelledby="kb-uploaded-heading" className="flex flex-col gap-2">
      <ConfirmDelete
        files={asking}
        providerName={kb.providerName}
        usersOf={(id) => usersOf(id, knowledgeEntries(state.knowledgeBases, state.existing))}
        onConfirm={() => void confirm()}
        onCancel={() => setAsking(null)}
        onClosed={refocus}
      />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2
          id="kb-uploaded-heading"
          ref={heading}
          tabIndex={-1}
          className="text-base font-semibold outline-none"
        >
          Uploaded files ({uploaded.length})
        </h2>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" onClick={() => void controller.loadExisting()}>
            Load existing files
          </Button>
          <Button variant="outline" size="sm" onClick={() => void controller.refresh()}>
            <RefreshCwIcon aria-hidden /> Refresh
          </Button>
          {retriable.length > 0 && (
            <Button
              variant="outline"
              size="sm"
              disabled={upload.running}
              onClick={() => void controller.retryAllFailed()}
            >
              <RotateCcwIcon aria-hidden /> Retry failed ({retriable.length})
            </Button>
          )}
          <Button
            variant="destructive"
            size="sm"
            disabled={checked.length === 0 || state.deleting}
            onClick={() => ask(checked)}
          >
            {state.deleting ? (
              <Loader2Icon className="animate-spin" aria-hidden />
            ) : (
              <Trash2Icon aria-hidden />
            )}
            Delete selected ({checked.length})
          </Button>
        </div>
      </div>
      {uploaded.length === 0 ? (
        <p className="text-sm text-muted-foreground">No files uploaded yet.</p>
      ) : (
        <>
          <Label className="w-fit text-sm font-normal">
            <Checkbox
              checked={allChecked ? true : checked.length > 0 ? 'indeterminate' : false}
              onCheckedChange={(v) => controller.setAllChecked(v === true)}
              disabled={deletable.length === 0}
            />
            Select all
          </Label>
          {/* One scroll on a phone (the page's): a nested fixed-height list is hard to scroll by thumb. */}
          <ul
            className="rounded-md border border-border sm:max-h-96 sm:overflow-y-auto"
            aria-label="Uploaded files"
          >
            {uploaded.map((f) => (
              <UploadedRow
                key={f.id}
                file={f}
                progress={state.progress[f.id] ?? 0}
                checked={checked.includes(f.id)}
                canRetry={retriable.includes(f.id) && !upload.running}
                busy={state.deleting}
                kb={kb}
                onDelete={() => ask([f.id])}
              />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function UploadedRow({
  file,
  progress,
  checked,
  canRetry,
  busy,
  kb,
  onDelete,
}: {
  file: UploadedFileRecord;
  progress: number;
  checked: boolean;
  canRetry: boolean;
  busy: boolean;
  kb: KbImport;
  onDelete: () => void;
}) {
  const inFlight = isInFlightId(file.id);
  const contentFailed = file.failure === 'processing';
  return (
    <li
      className="flex flex-col gap-1 border-b border-border px-3 py-2 text-sm last:border-0"
      aria-label={file.name}
    >
      {/* On a phone the size, status and buttons wrap under the name rather than squeeze it. */}
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <Checkbox
          aria-label={`Select ${file.name}`}
          checked={checked}
          disabled={inFlight}
          onCheckedChange={(v) => kb.controller.toggleChecked(file.id, v === true)}
        />
        <StatusIcon status={file.status} />
        <FileName name={file.name} className="min-w-32 flex-1" />
        <span className="ml-auto flex items-center gap-2">
          <span className="text-muted-foreground">{formatSize(file.bytes)}</span>
          <Badge variant={statusVariant(file.status)}>{file.status}</Badge>
          {file.status === 'failed' && (
            <Button
              variant="ghost"
              size="icon"
              className="size-7"
              disabled={!canRetry}
              aria-label={`Retry ${file.name}`}
              title={
                contentFailed
                  ? `${kb.providerName} could not process this content: fix the file, then choose it again`
                  : canRetry
                    ? undefined
                    : 'Choose the file again to retry: its original is no longer held'
              }
              onClick={() => void kb.controller.retry([file.id])}
            >
              <RotateCcwIcon aria-hidden />
            </Button>
          )}
          <Button
            variant="ghost"
            size="icon"
            className="size-7"
            disabled={inFlight || busy}
            aria-label={`Delete ${file.name}`}
            onClick={onDelete}
          >
            <Trash2Icon aria-hidden />
          </Button>
        </span>
      </div>
      {file.status !== 'done' && file.status !== 'failed' && (
        <Progress value={progress} aria-label={`${file.name} progress`} className="h-1.5" />
      )}
      {file.error && <p className="text-xs break-words text-destructive">{file.error}</p>}
    </li>
  );
}
