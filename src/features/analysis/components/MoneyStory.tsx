import { Link } from '@tanstack/react-router';
import { moneyCauseKinds, moneyCauseLabel, type MoneyKind, type MoneyStory } from '@contract/analysis-results.js';
import { formatCount, formatRub, formatRubPerMonth, moneyHeadline, pluralRu } from '@/lib/analysis-format';
import { causeLink } from '@/features/analysis/list-search';

const entityNouns: [string, string, string] = ['место', 'места', 'мест'];

/** «Можно сэкономить ≈ 14 000 ₽ в месяц»: money that bought conversions, dearer than the reference; never part of the loss. */
export const savingHeadline = (perMonth: number) => `Можно сэкономить ≈ ${formatRubPerMonth(perMonth)}`;

/** The causes of one kind worth a row: a cause that rounds to «0 ₽» says nothing. */
export const causesOf = (money: MoneyStory, kind: MoneyKind) =>
  money.causes.filter((cause) => moneyCauseKinds[cause.cause] === kind && Math.round(cause.perMonth) > 0).sort((a, b) => b.perMonth - a.perMonth);

/** Share of the account's spend a sum is, in whole percent; null when the spend is unknown. */
export const shareOfSpend = (perMonth: number, money: MoneyStory) =>
  money.spendPerMonth && money.spendPerMonth > 0 ? Math.round((perMonth / money.spendPerMonth) * 100) : null;

/**
 * The results header's money: the money lost (spend that brought nothing) and what it is made of, then,
 * apart and never added to it, the money that could be saved (conversions dearer than the target). Each
 * cause (a separate slice of the spend, never the same rouble twice) links to the list behind it.
 * `money`: read with `readMoneyStory`, so an analysis stored before the split shows the same way.
 */
export function MoneyBreakdown({ projectId, analysisId, money, period }: { projectId: string; analysisId: string; money: MoneyStory; period: string | null }) {
  const lost = causesOf(money, 'lost');
  const saving = causesOf(money, 'saving');
  const lostShare = shareOfSpend(money.perMonth, money);
  const hasLoss = Math.round(money.perMonth) > 0;
  return (
    <>
      {/* «No losses» is good news: not in the alarm colour of a loss. */}
      <p className={hasLoss ? 'analysis-money__value' : 'analysis-money__value analysis-money__value--none'} data-testid="money-headline">
        {hasLoss ? moneyHeadline(money.perMonth) : 'Потерь денег не найдено'}
      </p>
      {hasLoss && (
        <p className="muted" data-testid="money-lost-note">
          {formatRub(money.period)}
          {period ? ` за ${period}` : ' за период статистики'}, пересчитано на месяц{lostShare !== null ? ` — ${lostShare} % расхода` : ''}: расход, который не
          принёс ни одной конверсии. Каждый рубль посчитан один раз: запрос входит в расход своей фразы.
        </p>
      )}
      <CauseList projectId={projectId} analysisId={analysisId} money={money} causes={lost} label="Из чего складываются потери" />
      {saving.length > 0 && (
        <>
          <p className="analysis-money__saving" data-testid="money-saving">
            <strong>{savingHeadline(money.saving.perMonth)}</strong>: эти клики принесли конверсии, но дороже
            {money.saving.reference === 'target' ? ' целевой цены конверсии' : ' средней цены конверсии в аккаунте'}. Это не потери и не входит в сумму выше.
          </p>
          <CauseList projectId={projectId} analysisId={analysisId} money={money} causes={saving} label="Где можно сэкономить" />
        </>
      )}
    </>
  );
}

function CauseList({ projectId, analysisId, money, causes, label }: { projectId: string; analysisId: string; money: MoneyStory; causes: MoneyStory['causes']; label: string }) {
  if (causes.length === 0) return null;
  const total = causes.reduce((sum, cause) => sum + cause.perMonth, 0);
  return (
    <ul className="money-causes" aria-label={label} data-testid="money-causes">
      {causes.map((cause) => {
        const target = causeLink(cause.list);
        const name = moneyCauseLabel(cause.cause, money);
        const share = total > 0 ? Math.round((cause.perMonth / total) * 100) : 0;
        return (
          <li key={cause.cause} className="money-cause" data-testid={`money-cause-${cause.cause}`}>
            <span className="money-cause__bar" style={{ width: `${share}%` }} aria-hidden="true" />
            {target.to === 'findings' ? (
              <Link to="/projects/$id/analysis/$analysisId/results" params={{ id: projectId, analysisId }} search={target.search} hash="findings" className="link money-cause__link">
                {name}
              </Link>
            ) : (
              <Link to="/projects/$id/analysis/$analysisId/semantic" params={{ id: projectId, analysisId }} search={target.search} className="link money-cause__link">
                {name}
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
  );
}
