import type { Conversation, Role } from '@engage/http-contract/conversations';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmRemove } from '@/components/ui/confirm-remove';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { useConversationDetail, useDeleteConversation } from '../hooks/queries';
import { errorText, formatDuration, formatTime, kindLabel } from '../lib/format';
import { StatusLine } from './status-line';

const ROLE_NAMES: Record<Role, string> = {
  visitor: 'Visitor',
  assistant: 'Assistant',
  system: 'System',
  tool: 'Tool',
};

export interface ConversationDetailProps {
  conversation: Conversation | null;
  assistantName: (id: string | null) => string;
  onClose: () => void;
  /** Told once the conversation is gone, for the page's own announcement. */
  onDeleted: (conversation: Conversation) => void;
}

/**
 * One conversation whole: who said what, and when. Delete (a visitor's privacy request) asks
 * first; the provider then deletes the call, or every chat of the session.
 */
export function ConversationDetail({
  conversation,
  assistantName,
  onClose,
  onDeleted,
}: ConversationDetailProps) {
  const detail = useConversationDetail(conversation);
  const remove = useDeleteConversation();
  const [confirming, setConfirming] = useState(false);
  const shown = detail.data ?? conversation;

  /** A refusal rejects: ConfirmRemove shows it in the dialog, where the user is looking. */
  async function confirmDelete() {
    if (!conversation) return;
    await remove.mutateAsync(conversation);
    onDeleted(conversation);
  }

  return (
    <Dialog
      open={conversation !== null}
      onOpenChange={(open) => {
        if (!open && !remove.isPending) {
          remove.reset();
          onClose();
        }
      }}
    >
      <DialogContent className="sm:max-w-2xl">
        {shown && (
          <>
            <DialogHeader>
              <DialogTitle>
                {kindLabel(shown.kind)} conversation with {assistantName(shown.assistantId)}
              </DialogTitle>
              <DialogDescription>
                {formatTime(shown.startedAt)} · {formatDuration(shown.durationSeconds)}
                {shown.endedReason ? ` · ended: ${shown.endedReason}` : ''}
              </DialogDescription>
            </DialogHeader>
            <StatusLine
              busy={detail.isFetching || remove.isPending}
              text={
                remove.isPending
                  ? 'Deleting the conversation…'
                  : detail.isFetching
                    ? 'Loading the transcript…'
                    : ''
              }
            />
            {detail.isError && (
              <p role="alert" className="text-sm text-destructive">
                The whole transcript could not be loaded: {errorText(detail.error)}
              </p>
            )}
            <ol aria-label="Transcript" className="grid gap-2">
              {shown.lines.map((line, i) => (
                <li
                  key={i}
                  className={
                    line.role === 'visitor'
                      ? 'rounded-md bg-muted p-2 text-sm break-words'
                      : 'rounded-md border border-border p-2 text-sm break-words'
                  }
                >
                  <span className="font-medium">{ROLE_NAMES[line.role]}</span>
                  {line.at !== null && (
                    <time
                      className="ml-2 text-xs text-muted-foreground"
                      dateTime={new Date(line.at).toISOString()}
                    >
                      {new Date(line.at).toLocaleTimeString()}
                    </time>
                  )}
                  <p className="mt-1 whitespace-pre-wrap">{line.text}</p>
                </li>
              ))}
            </ol>
            {shown.lines.length === 0 && <p className="text-sm text-muted-foreground">Nothing was said.</p>}
            <div className="flex justify-end">
              <Button variant="destructive" onClick={() => setConfirming(true)} disabled={remove.isPending}>
                <Trash2 aria-hidden /> Delete conversation
              </Button>
            </div>
            <ConfirmRemove
              open={confirming}
              onOpenChange={setConfirming}
              title="Delete this conversation?"
              description="The provider deletes its transcript for good. This cannot be undone."
              confirmLabel="Delete"
              onConfirm={confirmDelete}
              errorText={(error) => `The conversation was not deleted: ${errorText(error)}`}
            />
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
