import type { DailySpending } from './spending';

const BAR_WIDTH = 10;
const BAR_GAP = 3;
const CHART_HEIGHT = 120;

function shortDate(day: string): string {
  const [, month, date] = day.split('-');
  return `${date}.${month}`;
}

/**
 * Tokens debited per day as plain SVG bars (no chart library): the SVG scales to the card's width,
 * so 30 bars fit a 360 px phone as well as a desktop.
 */
export function SpendChart({ data }: { data: DailySpending[] }) {
  const total = data.reduce((sum, item) => sum + item.spent, 0);
  const max = Math.max(...data.map((item) => item.spent), 0);
  const width = data.length * (BAR_WIDTH + BAR_GAP) - BAR_GAP;
  const label = `Расход токенов по дням за ${data.length} дн.: всего ${total.toLocaleString('ru-RU')}`;

  return (
    <figure className="spend-chart">
      <svg
        className="spend-chart__svg"
        role="img"
        aria-label={label}
        viewBox={`0 0 ${width} ${CHART_HEIGHT}`}
        preserveAspectRatio="none"
      >
        <line x1="0" x2={width} y1={CHART_HEIGHT} y2={CHART_HEIGHT} className="spend-chart__axis" />
        {data.map((item, index) => {
          const height = max > 0 ? Math.max((item.spent / max) * (CHART_HEIGHT - 4), item.spent > 0 ? 2 : 0) : 0;
          return (
            <rect
              key={item.day}
              className="spend-chart__bar"
              data-day={item.day}
              data-spent={item.spent}
              x={index * (BAR_WIDTH + BAR_GAP)}
              y={CHART_HEIGHT - height}
              width={BAR_WIDTH}
              height={height}
              rx="2"
            >
              <title>{`${shortDate(item.day)}: ${item.spent.toLocaleString('ru-RU')}`}</title>
            </rect>
          );
        })}
      </svg>
      {data.length > 0 && (
        <figcaption className="spend-chart__caption">
          <span>{shortDate(data[0].day)}</span>
          <span>максимум за день: {max.toLocaleString('ru-RU')}</span>
          <span>{shortDate(data[data.length - 1].day)}</span>
        </figcaption>
      )}
    </figure>
  );
}
