import type { Conversation } from '@engage/http-contract/conversations';
import { MessageSquareText, Phone } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { formatDuration, formatTime, kindLabel } from '../lib/format';

export interface ConversationListProps {
  conversations: readonly Conversation[];
  assistantName: (id: string | null) => string;
  onOpen: (conversation: Conversation) => void;
}

/**
 * The conversations, newest first: one card per row, which stays readable at 320 px where a table
 * would scroll sideways. The first question opens the whole transcript.
 */
export function ConversationList({ conversations, assistantName, onOpen }: ConversationListProps) {
  return (
    <ul aria-label="Conversations" className="grid gap-2">
      {conversations.map((c) => {
        const Icon = c.kind === 'voice' ? Phone : MessageSquareText;
        return (
          <li key={c.key} className="rounded-lg border border-border bg-background p-3 shadow-xs">
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-muted-foreground">
              <Badge variant="secondary" className="gap-1">
                <Icon className="size-3" aria-hidden />
                {kindLabel(c.kind)}
              </Badge>
              <span className="font-medium text-foreground">{assistantName(c.assistantId)}</span>
              <time dateTime={new Date(c.startedAt).toISOString()}>{formatTime(c.startedAt)}</time>
              <span>
                <span className="sr-only">Duration </span>
                {formatDuration(c.durationSeconds)}
              </span>
            </div>
            <button
              type="button"
              onClick={() => onOpen(c)}
              className="mt-2 block w-full rounded-sm text-left text-sm break-words hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
            >
              <span className="sr-only">Open the conversation: </span>
              {c.firstQuestion || <span className="text-muted-foreground italic">No question asked</span>}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
