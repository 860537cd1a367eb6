/**
 * The overview's charts, hand-written SVG like the other charts of the app (SpendChart, BarChart): a
 * few bars per day need no chart library (one would add tens of kilobytes to the bundle for them). Each
 * chart is an image with a summary for screen readers plus the same figures as a visually hidden table,
 * so nothing is only in the picture.
 */
import { formatNumber } from '@contract/format';

export interface DailySeries {
  key: string;
  label: string;
  /** CSS modifier of the bars: `admin-chart__bar--<tone>`. */
  tone: 'primary' | 'success' | 'danger' | 'muted';
  values: number[];
}

const HEIGHT = 120;
const BAR = 8;
const GAP = 4;

const shortDate = (day: string) => {
  const [, month, date] = day.split('-');
  return `${date}.${month}`;
};

/** Bars per day, one bar per series side by side; the SVG scales to the card's width. */
export function DailyChart({ title, days, series }: { title: string; days: string[]; series: DailySeries[] }) {
  const max = Math.max(0, ...series.flatMap((item) => item.values));
  const group = series.length * BAR + GAP;
  const width = Math.max(1, days.length * group - GAP);
  const totals = series.map((item) => `${item.label}: ${formatNumber(item.values.reduce((sum, value) => sum + value, 0))}`).join(', ');
  const summary = `${title} за ${days.length} дн. Всего — ${totals}.`;
  return (
    <figure className="admin-chart">
      <figcaption className="admin-chart__title">{title}</figcaption>
      {series.length > 1 && (
        <ul className="admin-chart__legend" aria-hidden="true">
          {series.map((item) => (
            <li key={item.key}>
              <span className={`admin-chart__swatch admin-chart__bar--${item.tone}`} /> {item.label}
            </li>
          ))}
        </ul>
      )}
      <svg className="admin-chart__svg" role="img" aria-label={summary} viewBox={`0 0 ${width} ${HEIGHT}`} preserveAspectRatio="none">
        <line x1="0" x2={width} y1={HEIGHT} y2={HEIGHT} className="admin-chart__axis" />
        {days.map((day, dayIndex) =>
          series.map((item, seriesIndex) => {
            const value = item.values[dayIndex] ?? 0;
            const height = max > 0 ? Math.max((value / max) * (HEIGHT - 4), value > 0 ? 2 : 0) : 0;
            return (
              <rect
                key={`${day}-${item.key}`}
                className={`admin-chart__bar admin-chart__bar--${item.tone}`}
                x={dayIndex * group + seriesIndex * BAR}
                y={HEIGHT - height}
                width={BAR}
                height={height}
              >
                <title>{`${shortDate(day)}, ${item.label.toLowerCase()}: ${formatNumber(value)}`}</title>
              </rect>
            );
          }),
        )}
      </svg>
      {days.length > 0 && (
        <div className="admin-chart__caption" aria-hidden="true">
          <span>{shortDate(days[0]!)}</span>
          <span>максимум за день: {formatNumber(max)}</span>
          <span>{shortDate(days[days.length - 1]!)}</span>
        </div>
      )}
      <table className="visually-hidden">
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">День</th>
            {series.map((item) => (
              <th key={item.key} scope="col">
                {item.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {days.map((day, dayIndex) => (
            <tr key={day}>
              <th scope="row">{day}</th>
              {series.map((item) => (
                <td key={item.key}>{item.values[dayIndex] ?? 0}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
