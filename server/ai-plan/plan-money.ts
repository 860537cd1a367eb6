/**
 * The AI plan's total against the audit's money headline. The headline «Теряете ≈ X ₽ в месяц» is money
 * lost (spend that brought nothing); money that could be saved (conversions dearer than the target) stands
 * apart and is never added to it (`MoneyStory`, `readMoneyStory`). The plan's total is the part of the
 * headline its steps deal with, cause by cause, so it can never exceed the headline nor mix the two kinds:
 * - a cause listed by findings is covered by the findings the steps cite of its checks, up to the cause's
 *   money (the plan may name only some of the keywords the cause is made of);
 * - the non-target queries' cause is covered whole by a step citing code N (the automatic negatives);
 * and the note says in words what the plan leaves out and why, or that it covers the whole headline.
 */
import { moneyCauseKinds, moneyCauseLabel, roundMoney, type Finding, type MoneyStory } from '../../contract/analysis-results.js';
import { formatRub } from '../../contract/format.js';

export interface PlanMoney {
  /** Money lost per month the plan's steps deal with: at most the headline. */
  lostCovered: number;
  /** The plan's total in words: what of the headline it covers, what it leaves out and why, the saving apart. */
  note: string;
}

type Cause = MoneyStory['causes'][number];

/** Differences below a rouble are rounding, not money left out. */
const ROUBLE = 1;

/** The money of one cause the plan covers, and why not all of it when it does not. */
function causeCoverage(cause: Cause, cited: readonly Finding[], listed: readonly Finding[], citesNegatives: boolean): { covered: number; why: string } {
  if (cause.list.kind === 'suggestions') {
    if (cause.list.suggestionKind === 'negative_keyword' && citesNegatives) return { covered: cause.perMonth, why: '' };
    return { covered: 0, why: 'в плане нет шага с автоматическими минус-словами' };
  }
  const ofCause = (finding: Finding) => cause.list.checks?.includes(finding.checkId) === true;
  const citedMoney = cited.filter(ofCause).reduce((sum, finding) => sum + Math.max(0, finding.moneyPerMonth ?? 0), 0);
  const covered = Math.min(cause.perMonth, citedMoney);
  if (citedMoney > 0) return { covered, why: 'шаги плана называют только часть этих мест, остальные — в списке замечаний аудита' };
  if (listed.some(ofCause)) return { covered: 0, why: 'ни один шаг плана на эти замечания не ссылается' };
  return { covered: 0, why: 'этих замечаний не было среди главных, по которым составлялся план' };
}

/**
 * The plan's money against the story. `cited`: the priced findings the steps cite, each once; `listed`:
 * every finding the prompt gave the model; `citesNegatives`: a step cites code N.
 */
export function planMoney(story: MoneyStory, cited: readonly Finding[], listed: readonly Finding[], citesNegatives: boolean): PlanMoney {
  const gaps: string[] = [];
  let lostCovered = 0;
  let savingCovered = 0;
  for (const cause of story.causes) {
    const { covered, why } = causeCoverage(cause, cited, listed, citesNegatives);
    if (moneyCauseKinds[cause.cause] === 'saving') {
      savingCovered += covered;
      continue;
    }
    lostCovered += covered;
    if (cause.perMonth - covered >= ROUBLE) gaps.push(`«${moneyCauseLabel(cause.cause, story)}» — ${formatRub(cause.perMonth - covered)}: ${why}`);
  }
  lostCovered = roundMoney(Math.min(lostCovered, story.perMonth));
  const sentences: string[] = [];
  if (story.perMonth < ROUBLE) sentences.push('Потерь — расхода без конверсий — аудит не нашёл.');
  else if (gaps.length === 0) sentences.push(`План охватывает все потери, которые нашёл аудит: ${formatRub(story.perMonth)} в месяц.`);
  else sentences.push(`План охватывает ${formatRub(lostCovered)} из ${formatRub(story.perMonth)} потерь в месяц. Не вошли: ${gaps.join('; ')}.`);
  if (story.saving.perMonth >= ROUBLE) {
    const reference = story.saving.reference === 'target' ? 'целевой цены' : 'средней цены в аккаунте';
    const part = savingCovered >= ROUBLE ? `шаги плана касаются ${formatRub(Math.min(savingCovered, story.saving.perMonth))} из них` : 'план этого не касается';
    sentences.push(`Отдельно от потерь можно сэкономить ${formatRub(story.saving.perMonth)} в месяц на конверсиях дороже ${reference}: ${part}. К потерям эта сумма не прибавляется.`);
  }
  return { lostCovered, note: sentences.join(' ') };
}
