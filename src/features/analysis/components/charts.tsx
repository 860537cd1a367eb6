/** The results charts, drawn as plain SVG (no chart library): a score gauge and horizontal bars. */
import { scoreBand } from '@/lib/analysis-format';

const GAUGE_RADIUS = 80;
const GAUGE_LENGTH = Math.PI * GAUGE_RADIUS;

/** A half-circle gauge of a 0–100 score; the number in the middle is the accessible value. */
export function ScoreGauge({ score, label = 'Оценка аккаунта' }: { score: number; label?: string }) {
  const value = Math.max(0, Math.min(100, Math.round(score)));
  const filled = (GAUGE_LENGTH * value) / 100;
  return (
    <figure className="score-gauge">
      <svg viewBox="0 0 200 120" role="img" aria-label={`${label}: ${value} из 100`} className="score-gauge__svg">
        <path d="M 20 100 A 80 80 0 0 1 180 100" className="score-gauge__track" fill="none" strokeWidth="18" strokeLinecap="round" />
        <path
          d="M 20 100 A 80 80 0 0 1 180 100"
          className={`score-gauge__value score-gauge__value--${scoreBand(value)}`}
          fill="none"
          strokeWidth="18"
          strokeLinecap="round"
          strokeDasharray={`${filled} ${GAUGE_LENGTH}`}
        />
        <text x="100" y="92" textAnchor="middle" className="score-gauge__number" data-testid="account-score">
          {value}
        </text>
        <text x="100" y="114" textAnchor="middle" className="score-gauge__scale">
          из 100
        </text>
      </svg>
      <figcaption className="score-gauge__caption">{label}</figcaption>
    </figure>
  );
}

export interface BarDatum {
  key: string;
  label: string;
  value: number;
  /** Text shown at the end of the bar. */
  valueText: string;
  tone?: string;
}

const ROW = 36;
const LABEL_CHARS = 40;
/** The longest bar; the rest of the 320-unit row holds the value text («12 345 ₽ в месяц»). */
const BAR_MAX = 190;

/**
 * Horizontal bars, one row per datum: the label above its bar, so long Russian names still fit a
 * 360 px screen. `max` fixes the scale (100 for scores); by default the largest value fills the row.
 */
export function BarChart({ data, title, max }: { data: BarDatum[]; title: string; max?: number }) {
  if (data.length === 0) return null;
  const scale = max ?? Math.max(...data.map((item) => item.value), 1);
  const height = data.length * ROW;
  return (
    <svg viewBox={`0 0 320 ${height}`} className="bar-chart" role="img" aria-label={title} preserveAspectRatio="xMinYMin meet">
      <title>{title}</title>
      {data.map((item, index) => {
        const y = index * ROW;
        const width = Math.max(2, (Math.max(0, item.value) / scale) * BAR_MAX);
        const label = item.label.length > LABEL_CHARS ? `${item.label.slice(0, LABEL_CHARS - 1)}…` : item.label;
        return (
          <g key={item.key}>
            <text x="0" y={y + 12} className="bar-chart__label">
              {label}
            </text>
            <rect x="0" y={y + 17} width={width} height="12" rx="3" className={`bar-chart__bar bar-chart__bar--${item.tone ?? 'default'}`} />
            <text x={width + 6} y={y + 27} className="bar-chart__value">
              {item.valueText}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
