import { CheckCircle2, Clock, Users } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';

function StatCard({ label, value, icon }: { label: string; value: number | undefined; icon: ReactNode }) {
  return (
    <Card className="gap-2 py-4">
      <CardHeader className="flex-row items-center justify-between gap-2 px-4">
        <CardTitle level={2} className="text-sm font-medium text-muted-foreground">
          {label}
        </CardTitle>
        {icon}
      </CardHeader>
      <CardContent className="px-4">
        <p className="text-3xl font-semibold tabular-nums" aria-label={`${label}: ${value ?? 'loading'}`}>
          {value === undefined ? '–' : value.toLocaleString()}
        </p>
      </CardContent>
    </Card>
  );
}

/** The three stat cards: Total Users, Verified, Pending. */
export function StatCards({
  stats,
}: {
  stats: { total: number; verified: number; pending: number } | undefined;
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-3" aria-label="User statistics" role="group">
      <StatCard label="Total Users" value={stats?.total} icon={<Users className="size-4" aria-hidden />} />
      <StatCard
        label="Verified"
        value={stats?.verified}
        icon={<CheckCircle2 className="size-4 text-emerald-600" aria-hidden />}
      />
      <StatCard
        label="Pending"
        value={stats?.pending}
        icon={<Clock className="size-4 text-amber-600" aria-hidden />}
      />
    </div>
  );
}
