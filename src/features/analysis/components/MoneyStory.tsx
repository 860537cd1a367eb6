import { Link } from '@tanstack/react-router';
import { moneyCauseLabels, type MoneyStory } from '../../../contract/analysis-results.js';
import { formatCount, formatRub, formatRubPerMonth, moneyHeadline, pluralRu } from '@/lib/analysis-format';
import { causeLink } from '../list-search';

const entityNouns: [string, string, string] = ['место', 'места', 'мест'];

/**
 * The results header's money: the headline and what it is made of, each cause (a separate slice of the
 * spend, never the same rouble twice) a link to the filtered list of the phrases or queries behind it.
 */
export function MoneyBreakdown({ projectId, analysisId, money, period }: { projectId: string; analysisId: string; money: MoneyStory; period: string | null }) {
  const causes = money.causes.filter((cause) => cause.perMonth > 0 || cause.count > 0).sort((a, b) => b.perMonth - a.perMonth);
  return (
    <>
      {/* «No losses» is good news: not in the alarm colour of a loss. */}
      <p className={money.perMonth > 0 ? 'analysis-money__value' : 'analysis-money__value analysis-money__value--none'} data-testid="money-headline">
        {money.perMonth > 0 ? moneyHeadline(money.perMonth) : 'Потерь денег не найдено'}
      </p>
      {money.perMonth > 0 && (
        <p className="muted">
          {formatRub(money.period)}
          {period ? ` за ${period}` : ' за период статистики'}, пересчитано на месяц. Каждый рубль посчитан один раз: запрос входит в расход своей фразы.
        </p>
      )}
      {causes.length > 0 && (
        <ul className="money-causes" aria-label="Из чего складываются потери" data-testid="money-causes">
          {causes.map((cause) => {
            const target = causeLink(cause.list);
            const label = moneyCauseLabels[cause.cause];
            const share = money.perMonth > 0 ? Math.round((cause.perMonth / money.perMonth) * 100) : 0;
            return (
              <li key={cause.cause} className="money-cause" data-testid={`money-cause-${cause.cause}`}>
                <span className="money-cause__bar" style={{ width: `${share}%` }} aria-hidden="true" />
                {target.to === 'findings' ? (
                  <Link to="/projects/$id/analysis/$analysisId/results" params={{ id: projectId, analysisId }} search={target.search} hash="findings" className="link money-cause__link">
                    {label}
                  </Link>
                ) : (
                  <Link to="/projects/$id/analysis/$analysisId/semantic" params={{ id: projectId, analysisId }} search={target.search} className="link money-cause__link">
                    {label}
                  </Link>
                )}
                <span className="money-cause__money">{formatRubPerMonth(cause.perMonth)}</span>
                <span className="muted money-cause__count">
                  {formatCount(cause.count)} {pluralRu(cause.count, entityNouns)}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}
