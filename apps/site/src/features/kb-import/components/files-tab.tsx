import {
  CheckCircle2Icon,
  CircleIcon,
  Loader2Icon,
  RefreshCwIcon,
  RotateCcwIcon,
  Trash2Icon,
  UploadIcon,
  XCircleIcon,
  XIcon,
} from 'lucide-react';
import { useId, useRef, useState, type DragEvent } from 'react';
import { ACCEPT_ATTRIBUTE } from '../lib/file-types';
import { formatSize } from '../lib/format-size';
import type { UploadedFileRecord } from '../lib/storage';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { Progress } from '@/components/ui/progress';
import { cn } from '@/lib/utils';
import type { KbImport } from './types';

function StatusIcon({ status }: { status: string }) {
  if (status === 'done') return <CheckCircle2Icon className="size-4 text-emerald-600" aria-hidden />;
  if (status === 'failed') return <XCircleIcon className="size-4 text-destructive" aria-hidden />;
  if (status === 'processing' || status === 'uploading')
    return <Loader2Icon className="size-4 animate-spin text-sky-600" aria-hidden />;
  return <CircleIcon className="size-4 text-muted-foreground" aria-hidden />;
}

const statusVariant = (status: string) =>
  status === 'done' ? 'success' : status === 'failed' ? 'destructive' : 'secondary';

export function FilesTab({ kb }: { kb: KbImport }) {
  const { state, controller } = kb;
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const { upload, selected, uploaded, checked, retriable } = state;
  const deletable = uploaded.filter((f) => !f.id.startsWith('local-'));
  const allChecked = deletable.length > 0 && checked.length === deletable.length;

  const take = (list: FileList | null) => {
    const files = list ? Array.from(list) : [];
    if (inputRef.current) inputRef.current.value = '';
    void controller.addFiles(files);
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    take(e.dataTransfer.files);
  };

  return (
    <div className="flex flex-col gap-6">
      <div
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={cn(
          'flex flex-col items-center gap-3 rounded-lg border-2 border-dashed border-border p-6 text-center',
          dragging && 'border-accent bg-sky-50',
        )}
      >
        <UploadIcon className="size-6 text-muted-foreground" aria-hidden />
        <p className="text-sm text-muted-foreground">
          Drop files here, or choose them. Supported: .txt, .pdf, .docx, .doc, .csv, .md, .tsv, .yaml, .json,
          .xml, .log
        </p>
        <input
          ref={inputRef}
          id={inputId}
          type="file"
          multiple
          accept={ACCEPT_ATTRIBUTE}
          className="peer sr-only"
          onChange={(e) => take(e.target.files)}
        />
        <label
          htmlFor={inputId}
          className="inline-flex h-9 cursor-pointer items-center gap-2 rounded-md border border-border bg-background px-4 text-sm font-medium hover:bg-muted peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-ring"
        >
          Choose files
        </label>
        {state.screening && (
          <p className="flex items-center gap-2 text-sm">
            <Loader2Icon className="size-4 animate-spin" aria-hidden /> Checking for duplicates…
          </p>
        )}
      </div>

      <section aria-labelledby="kb-selected-heading" className="flex flex-col gap-2">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="kb-selected-heading" className="text-base font-semibold">
            Selected files ({selected.length})
          </h2>
          <div className="flex gap-2">
            {selected.length > 0 && !upload.running && (
              <Button variant="ghost" size="sm" onClick={() => controller.clearSelection()}>
                Clear selection
              </Button>
            )}
            {upload.running ? (
              <Button variant="outline" size="sm" onClick={() => controller.cancelUpload()}>
                Cancel upload
              </Button>
            ) : (
              <Button size="sm" disabled={selected.length === 0} onClick={() => void controller.upload()}>
                <UploadIcon aria-hidden /> Upload{' '}
                {selected.length > 0 ? `${selected.length} file(s)` : 'files'}
              </Button>
            )}
          </div>
        </div>
        {selected.length === 0 ? (
          <p className="text-sm text-muted-foreground">No files selected.</p>
        ) : (
          <ul
            className="max-h-32 overflow-y-auto rounded-md border border-border"
            aria-label="Selected files"
          >
            {selected.map((s) => (
              <li
                key={s.key}
                className="flex items-center justify-between gap-2 border-b border-border px-3 py-1 text-sm last:border-0"
              >
                <span className="truncate">{s.file.name}</span>
                <span className="flex items-center gap-2">
                  <span className="text-muted-foreground">{formatSize(s.file.size)}</span>
                  <Button
                    variant="ghost"
                    size="icon"
                    className="size-7"
                    aria-label={`Remove ${s.file.name} from the selection`}
                    onClick={() => controller.unselect(s.key)}
                  >
                    <XIcon aria-hidden />
                  </Button>
                </span>
              </li>
            ))}
          </ul>
        )}
        {upload.total > 0 && (upload.running || upload.finished < upload.total) && (
          <div className="flex flex-col gap-1">
            <Progress value={(upload.finished / upload.total) * 100} aria-label="Overall upload progress" />
            <p className="text-sm text-muted-foreground">
              {upload.finished} of {upload.total} file(s) sent
            </p>
          </div>
        )}
      </section>

      <section aria-labelledby="kb-uploaded-heading" className="flex flex-col gap-2">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="kb-uploaded-heading" className="text-base font-semibold">
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
              onClick={() => void controller.deleteChecked()}
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
            <ul
              className="max-h-96 overflow-y-auto rounded-md border border-border"
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
                />
              ))}
            </ul>
          </>
        )}
      </section>
    </div>
  );
}

function UploadedRow({
  file,
  progress,
  checked,
  canRetry,
  busy,
  kb,
}: {
  file: UploadedFileRecord;
  progress: number;
  checked: boolean;
  canRetry: boolean;
  busy: boolean;
  kb: KbImport;
}) {
  const inFlight = file.id.startsWith('local-');
  return (
    <li
      className="flex flex-col gap-1 border-b border-border px-3 py-2 text-sm last:border-0"
      aria-label={file.name}
    >
      <div className="flex items-center gap-2">
        <Checkbox
          aria-label={`Select ${file.name}`}
          checked={checked}
          disabled={inFlight}
          onCheckedChange={(v) => kb.controller.toggleChecked(file.id, v === true)}
        />
        <StatusIcon status={file.status} />
        <span className="min-w-0 flex-1 truncate" title={file.name}>
          {file.name}
        </span>
        <span className="text-muted-foreground">{formatSize(file.bytes)}</span>
        <Badge variant={statusVariant(file.status)}>{file.status}</Badge>
        {file.status === 'failed' && (
          <Button
            variant="ghost"
            size="icon"
            className="size-7"
            disabled={!canRetry}
            aria-label={`Retry ${file.name}`}
            title={canRetry ? undefined : 'Choose the file again to retry: its original is no longer held'}
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
          onClick={() => void kb.controller.delete([file.id])}
        >
          <Trash2Icon aria-hidden />
        </Button>
      </div>
      {file.status !== 'done' && file.status !== 'failed' && (
        <Progress value={progress} aria-label={`${file.name} progress`} className="h-1.5" />
      )}
      {file.error && <p className="text-xs text-destructive">{file.error}</p>}
    </li>
  );
}
