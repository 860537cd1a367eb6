import { moneyHeadline } from '@/lib/analysis-format';

/** An analysis' money headline as a small line of a card or a row (project card, project page, history). */
export function MoneyLine({ perMonth }: { perMonth: number | null | undefined }) {
  if (perMonth === null || perMonth === undefined) return null;
  return (
    <span className={perMonth > 0 ? 'money-line' : 'money-line money-line--none'} data-testid="money-line">
      {perMonth > 0 ? moneyHeadline(perMonth) : 'Потерь денег не найдено'}
    </span>
  );
}
