import { formatSize } from '@engage/http-contract';
import { UploadIcon, XIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Progress } from '@/components/ui/progress';
import type { KbImport } from '../hooks/use-kb-import';
import { FileName } from './file-name';

/** The files chosen but not sent yet, with the upload's controls and overall progress. */
export function SelectedFiles({ kb }: { kb: KbImport }) {
  const { state, controller } = kb;
  const { upload, selected } = state;
  return (
    <section aria-labelledby="kb-selected-heading" className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="kb-selected-heading" className="text-base font-semibold">
          Selected files ({selected.length})
        </h2>
        <div className="flex flex-wrap gap-2">
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
              <UploadIcon aria-hidden /> Upload {selected.length > 0 ? `${selected.length} file(s)` : 'files'}
            </Button>
          )}
        </div>
      </div>
      {selected.length === 0 ? (
        <p className="text-sm text-muted-foreground">No files selected.</p>
      ) : (
        <ul className="max-h-32 overflow-y-auto rounded-md border border-border" aria-label="Selected files">
          {selected.map((s) => (
            <li
              key={s.key}
              className="flex items-center justify-between gap-2 border-b border-border px-3 py-1 text-sm last:border-0"
            >
              <FileName name={s.file.name} />
              <span className="flex shrink-0 items-center gap-2">
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
  );
}
