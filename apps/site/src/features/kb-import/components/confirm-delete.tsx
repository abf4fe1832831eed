import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { isLocalOnlyId } from '../lib/reducer';
import type { UploadedFileRecord } from '../lib/storage';

const count = (n: number) => `${n} ${n === 1 ? 'file' : 'files'}`;

/** What the confirmation says: how many, from where, and which only leave the list. */
export function deleteQuestion(
  files: readonly Pick<UploadedFileRecord, 'id' | 'name'>[],
  providerName: string,
  /** The names of the query tools and knowledge bases using a file (knowledge-in-use.ts). */
  usersOf: (fileId: string) => readonly string[] = () => [],
): { title: string; description: string; action: string } {
  const local = files.filter((f) => isLocalOnlyId(f.id)).length;
  const remote = files.length - local;
  const what = files.length === 1 ? `"${files[0]?.name ?? ''}"` : count(files.length);
  const parts = [
    remote > 0
      ? `${remote === files.length ? what : count(remote)} will be deleted from ${providerName}. This cannot be undone.`
      : '',
    local > 0
      ? `${local === files.length ? what : count(local)} never reached ${providerName} and will only be removed from this list.`
      : '',
    // Warned by name: a tool or base that uses a deleted file stops finding what it held.
    ...files.flatMap((f) => {
      const users = usersOf(f.id);
      return users.length > 0
        ? [`${f.name} is used by ${users.join(', ')}, which will no longer find its content.`]
        : [];
    }),
  ];
  return {
    title: `Delete ${count(files.length)}?`,
    description: parts.filter(Boolean).join(' '),
    action: `Delete ${count(files.length)}`,
  };
}

/**
 * The confirmation before files are deleted (one or many): a modal alert dialog, focus inside it,
 * Escape or Cancel leaves everything as it was.
 */
export function ConfirmDelete({
  files,
  providerName,
  usersOf,
  onConfirm,
  onCancel,
  onClosed,
}: {
  /** The files asked about; null while nothing is asked. */
  files: readonly UploadedFileRecord[] | null;
  providerName: string;
  usersOf?: (fileId: string) => readonly string[];
  onConfirm: () => void;
  onCancel: () => void;
  /** Where focus goes once the dialog has closed (it has no trigger of its own to go back to). */
  onClosed: () => void;
}) {
  const question = files && files.length > 0 ? deleteQuestion(files, providerName, usersOf) : null;
  return (
    <AlertDialog open={question !== null} onOpenChange={(open) => !open && onCancel()}>
      {question && (
        <AlertDialogContent
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            onClosed();
          }}
        >
          <AlertDialogHeader>
            <AlertDialogTitle>{question.title}</AlertDialogTitle>
            <AlertDialogDescription>{question.description}</AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction variant="destructive" onClick={onConfirm}>
              {question.action}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      )}
    </AlertDialog>
  );
}
