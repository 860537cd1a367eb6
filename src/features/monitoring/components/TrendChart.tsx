import { formatDate } from "@contract/format";

export interface TrendPoint {
  /** ISO date of the audit. */
  date: string;
  value: number | null;
}

const WIDTH = 320;
const HEIGHT = 96;
const PAD = 8;

/** The points' x and y in the chart's box (nulls skipped), the scale from the smallest to the largest value. */
function layout(points: readonly TrendPoint[], fixedRange?: [number, number]) {
  const values = points
    .map((point) => point.value)
    .filter((value): value is number => value !== null);
  const [low, high] = fixedRange ?? [
    Math.min(...values, 0),
    Math.max(...values, 1),
  ];
  const span = high - low || 1;
  const step = points.length > 1 ? (WIDTH - PAD * 2) / (points.length - 1) : 0;
  return points.flatMap((point, index) =>
    point.value === null
      ? []
      : [
          {
            x: points.length > 1 ? PAD + index * step : WIDTH / 2,
            y: HEIGHT - PAD - ((point.value - low) / span) * (HEIGHT - PAD * 2),
            point,
          },
        ],
  );
}

/**
 * A small line chart of one figure over the audits (plain SVG, no chart library): each point says its
 * date and value on hover and to screen readers; the first and last values are written under it.
 */
export function TrendChart({
  title,
  points,
  format,
  range,
  tone = "money",
}: {
  title: string;
  points: readonly TrendPoint[];
  format: (value: number) => string;
  range?: [number, number];
  tone?: "money" | "score";
}) {
  const placed = layout(points, range);
  if (placed.length === 0) return null;
  const first = placed[0]!.point;
  const last = placed[placed.length - 1]!.point;
  const summary = `${title}: ${placed.map(({ point }) => `${formatDate(point.date)} — ${format(point.value!)}`).join("; ")}`;
  return (
    <figure className={`trend-chart trend-chart--${tone}`}>
      <figcaption className="trend-chart__title">{title}</figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="trend-chart__svg"
        role="img"
        aria-label={summary}
        preserveAspectRatio="none"
      >
        <polyline
          className="trend-chart__line"
          fill="none"
          points={placed.map(({ x, y }) => `${x},${y}`).join(" ")}
          vectorEffect="non-scaling-stroke"
        />
        {placed.map(({ x, y, point }, index) => (
          <circle key={index} className="trend-chart__dot" cx={x} cy={y} r={3}>
            <title>{`${formatDate(point.date)}: ${format(point.value!)}`}</title>
          </circle>
        ))}
      </svg>
      <div className="trend-chart__ends">
        <span>
          {formatDate(first.date)}: <strong>{format(first.value!)}</strong>
        </span>
        {placed.length > 1 && (
          <span>
            {formatDate(last.date)}: <strong>{format(last.value!)}</strong>
          </span>
        )}
      </div>
    </figure>
  );
}

/** The board's tiny money line over the last audits, for the eye only (the figures are beside it). */
export function Sparkline({
  values,
  grew,
}: {
  values: readonly (number | null)[];
  grew: boolean;
}) {
  const placed = layout(
    values.map((value, index) => ({ date: String(index), value })),
  );
  if (placed.length < 2) return <span className="muted">—</span>;
  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      className={grew ? "sparkline sparkline--grew" : "sparkline"}
      aria-hidden="true"
      preserveAspectRatio="none"
    >
      <polyline
        fill="none"
        points={placed.map(({ x, y }) => `${x},${y}`).join(" ")}
        vectorEffect="non-scaling-stroke"
      />
    </svg>
  );
}
