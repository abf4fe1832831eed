import { useId, useState } from 'react';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/utils';
import type { AssistantName } from '../api/conversations-api';
import { filtersProblem, MAX_SEARCH, type Filters, type Kind } from '../lib/filters';

const selectClass = cn(
  'h-9 w-full rounded-md border border-border bg-background px-2 text-sm shadow-xs',
  'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring',
);

export interface ConversationFiltersProps {
  filters: Filters;
  onChange: (filters: Filters) => void;
  assistants: readonly AssistantName[];
}

/** How many of the folded filters are set (the phone's "More filters" button says so). */
export const activeFilterCount = (f: Filters): number =>
  [f.assistantId !== '', f.kind !== 'all', f.from !== '', f.to !== ''].filter(Boolean).length;

/**
 * Search, assistant, kind and date range. Native controls: the platform's own keyboard use and
 * announcements. A range that cannot be (a date that is none, an end before the start) is said
 * under the dates, where the user is looking. On a phone only the search shows at first: the other
 * four fold behind "More filters" (which says how many are set), so the conversations are on the
 * first screen.
 */
export function ConversationFilters({ filters, onChange, assistants }: ConversationFiltersProps) {
  const id = useId();
  const problem = filtersProblem(filters);
  const set = (patch: Partial<Filters>) => onChange({ ...filters, ...patch });
  const [unfolded, setUnfolded] = useState(false);
  const active = activeFilterCount(filters);
  // A date problem is said beside the dates: they unfold to show it.
  const open = unfolded || problem !== null;
  return (
    <form
      role="search"
      aria-label="Filter conversations"
      className="grid gap-3 sm:grid-cols-2 lg:grid-cols-6"
      onSubmit={(e) => e.preventDefault()}
    >
      {/* Two columns wide: its placeholder is read whole. */}
      <div className="grid gap-1.5 sm:col-span-2">
        <Label htmlFor={`${id}-search`}>Search</Label>
        <Input
          id={`${id}-search`}
          type="search"
          value={filters.search}
          maxLength={MAX_SEARCH}
          placeholder="Words in the conversation"
          onChange={(e) => set({ search: e.target.value })}
        />
      </div>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={`${id}-more`}
        disabled={problem !== null}
        onClick={() => setUnfolded((v) => !v)}
        className="h-9 justify-self-start rounded-md border border-border px-3 text-sm sm:hidden"
      >
        {open ? 'Fewer filters' : active ? `More filters (${active} set)` : 'More filters'}
      </button>
      <div id={`${id}-more`} className={open ? 'contents' : 'hidden sm:contents'}>
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-assistant`}>Assistant</Label>
          <select
            id={`${id}-assistant`}
            className={selectClass}
            value={filters.assistantId}
            onChange={(e) => set({ assistantId: e.target.value })}
          >
            <option value="">All assistants</option>
            {assistants.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-kind`}>Kind</Label>
          <select
            id={`${id}-kind`}
            className={selectClass}
            value={filters.kind}
            onChange={(e) => set({ kind: e.target.value as Kind })}
          >
            <option value="all">Voice and chat</option>
            <option value="voice">Voice</option>
            <option value="chat">Chat</option>
          </select>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-from`}>From</Label>
          <Input
            id={`${id}-from`}
            type="date"
            value={filters.from}
            aria-invalid={problem !== null && problem.includes('start')}
            aria-describedby={problem ? `${id}-problem` : undefined}
            onChange={(e) => set({ from: e.target.value })}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-to`}>To</Label>
          <Input
            id={`${id}-to`}
            type="date"
            value={filters.to}
            aria-invalid={problem !== null && !problem.includes('start date is')}
            aria-describedby={problem ? `${id}-problem` : undefined}
            onChange={(e) => set({ to: e.target.value })}
          />
        </div>
      </div>
      {problem && (
        <p id={`${id}-problem`} role="alert" className="text-sm text-destructive sm:col-span-2 lg:col-span-6">
          {problem}
        </p>
      )}
    </form>
  );
}
