/**
 * 0–100 scores. An entity starts at 100 and loses each of its findings' weight. A group's score is the
 * mean of its keywords' and ads' scores minus the group's own findings; a campaign's the mean of its
 * groups (weighted by their size) minus its own; the account's the mean of its campaigns weighted by
 * spend (by size when there is no spend) minus account-level findings. Money rolls up as a sum.
 */
import type { EntityRef, EntityScore, Finding } from '../../../src/contract/analysis-results.js';
import type { PreparedAccount } from '../semantic/prepare.js';
import { campaignStatsOf } from './checks/statistics.js';

const clamp = (value: number) => Math.max(0, Math.min(100, Math.round(value)));

interface Tally {
  penalty: number;
  count: number;
  money: number;
}

export interface Rollup {
  account: EntityScore;
  campaigns: EntityScore[];
  groups: EntityScore[];
  ads: EntityScore[];
  keywords: EntityScore[];
}

export function rollUpScores(account: PreparedAccount, findings: Finding[], accountRef: EntityRef): Rollup {
  const tallies = new Map<string, Tally>();
  for (const finding of findings) {
    const tally = tallies.get(finding.target.key) ?? { penalty: 0, count: 0, money: 0 };
    tally.penalty += finding.weight;
    tally.count++;
    tally.money += finding.moneyPerMonth ?? 0;
    tallies.set(finding.target.key, tally);
  }
  const own = (ref: EntityRef): Tally => tallies.get(ref.key) ?? { penalty: 0, count: 0, money: 0 };
  const round2 = (value: number) => Math.round(value * 100) / 100;

  const keywords: EntityScore[] = [];
  const ads: EntityScore[] = [];
  const groups: EntityScore[] = [];
  const campaigns: EntityScore[] = [];
  const campaignWeights: number[] = [];

  for (const campaign of account.campaigns) {
    let weightedSum = 0;
    let weightTotal = 0;
    let campaignFindings = 0;
    let campaignMoney = 0;
    for (const group of campaign.groups) {
      let childSum = 0;
      let childCount = 0;
      let groupFindings = 0;
      let groupMoney = 0;
      for (const keyword of group.keywords) {
        const tally = own(keyword.ref);
        const score = clamp(100 - tally.penalty);
        keywords.push({ target: keyword.ref, score, findings: tally.count, moneyPerMonth: round2(tally.money) });
        childSum += score;
        childCount++;
        groupFindings += tally.count;
        groupMoney += tally.money;
      }
      for (const ad of group.ads) {
        const tally = own(ad.ref);
        const score = clamp(100 - tally.penalty);
        ads.push({ target: ad.ref, score, findings: tally.count, moneyPerMonth: round2(tally.money) });
        childSum += score;
        childCount++;
        groupFindings += tally.count;
        groupMoney += tally.money;
      }
      const tally = own(group.ref);
      const groupScore = clamp((childCount ? childSum / childCount : 100) - tally.penalty);
      groupFindings += tally.count;
      groupMoney += tally.money;
      groups.push({ target: group.ref, score: groupScore, findings: groupFindings, moneyPerMonth: round2(groupMoney) });
      const weight = Math.max(1, childCount);
      weightedSum += groupScore * weight;
      weightTotal += weight;
      campaignFindings += groupFindings;
      campaignMoney += groupMoney;
    }
    const tally = own(campaign.ref);
    campaignFindings += tally.count;
    campaignMoney += tally.money;
    campaigns.push({ target: campaign.ref, score: clamp((weightTotal ? weightedSum / weightTotal : 100) - tally.penalty), findings: campaignFindings, moneyPerMonth: round2(campaignMoney) });
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
  const accountTally = own(accountRef);
  const account_: EntityScore = {
    target: accountRef,
    score: clamp((total ? sum / total : 100) - accountTally.penalty),
    findings: findings.length,
    moneyPerMonth: round2(findings.reduce((acc, finding) => acc + (finding.moneyPerMonth ?? 0), 0)),
  };
  return { account: account_, campaigns, groups, ads, keywords };
}
