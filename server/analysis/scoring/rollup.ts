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

/** What the findings add up to on one entity: the weight it loses, the findings about it or below it, their money. */
interface Tally {
  penalty: number;
  count: number;
  money: number;
  /** The finding (its position + 1) that counted this entity last: an entity counts once per finding. */
  countedFor: number;
  /** The tallies of the group and campaign above this entity (see `keysUp`), once resolved. */
  resolved: boolean;
  second?: Tally;
  third?: Tally;
}

export function rollUpScores(account: PreparedAccount, findings: readonly Finding[], accountRef: EntityRef): Rollup {
  // One tally per entity key. The keys of the group and campaign above an entity are the prepared
  // refs' own strings, never built per item: at a million keywords the findings list two million
  // items, and a new string per item and level (hashed and flattened for each lookup) made this stage
  // allocate as much as the checks. Each entity's tally links to the ones above it once, so an item
  // costs one lookup, not one per level.
  const tallies = new Map<string, Tally>();
  const tallyOf = (key: string) => {
    let tally = tallies.get(key);
    if (!tally) tallies.set(key, (tally = { penalty: 0, count: 0, money: 0, countedFor: 0, resolved: false }));
    return tally;
  };
  const campaignsByIndex = new Map(account.campaigns.map((campaign) => [campaign.ref.campaignIndex!, campaign]));
  const campaignKeyOf = (campaignIndex: number) => campaignsByIndex.get(campaignIndex)?.ref.key ?? `c${campaignIndex}`;
  const groupKeyOf = (campaignIndex: number, groupIndex: number) => campaignsByIndex.get(campaignIndex)?.groups[groupIndex]?.ref.key ?? `c${campaignIndex}g${groupIndex}`;
  /**
   * The tally of an entity, linked to the tallies of the group and campaign above it: the entity,
   * its group, its campaign, each once in that order (`c0g1k5` → c0g1k5, c0g1, c0).
   */
  const tallyUp = (target: EntityRef): Tally => {
    const tally = tallyOf(target.key);
    if (tally.resolved) return tally;
    tally.resolved = true;
    if (target.campaignIndex === undefined || target.level === 'campaign') return tally;
    const campaignTally = tallyOf(campaignKeyOf(target.campaignIndex));
    if (target.level === 'group' || target.groupIndex === undefined) {
      tally.second = campaignTally;
      return tally;
    }
    tally.second = tallyOf(groupKeyOf(target.campaignIndex, target.groupIndex));
    tally.third = campaignTally;
    return tally;
  };

  findings.forEach((finding, index) => {
    if (penaltyOnItems(finding)) for (const item of finding.items!) tallyOf(item.target.key).penalty += finding.weight;
    else tallyOf(finding.target.key).penalty += finding.weight;

    const own = tallyUp(finding.target);
    if (!finding.items) {
      own.count++;
      if (own.second) own.second.count++;
      if (own.third) own.third.count++;
    } else {
      // Once per entity it touches: its target and everything above, each item, each item's group.
      const counted = index + 1;
      const count = (tally: Tally | undefined) => {
        if (tally && tally.countedFor !== counted) {
          tally.countedFor = counted;
          tally.count++;
        }
      };
      const countUp = (tally: Tally) => {
        count(tally);
        count(tally.second);
        count(tally.third);
      };
      countUp(own);
      for (const item of finding.items) countUp(tallyUp(item.target));
    }

    if (finding.items?.some((item) => item.moneyPerMonth !== undefined)) {
      for (const item of finding.items) {
        if (!item.moneyPerMonth) continue;
        const tally = tallyUp(item.target);
        tally.money += item.moneyPerMonth;
        if (tally.second) tally.second.money += item.moneyPerMonth;
        if (tally.third) tally.third.money += item.moneyPerMonth;
      }
    } else if (finding.moneyPerMonth) {
      own.money += finding.moneyPerMonth;
      if (own.second) own.second.money += finding.moneyPerMonth;
      if (own.third) own.third.money += finding.moneyPerMonth;
    }
  });

  const scoreOf = (ref: EntityRef, base: number): EntityScore => {
    const tally = tallies.get(ref.key);
    return { target: ref, score: clamp(base - (tally?.penalty ?? 0)), findings: tally?.count ?? 0, moneyPerMonth: round2(tally?.money ?? 0) };
  };

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
    score: clamp((total ? sum / total : 100) - (tallies.get(accountRef.key)?.penalty ?? 0)),
    findings: findings.length,
    moneyPerMonth: round2(findings.reduce((acc, finding) => acc + (finding.moneyPerMonth ?? 0), 0)),
  };
  return { account: account_, campaigns, groups, ads, keywords };
}
