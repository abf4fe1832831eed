import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from '@/components/ui/button';

/** Previous / next over keyset pages, with where the reader is. */
export function Pager({
  label,
  page,
  pageSize,
  shown,
  total,
  hasNext,
  onPrevious,
  onNext,
}: {
  label: string;
  page: number;
  pageSize: number;
  shown: number;
  total: number;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
}) {
  if (page === 0 && !hasNext) return null;
  const from = page * pageSize + 1;
  return (
    <nav
      aria-label={`${label} pages`}
      className="flex flex-wrap items-center justify-between gap-2 pt-3 text-sm"
    >
      <span className="text-muted-foreground" aria-live="polite">
        {shown === 0
          ? 'No users'
          : `${from.toLocaleString()}–${(from + shown - 1).toLocaleString()} of ${total.toLocaleString()}`}
      </span>
      <span className="flex gap-2">
        <Button variant="outline" size="sm" onClick={onPrevious} disabled={page === 0}>
          <ChevronLeft aria-hidden /> Previous
        </Button>
        <Button variant="outline" size="sm" onClick={onNext} disabled={!hasNext}>
          Next <ChevronRight aria-hidden />
        </Button>
      </span>
    </nav>
  );
}

/** The cursor stack behind a Pager: page n is read with cursors[n]. */
export interface PageCursors {
  cursors: (string | null)[];
  page: number;
}
export const firstPage = (): PageCursors => ({ cursors: [null], page: 0 });
export const nextPage = (p: PageCursors, next: string): PageCursors => ({
  cursors: [...p.cursors.slice(0, p.page + 1), next],
  page: p.page + 1,
});
export const previousPage = (p: PageCursors): PageCursors => ({ ...p, page: Math.max(0, p.page - 1) });
