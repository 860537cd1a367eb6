/**
 * Bid adjustments (Direct `bidmodifiers`, issue 22), of the campaign and of its groups.
 * - Mobile −100 %: no shows on smartphones at all.
 * - Extreme values: above +`bidAdjustmentMaxIncrease` %, or −`bidAdjustmentMaxDecrease` % and lower
 *   short of −100 % (−100 % of an age group or gender is a deliberate exclusion; of mobiles, the check above).
 *   In a conversion strategy Direct applies an adjustment to the target price too (since January 2022,
 *   Yandex's news «Директ изменил логику учета корректировок в конверсионных стратегиях»), so the
 *   wording says «цена конверсии» there, not «ставка».
 * - A regional adjustment for a region none of the campaign's groups shows in does nothing.
 */
import type { EntityRef } from '../../../../contract/analysis-results.js';
import type { BidAdjustment } from '../../../../contract/campaigns.js';
import { directRegions } from '../../semantic/geo/direct-regions.js';
import type { PreparedCampaign } from '../../semantic/prepare.js';
import type { ScoringContext } from '../context.js';
import { checks, makeFinding } from '../registry.js';
import { isConversionStrategy, workingStrategy } from './settings-common.js';

const typeNames: Record<string, string> = {
  mobile: 'на мобильные',
  tablet: 'на планшеты',
  desktop: 'на компьютеры',
  desktop_only: 'на компьютеры',
  demographics: 'по полу и возрасту',
  retargeting: 'по аудитории',
  regional: 'по региону',
  video: 'на видеодополнение',
  smart_tv: 'на Smart TV',
  income_grade: 'по уровню дохода',
  serp_layout: 'по месту на странице',
};

/** «+600 %», «−95 %». */
const signed = (percent: number) => `${percent >= 100 ? '+' : '−'}${Math.abs(percent - 100)} %`;

export function runBidAdjustmentChecks(context: ScoringContext): void {
  for (const campaign of context.account.campaigns) {
    const owners: { ref: EntityRef; where: string; adjustments: BidAdjustment[] }[] = [];
    if (campaign.campaign.bidAdjustments?.length) owners.push({ ref: campaign.ref, where: `кампании «${campaign.campaign.name}»`, adjustments: campaign.campaign.bidAdjustments });
    for (const group of campaign.groups) {
      if (group.group.bidAdjustments?.length) owners.push({ ref: group.ref, where: `группы «${group.group.name}»`, adjustments: group.group.bidAdjustments });
    }
    if (owners.length === 0) continue;
    const working = workingStrategy(campaign.campaign);
    const pricesConversions = working ? isConversionStrategy(working.strategy) : false;
    for (const owner of owners) {
      owner.adjustments.forEach((adjustment, index) => {
        const suffix = `${adjustment.type}${index}`;
        if (adjustment.type === 'mobile' && adjustment.percent === 0) mobileOff(context, owner.ref, owner.where, suffix);
        else extreme(context, owner.ref, owner.where, adjustment, suffix, pricesConversions);
      });
    }
    if (campaign.campaign.bidAdjustments?.length) regionalWithoutEffect(context, campaign);
  }
}

function mobileOff(context: ScoringContext, ref: EntityRef, where: string, suffix: string): void {
  context.findings.push(makeFinding(checks.settingsMobileOff, ref, {
    suffix,
    explanation: `Корректировка ${where} на мобильные −100 %: объявления не показываются на смартфонах, а в большинстве тематик оттуда приходит бо́льшая часть запросов.`,
    fix: 'Если сайт удобен на телефоне — замените −100 % на умеренную понижающую корректировку (например, −30 %) и через 2 недели сравните цену конверсии со смартфонов и компьютеров в отчёте по типу устройства. Если сайт на телефоне неудобен — начните с мобильной версии.',
    evidence: [{ label: 'Корректировка на мобильные', value: '−100 %', threshold: 'больше −100 %' }],
  }));
}

function extreme(context: ScoringContext, ref: EntityRef, where: string, adjustment: BidAdjustment, suffix: string, pricesConversions: boolean): void {
  const { bidAdjustmentMaxIncrease: maxIncrease, bidAdjustmentMaxDecrease: maxDecrease } = context.settings;
  const change = adjustment.percent - 100;
  const tooHigh = change > maxIncrease;
  const tooLow = adjustment.percent > 0 && -change >= maxDecrease;
  if (!tooHigh && !tooLow) return;
  const what = `Корректировка ${where} ${typeNames[adjustment.type] ?? adjustment.type}${adjustment.condition ? ` («${adjustment.condition}»)` : ''} ${signed(adjustment.percent)}`;
  const price = pricesConversions ? 'цена конверсии' : 'ставка';
  context.findings.push(makeFinding(checks.settingsBidAdjustmentExtreme, ref, {
    suffix,
    explanation: tooHigh
      ? `${what}: ${price} для этой аудитории ${times(adjustment.percent / 100)} выше обычной — клики и конверсии оттуда покупаются почти по любой цене.`
      : `${what}: показы этой аудитории почти выключены, но не совсем — редкие показы всё равно идут, а ${price} на них ${times(100 / adjustment.percent)} ниже обычной и не выигрывает аукцион.`,
    fix: tooHigh
      ? `Снизьте корректировку до +100…+200 % и проверьте в отчёте по этой аудитории, окупаются ли её конверсии; повышайте шагами, если окупаются.`
      : 'Если эта аудитория не нужна — выключите её явно (−100 %). Если нужна — поставьте −50 % и через 2 недели сравните цену конверсии.',
    evidence: [
      tooHigh
        ? { label: 'Корректировка, %', value: change, threshold: maxIncrease, setting: 'bidAdjustmentMaxIncrease', unit: 'count' }
        : { label: 'Понижение, %', value: -change, threshold: maxDecrease, setting: 'bidAdjustmentMaxDecrease', unit: 'count' },
    ],
  }));
}

/** «в 7 раз», «в 6,5 раза» (the multiples here are 6 and more). */
function times(value: number): string {
  const rounded = Math.round(value * 10) / 10;
  return `в ${String(rounded).replace('.', ',')} ${Number.isInteger(rounded) ? 'раз' : 'раза'}`;
}

function regionalWithoutEffect(context: ScoringContext, campaign: PreparedCampaign): void {
  const groupRegions = campaign.groups.flatMap((group) => (group.group.regionIds ?? []).filter((id) => id > 0));
  // Judged only when every region of the campaign is one we can name: an unknown id may hold the adjusted one.
  if (groupRegions.length === 0 || groupRegions.some((id) => !directRegions.has(id))) return;
  if (groupRegions.some((id) => directRegions.get(id)!.country)) return;
  const targeted = new Set(groupRegions.flatMap((id) => directRegions.get(id)!.places));
  campaign.campaign.bidAdjustments!.forEach((adjustment, index) => {
    if (adjustment.type !== 'regional' || adjustment.regionId === undefined) return;
    const region = directRegions.get(adjustment.regionId);
    if (!region || region.country || region.places.some((place) => targeted.has(place))) return;
    context.findings.push(makeFinding(checks.settingsBidAdjustmentNoEffect, campaign.ref, {
      suffix: `regional${index}`,
      explanation: `Корректировка кампании «${campaign.campaign.name}» по региону «${region.name}» ${signed(adjustment.percent)} не действует: ни одна группа кампании в этом регионе не показывается.`,
      fix: `Удалите корректировку или добавьте «${region.name}» в регионы групп, если показы там нужны.`,
      evidence: [{ label: 'Групп с этим регионом', value: 0, threshold: 1, unit: 'count' }],
    }));
  });
}
