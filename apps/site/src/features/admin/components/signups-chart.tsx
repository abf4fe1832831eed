import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';

const WIDTH = 600;
const HEIGHT = 120;

/** A small bar chart of sign-ups per day, drawn as inline SVG (no chart library). */
export function SignupsChart({ days }: { days: { day: string; count: number }[] }) {
  const total = days.reduce((sum, d) => sum + d.count, 0);
  const peak = Math.max(1, ...days.map((d) => d.count));
  const slot = WIDTH / Math.max(1, days.length);
  const first = days[0]?.day;
  const last = days[days.length - 1]?.day;
  const summary = `${total} sign-up${total === 1 ? '' : 's'} in the last ${days.length} days, at most ${peak === 1 && total === 0 ? 0 : peak} a day`;
  return (
    <Card className="gap-3 py-4">
      <CardHeader className="px-4">
        <CardTitle level={2} className="text-base">
          Sign-ups per day
        </CardTitle>
        <CardDescription>{summary}</CardDescription>
      </CardHeader>
      <CardContent className="px-4">
        <svg
          viewBox={`0 0 ${WIDTH} ${HEIGHT + 4}`}
          className="h-28 w-full text-sky-600"
          role="img"
          aria-label={`Sign-ups per day from ${first} to ${last}: ${summary}`}
          preserveAspectRatio="none"
        >
          <line x1="0" x2={WIDTH} y1={HEIGHT} y2={HEIGHT} className="stroke-slate-300" strokeWidth="1" />
          {days.map((d, i) => {
            const h = d.count === 0 ? 0 : Math.max(2, (d.count / peak) * HEIGHT);
            return (
              <rect
                key={d.day}
                x={i * slot + slot * 0.15}
                y={HEIGHT - h}
                width={slot * 0.7}
                height={h}
                rx="1.5"
                fill="currentColor"
              >
                <title>{`${d.day}: ${d.count}`}</title>
              </rect>
            );
          })}
        </svg>
        <div className="mt-1 flex justify-between text-xs text-muted-foreground" aria-hidden>
          <span>{first}</span>
          <span>{last}</span>
        </div>
      </CardContent>
    </Card>
  );
}
