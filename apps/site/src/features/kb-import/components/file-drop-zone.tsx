import { Loader2Icon, UploadIcon } from 'lucide-react';
import { useId, useRef, useState, type DragEvent } from 'react';
import { cn } from '@/lib/utils';
import { ACCEPT_ATTRIBUTE } from '../lib/file-types';

/** Where files are dropped or chosen; hands every pick to `onFiles` (the controller screens them). */
export function FileDropZone({
  onFiles,
  screening,
}: {
  onFiles: (files: File[]) => void;
  screening: boolean;
}) {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  const take = (list: FileList | null) => {
    const files = list ? Array.from(list) : [];
    // Cleared so choosing the same file again is a change.
    if (inputRef.current) inputRef.current.value = '';
    onFiles(files);
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    take(e.dataTransfer.files);
  };

  return (
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
      <p className="text-sm text-muted-foreground" id={`${inputId}-limits`}>
        Drop files here, or choose them. Up to 10 MB each. Supported: .txt, .pdf, .docx, .doc, .csv, .md,
        .tsv, .yaml, .json, .xml, .log
      </p>
      <input
        ref={inputRef}
        id={inputId}
        type="file"
        multiple
        accept={ACCEPT_ATTRIBUTE}
        aria-describedby={`${inputId}-limits`}
        className="peer sr-only"
        onChange={(e) => take(e.target.files)}
      />
      <label
        htmlFor={inputId}
        className="inline-flex h-9 cursor-pointer items-center gap-2 rounded-md border border-border bg-background px-4 text-sm font-medium hover:bg-muted peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-ring"
      >
        Choose files
      </label>
      {screening && (
        <p className="flex items-center gap-2 text-sm">
          <Loader2Icon className="size-4 animate-spin" aria-hidden /> Checking for duplicates…
        </p>
      )}
    </div>
  );
}
