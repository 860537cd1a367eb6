/**
 * 0–100 scores. An entity starts at 100 and loses each of its findings' weight. A group's score is the
 * mean of its keywords' and ads' scores minus the group's own findings; a campaign's the mean of its
 * groups (weighted by their size) minus its own; the account's the mean of its campaigns weighted by
 * spend (by size when there is no spend) minus account-level findings.
 *
 * Aggregated findings («Нет UTM-меток: 1 000 объявлений» at the campaign) take their weight from each
 * entity they cover, as the separate findings they replace did, so aggregating changes no score. A
 * campaign finding whose items only list what it affects (no negatives, spend without conversions)
 * takes its weight from the campaign (`penaltyOnItems`).
 *
 * Counts and money roll up: an entity's `findings` is the number of findings about it or anything below
 * it (an aggregated finding counts once for its campaign, and once for each keyword, ad or group it
 * lists); its `moneyPerMonth` the money of those findings, an aggregated finding's money placed on its
 * items, so no rouble is counted twice on the way up.
 */
import type { EntityRef, EntityScore, Finding } from '../../../src/contract/analysis-results.js';
import type { PreparedAccount } from '../semantic/prepare.js';
import { penaltyOnItems } from './aggregate.js';
import { campaignStatsOf } from './checks/statistics.js';

const clamp = (value: number) => Math.max(0, Math.min(100, Math.round(value)));
const round2 = (value: number) => Math.round(value * 100) / 100;

export interface Rollup {
  account: EntityScore;
  campaigns: EntityScore[];
  groups: EntityScore[];
  ads: EntityScore[];
  keywords: EntityScore[];
}

/** The keys of an entity and of the group and campaign above it, each once (`c0g1k5` → c0g1k5, c0g1, c0). */
function keysUp(target: EntityRef): string[] {
  if (target.campaignIndex === undefined || target.level === 'campaign') return [target.key];
  const campaignKey = `c${target.campaignIndex}`;
  if (target.level === 'group' || target.groupIndex === undefined) return [target.key, campaignKey];
  return [target.key, `${campaignKey}g${target.groupIndex}`, campaignKey];
}

export function rollUpScores(account: PreparedAccount, findings: readonly Finding[], accountRef: EntityRef): Rollup {
  const penalty = new Map<string, number>();
  const count = new Map<string, number>();
  const money = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, value: number) => map.set(key, (map.get(key) ?? 0) + value);

  for (const finding of findings) {
    if (penaltyOnItems(finding)) for (const item of finding.items!) add(penalty, item.target.key, finding.weight);
    else add(penalty, finding.target.key, finding.weight);

    const own = keysUp(finding.target);
    if (!finding.items) {
      for (const key of own) add(count, key, 1);
    } else {
      // Once per entity it touches: its target and everything above, each item, each item's group.
      const touched = new Set(own);
      for (const item of finding.items) for (const key of keysUp(item.target)) touched.add(key);
      for (const key of touched) add(count, key, 1);
    }

    if (finding.items?.some((item) => item.moneyPerMonth !== undefined)) {
      for (const item of finding.items) if (item.moneyPerMonth) for (const key of keysUp(item.target)) add(money, key, item.moneyPerMonth);
    } else if (finding.moneyPerMonth) {
      for (const key of own) add(money, key, finding.moneyPerMonth);
    }
  }

  const scoreOf = (ref: EntityRef, base: number): EntityScore => ({
    target: ref,
    score: clamp(base - (penalty.get(ref.key) ?? 0)),
    findings: count.get(ref.key) ?? 0,
    moneyPerMonth: round2(money.get(ref.key) ?? 0),
  });

  const keywords: EntityScore[] = [];
  const ads: EntityScore[] = [];
  const groups: EntityScore[] = [];
  const campaigns: EntityScore[] = [];
  const campaignWeights: number[] = [];

  for (const campaign of account.campaigns) {
    let weightedSum = 0;
    let weightTotal = 0;
    for (const group of campaign.groups) {
      let childSum = 0;
      let childCount = 0;
      for (const keyword of group.keywords) {
        const score = scoreOf(keyword.ref, 100);
        keywords.push(score);
        childSum += score.score;
        childCount++;
      }
      for (const ad of group.ads) {
        const score = scoreOf(ad.ref, 100);
        ads.push(score);
        childSum += score.score;
        childCount++;
      }
      const groupScore = scoreOf(group.ref, childCount ? childSum / childCount : 100);
      groups.push(groupScore);
      const weight = Math.max(1, childCount);
      weightedSum += groupScore.score * weight;
      weightTotal += weight;
    }
    campaigns.push(scoreOf(campaign.ref, weightTotal ? weightedSum / weightTotal : 100));
    campaignWeights.push(campaignStatsOf(campaign)?.cost ?? 0);
  }

  const bySpend = campaignWeights.some((weight) => weight > 0);
  let sum = 0;
  let total = 0;
  campaigns.forEach((campaign, index) => {
    const size = account.campaigns[index].groups.reduce((acc, group) => acc + group.keywords.length + group.ads.length, 0);
    const weight = bySpend ? campaignWeights[index] : Math.max(1, size);
    sum += campaign.score * weight;
    total += weight;
  });
  const account_: EntityScore = {
    target: accountRef,
    score: clamp((total ? sum / total : 100) - (penalty.get(accountRef.key) ?? 0)),
    findings: findings.length,
    moneyPerMonth: round2(findings.reduce((acc, finding) => acc + (finding.moneyPerMonth ?? 0), 0)),
  };
  return { account: account_, campaigns, groups, ads, keywords };
}
