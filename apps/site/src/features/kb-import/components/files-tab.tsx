import type { KbImport } from '../hooks/use-kb-import';
import { FileDropZone } from './file-drop-zone';
import { SelectedFiles } from './selected-files';
import { StarterNote } from './starter-note';
import { UploadedFiles } from './uploaded-files';

/** The Files tab: choose files, upload the selection, manage what the provider holds. */
export function FilesTab({ kb }: { kb: KbImport }) {
  return (
    <div className="flex flex-col gap-6">
      <FileDropZone onFiles={(files) => void kb.controller.addFiles(files)} screening={kb.state.screening} />
      <SelectedFiles kb={kb} />
      <StarterNote names={kb.state.uploaded.map((f) => f.name)} />
      <UploadedFiles kb={kb} />
    </div>
  );
}
