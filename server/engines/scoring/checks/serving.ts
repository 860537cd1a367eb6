/**
 * Serving (issue 22): what Direct says of how groups and keywords show, and keywords a person stopped
 * against their own statistics.
 * - a group Direct marks «Мало показов» (`AdGroups.ServingStatus` RARELY_SERVED): its keywords have too
 *   little demand, Direct hardly shows it;
 * - a keyword marked so (`Keywords.ServingStatus`), when its group is not (the group's finding says it);
 * - a keyword rejected by moderation (`Keywords.Status` REJECTED);
 * - a keyword stopped by the person that brought at least `suspendedKeywordMinConversions` conversions in
 *   the period at a CPA not above the reference (the project's target CPA, else the account's CPA).
 * Only in campaigns meant to show (moderation.ts `campaignMeantToShow`); a stopped group or keyword is the
 * person's choice and gets no «мало показов» finding.
 */
import { formatCountOf } from '../../../../contract/format.js';
import type { PreparedKeyword } from '../../semantic/prepare.js';
import { formatRub, oneEvidence, rub, type ScoringContext } from '../context.js';
import { checks, makeFinding } from '../registry.js';
import { campaignMeantToShow, isStoppedByUser, keywordServes } from './serving-state.js';

const conversionsText = (count: number) => formatCountOf(count, ['конверсию', 'конверсии', 'конверсий']);

export function runServingChecks(context: ScoringContext): void {
  const { account } = context;
  const reference = referenceCpa(context);
  for (const campaign of account.campaigns) {
    if (!campaignMeantToShow(campaign.campaign)) continue;
    for (const group of campaign.groups) {
      const liveKeywords = group.keywords.filter((keyword) => keywordServes(keyword.keyword));
      const groupRare = group.group.servingStatus === 'rarely_served' && liveKeywords.length > 0 && !isStoppedByUser(group.group.status);
      if (groupRare) {
        context.findings.push(makeFinding(checks.groupRarelyServed, group.ref, {
          explanation:
            `Директ пометил группу «${group.group.name}» статусом «Мало показов»: по её фразам (${liveKeywords.length}) слишком мало запросов, и группа почти не показывается.` +
            (group.group.stats ? ` За период — ${formatCountOf(group.group.stats.impressions, ['показ', 'показа', 'показов'])}.` : ''),
          fix: 'Расширьте группу: добавьте фразы с бо́льшим спросом, уберите лишние слова и операторы из узких фраз или объедините группу с близкой по смыслу; проверьте, не слишком ли узок регион показа.',
          evidence: oneEvidence({ label: 'Статус «Мало показов»', value: 1, unit: 'count' }),
        }));
      }
      for (const keyword of group.keywords) keywordServing(keyword, groupRare, reference, context);
    }
  }
}

function keywordServing(keyword: PreparedKeyword, groupRare: boolean, reference: number | null, context: ScoringContext): void {
  const { findings } = context;
  const value = keyword.keyword;
  if (value.moderation?.status === 'rejected' && !isStoppedByUser(value.status)) {
    findings.push(makeFinding(checks.keywordRejected, keyword.ref, {
      explanation: `Фраза «${value.phrase}» (группа «${keyword.group.group.name}») отклонена модерацией и не показывается.`,
      fix: 'Уберите из фразы то, что нарушает правила Яндекса (чаще всего — запрещённую тематику или чужой товарный знак), или удалите её; причину Директ показывает у фразы.',
      evidence: oneEvidence({ label: 'Фраза отклонена', value: 1, unit: 'count' }),
    }));
  } else if (value.servingStatus === 'rarely_served' && !groupRare && keywordServes(value) && !value.isAutotargeting) {
    findings.push(makeFinding(checks.keywordRarelyServed, keyword.ref, {
      explanation: `Директ пометил фразу «${value.phrase}» статусом «Мало показов»: по ней почти нет запросов.`,
      fix: 'Сделайте фразу шире (уберите лишние слова и операторы) или объедините её с близкими фразами группы; если она нужна как уточнение — оставьте, но не рассчитывайте на неё.',
      evidence: oneEvidence({ label: 'Статус «Мало показов»', value: 1, unit: 'count' }),
    }));
  }
  suspendedConverting(keyword, reference, context);
}

function suspendedConverting(keyword: PreparedKeyword, reference: number | null, context: ScoringContext): void {
  const { settings, facts } = context;
  const stats = keyword.keyword.stats;
  if (!facts.hasConversions || !stats || !isStoppedByUser(keyword.keyword.status) || stats.conversions < settings.suspendedKeywordMinConversions) return;
  const cpa = stats.cost / stats.conversions;
  if (reference !== null && cpa > reference) return;
  const source = settings.targetCpa !== null ? 'цель проекта' : 'CPA аккаунта';
  context.findings.push(makeFinding(checks.keywordSuspendedConverting, keyword.ref, {
    period: facts.period ?? undefined,
    explanation:
      `Фраза «${keyword.keyword.phrase}» (группа «${keyword.group.group.name}») остановлена, хотя за ${facts.periodDays} дн. принесла ${conversionsText(stats.conversions)} по ${formatRub(cpa)}` +
      (reference !== null ? ` — не дороже ориентира ${formatRub(reference)} (${source}).` : '.') +
      ` Это около ${formatCountOf(Math.round(stats.conversions * facts.monthFactor), ['конверсии', 'конверсий', 'конверсий'])} в месяц, которых теперь нет.`,
    fix: 'Включите фразу снова; если её остановили из-за цены клика — снизьте ставку вместо остановки, если из-за нецелевых запросов — добавьте минус-слова.',
    evidence: [
      { label: 'Конверсии за период', value: stats.conversions, threshold: settings.suspendedKeywordMinConversions, setting: 'suspendedKeywordMinConversions', unit: 'conversions' },
      { label: 'Цена конверсии', value: rub(cpa), ...(reference !== null ? { threshold: rub(reference) } : {}), unit: 'rub' },
    ],
  }));
}

/** The project's target CPA, else the account's: all keyword cost over all keyword conversions. */
function referenceCpa(context: ScoringContext): number | null {
  if (context.settings.targetCpa !== null) return context.settings.targetCpa;
  let cost = 0;
  let conversions = 0;
  for (const keyword of context.account.keywords) {
    cost += keyword.keyword.stats?.cost ?? 0;
    conversions += keyword.keyword.stats?.conversions ?? 0;
  }
  return conversions > 0 ? cost / conversions : null;
}
