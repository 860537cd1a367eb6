/**
 * Campaign states (issue 22): an ended campaign whose keywords and ads are still ready to show (the end
 * date passed: Direct's `State` `ENDED`, or an end date before the statistics period ends), and a stopped
 * campaign (`OFF`, `SUSPENDED`) with accepted keywords that brought conversions at no more than the
 * reference CPA in the period. The campaign's keywords and ads say whether it was meant to run: a
 * campaign with nothing accepted left is not expected to.
 */
import type { PreparedCampaign } from '../../semantic/prepare.js';
import { formatRub, rub, type ScoringContext } from '../context.js';
import { checks, makeFinding } from '../registry.js';
import { formatCountOf } from '../../../../contract/format.js';
import { conversionsText, cpaBenchmark, cpaOf, russianDate, statsOfCampaign } from './settings-common.js';

const STOPPED_STATES = new Set(['off', 'suspended']);

export function runStateChecks(context: ScoringContext): void {
  let benchmark: ReturnType<typeof cpaBenchmark> | undefined;
  const benchmarkOnce = () => (benchmark === undefined ? (benchmark = cpaBenchmark(context)) : benchmark);
  const periodEnd = context.facts.period?.to;
  for (const campaign of context.account.campaigns) {
    const { state, endDate } = campaign.campaign;
    if (state === 'archived') continue;
    const ready = acceptedKeywords(campaign);
    if (ready === 0) continue;
    const endedByDate = endDate !== undefined && periodEnd !== undefined && endDate < periodEnd;
    if (state === 'ended' || endedByDate) ended(context, campaign, ready);
    else if (state && STOPPED_STATES.has(state)) stoppedWithConversions(context, campaign, benchmarkOnce());
  }
}

function acceptedKeywords(campaign: PreparedCampaign): number {
  let count = 0;
  for (const group of campaign.campaign.groups) for (const keyword of group.keywords) if (keyword.status === 'accepted') count++;
  return count;
}

function ended(context: ScoringContext, campaign: PreparedCampaign, ready: number): void {
  const { name, endDate } = campaign.campaign;
  const stats = statsOfCampaign(campaign);
  const cpa = cpaOf(stats);
  const results = stats && cpa !== null ? ` До остановки за период она принесла ${conversionsText(stats.conversions)} по ${formatRub(cpa)}.` : '';
  context.findings.push(makeFinding(checks.settingsCampaignEnded, campaign.ref, {
    explanation: `Кампания «${name}» завершилась${endDate ? ` ${russianDate(endDate)}` : ''}: дата окончания прошла, объявления не показываются, хотя в ней ${formatCountOf(ready, ['фраза, принятая', 'фразы, принятые', 'фраз, принятых'])} модерацией.${results}`,
    fix: 'Если кампания нужна — продлите или уберите дату окончания в параметрах кампании. Если нет — отправьте её в архив, чтобы она не числилась среди рабочих.',
    evidence: [
      { label: 'Дата окончания', value: endDate ? russianDate(endDate) : 'прошла', threshold: context.facts.period ? russianDate(context.facts.period.to) : '' },
      { label: 'Принятых фраз', value: ready, unit: 'count' },
    ],
  }));
}

function stoppedWithConversions(context: ScoringContext, campaign: PreparedCampaign, benchmark: ReturnType<typeof cpaBenchmark>): void {
  const stats = statsOfCampaign(campaign);
  const cpa = cpaOf(stats);
  if (!stats || cpa === null || (benchmark && cpa > benchmark.value)) return;
  context.findings.push(makeFinding(checks.settingsCampaignStoppedConverting, campaign.ref, {
    explanation: `Кампания «${campaign.campaign.name}» остановлена, хотя её фразы приняты модерацией, а за период она принесла ${conversionsText(stats.conversions)} по ${formatRub(cpa)}${benchmark ? ` — не дороже ориентира (${benchmark.label})` : ''}.`,
    fix: 'Если остановка случайная (закончились деньги, забыли включить после паузы) — возобновите кампанию. Если намеренная — отправьте её в архив, чтобы она не числилась среди рабочих.',
    evidence: [
      { label: 'Конверсий за период', value: stats.conversions, threshold: 1, unit: 'conversions' },
      { label: 'Цена конверсии кампании', value: rub(cpa), ...(benchmark ? { threshold: rub(benchmark.value) } : {}), unit: 'rub' },
    ],
  }));
}
