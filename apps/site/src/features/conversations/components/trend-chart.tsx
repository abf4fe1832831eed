import { useEffect, useRef, useState } from 'react';
import type uPlot from 'uplot';

/**
 * One chart of the trends, drawn by uPlot (loaded with the chart, not with the page) on a canvas
 * that follows its box's width. The canvas is hidden from screen readers: the figure's caption
 * says what it shows, and its table view (TrendTable) gives every value.
 * @module
 */

export interface TrendSeries {
  label: string;
  /** One value per day; null where there is none (a share of no conversations). */
  values: readonly (number | null)[];
  /** A CSS colour. */
  stroke: string;
  /** Drawn as bars (counts) rather than a line (shares). */
  bars?: boolean;
}

export interface TrendChartProps {
  /** Days as YYYY-MM-DD, oldest first. */
  days: readonly string[];
  series: readonly TrendSeries[];
  /** How a value reads on the axis ("12", "40%"). */
  format?: (value: number) => string;
  /** Values are shares (0 to 1): the axis goes from 0 to 100 %. */
  share?: boolean;
  height?: number;
}

const seconds = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;

const DAY_S = 86_400;
/** Whole steps for counts (no "0.5 conversations"); uPlot picks the first that spaces the ticks. */
const COUNT_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 50_000, 100_000];

function options(props: TrendChartProps, width: number, lib: typeof uPlot): uPlot.Options {
  const format = props.format ?? ((v: number) => String(v));
  const share = props.share === true;
  const first = seconds(props.days[0] ?? '1970-01-01');
  const last = seconds(props.days.at(-1) ?? '1970-01-01');
  return {
    width,
    height: props.height ?? 180,
    // The series' names and colours; the values are in the table view.
    legend: { show: true, live: false },
    cursor: { drag: { x: false, y: false } },
    scales: {
      // Half a day either side: the first and last days' bars are whole.
      x: { time: true, range: () => [first - DAY_S / 2, last + DAY_S / 2] },
      y: { range: (_u, _min, max) => (share ? [0, 1] : [0, Math.max(1, max)]) },
    },
    axes: [
      {},
      {
        values: (_u, ticks) => ticks.map((t) => format(t)),
        size: 48,
        ...(share ? {} : { incrs: COUNT_STEPS }),
      },
    ],
    series: [
      {},
      ...props.series.map((s) => ({
        label: s.label,
        stroke: s.stroke,
        fill: s.bars ? `${s.stroke}55` : undefined,
        width: 2,
        // A day alone (no neighbour to join) still shows as a point.
        points: { show: true, size: 5 },
        ...(s.bars && { paths: lib.paths.bars!({ size: [0.7, 40] }), points: { show: false } }),
      })),
    ],
  };
}

export function TrendChart(props: TrendChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  // Drawn again when what it shows changes, not on every render of the page.
  const shown = JSON.stringify([
    props.days,
    props.share,
    props.series.map((s) => [s.label, s.values, s.stroke, s.bars]),
  ]);
  const latest = useRef(props);
  useEffect(() => {
    latest.current = props;
  });
  useEffect(() => {
    const props = latest.current;
    const el = box.current;
    if (!el) return undefined;
    let plot: uPlot | null = null;
    let observer: ResizeObserver | null = null;
    let gone = false;
    void Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')])
      .then(([{ default: UPlot }]) => {
        if (gone) return;
        const data: uPlot.AlignedData = [
          props.days.map(seconds),
          ...props.series.map((s) => s.values.map((v) => v ?? null)),
        ];
        plot = new UPlot(options(props, el.clientWidth || 320, UPlot), data, el);
        observer = new ResizeObserver(() =>
          plot?.setSize({ width: el.clientWidth, height: props.height ?? 180 }),
        );
        observer.observe(el);
      })
      // No canvas (an old browser, a test's DOM): the table view still has every value.
      .catch(() => setFailed(true));
    return () => {
      gone = true;
      observer?.disconnect();
      plot?.destroy();
    };
  }, [shown]);
  return (
    <div
      ref={box}
      aria-hidden="true"
      className="min-h-[180px] w-full overflow-hidden"
      data-chart-failed={failed || undefined}
    />
  );
}
