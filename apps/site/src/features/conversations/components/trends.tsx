import { STATS_PERIODS, type ConversationStats } from '@engage/http-contract/conversations';
import { lazy, Suspense, useId, useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { useConversationStats } from '../hooks/queries';
import { LoadFailed } from './load-failed';
import { StatusLine } from './status-line';
import type { TrendSeries } from './trend-chart';

// The chart library comes with the charts, after the page's first paint.
const TrendChart = lazy(() => import('./trend-chart').then((m) => ({ default: m.TrendChart })));

type Period = (typeof STATS_PERIODS)[number];

const percent = (share: number) => `${Math.round(share * 100)}%`;
const dayLabel = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });

/** A chart and, for screen readers and anyone who wants the numbers, its table. */
function TrendFigure(props: {
  title: string;
  days: readonly string[];
  series: TrendSeries[];
  format?: (value: number) => string;
  share?: boolean;
}) {
  const { title, days, series, format = String, share = false } = props;
  const id = useId();
  return (
    <figure aria-labelledby={`${id}-title`} className="grid gap-2 rounded-lg border border-border p-3">
      <figcaption id={`${id}-title`} className="text-sm font-medium">
        {title}
      </figcaption>
      <Suspense fallback={<div className="min-h-[180px]" />}>
        <TrendChart days={days} series={series} format={format} share={share} />
      </Suspense>
      <details>
        <summary className="cursor-pointer text-sm text-muted-foreground">Table view</summary>
        {/* Focusable, so the table scrolls by keyboard (axe: scrollable-region-focusable). */}
        {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
        <div className="max-h-64 overflow-auto" tabIndex={0} role="region" aria-label={`${title}, table`}>
          <table className="w-full text-sm tabular-nums">
            <caption className="sr-only">{title}</caption>
            <thead>
              <tr>
                <th scope="col" className="text-left">
                  Day
                </th>
                {series.map((s) => (
                  <th key={s.label} scope="col" className="text-right">
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {days.map((day, i) => (
                <tr key={day}>
                  <th scope="row" className="text-left font-normal">
                    <time dateTime={day}>{dayLabel(day)}</time>
                  </th>
                  {series.map((s) => (
                    <td key={s.label} className="text-right">
                      {s.values[i] === null || s.values[i] === undefined ? '–' : format(s.values[i])}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}

function Figure({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="grid gap-0.5 rounded-lg border border-border p-3">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-xl font-semibold tabular-nums">{value}</dd>
    </div>
  );
}

function Figures({ stats }: { stats: ConversationStats }) {
  const { totals, perDay } = stats;
  const days = perDay.map((d) => d.day);
  return (
    <>
      <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        <Figure label="Conversations" value={totals.conversations.toLocaleString()} />
        <Figure label="Could not answer" value={percent(totals.unansweredShare)} />
        <Figure label="Questions waiting for an answer" value={totals.waiting.toLocaleString()} />
        <Figure label="Answers mailed" value={totals.mailed.toLocaleString()} />
      </dl>
      <div className="grid gap-3 lg:grid-cols-2">
        <TrendFigure
          title="Conversations per day"
          days={days}
          series={[
            { label: 'Calls', values: perDay.map((d) => d.calls), stroke: '#2563eb', bars: true },
            { label: 'Chats', values: perDay.map((d) => d.chats), stroke: '#059669', bars: true },
          ]}
        />
        <TrendFigure
          title="Share the assistant could not answer, per day"
          days={days}
          format={percent}
          share
          series={[
            {
              label: 'Could not answer',
              values: perDay.map((d) =>
                d.calls + d.chats === 0 ? null : d.unanswered / (d.calls + d.chats),
              ),
              stroke: '#d97706',
            },
          ]}
        />
        <TrendFigure
          title="Answers mailed per day"
          days={days}
          series={[
            { label: 'Answers mailed', values: perDay.map((d) => d.mailed), stroke: '#7c3aed', bars: true },
          ]}
        />
      </div>
    </>
  );
}

/**
 * The dashboard /conversations opens on: conversations per day, the share the assistant could not
 * answer, the questions a visitor waits on for an answer by mail and the answers mailed, over 7, 30 or 90 days.
 */
export function Trends() {
  const [days, setDays] = useState<Period>(30);
  const stats = useConversationStats(days);
  return (
    <section aria-labelledby="trends-heading" className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="trends-heading" className="text-lg font-semibold">
          Trends
        </h2>
        <div role="group" aria-label="Period" className="flex gap-1">
          {STATS_PERIODS.map((period) => (
            <Button
              key={period}
              size="sm"
              variant={period === days ? 'default' : 'outline'}
              aria-pressed={period === days}
              onClick={() => setDays(period)}
            >
              {period} days
            </Button>
          ))}
        </div>
      </div>
      <StatusLine
        busy={stats.isFetching}
        text={
          stats.isPending
            ? 'Loading the trends…'
            : stats.data?.indexedAt === null
              ? 'Still reading the conversations from the provider: the figures fill in as it goes.'
              : stats.isSuccess
                ? `The last ${stats.data.days} days.`
                : ''
        }
      />
      {stats.isError && (
        <LoadFailed what="The trends" error={stats.error} onRetry={() => void stats.refetch()} />
      )}
      {stats.data && <Figures stats={stats.data} />}
    </section>
  );
}
