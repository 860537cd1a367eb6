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
import type { EntityRef, EntityScore, Finding } from '../../../contract/analysis-results.js';
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

/**
 * What the findings add up to on each entity, by key: the weight it loses, the findings about it or
 * below it, their money. Columns of numbers, an entity a row: at 1 000 000 keywords about a million
 * entities have a tally, and as objects (with their money boxed and the links added later) they were
 * ~160 bytes each with the map entry, ~160 MB made at the end of the engines' run, where the thread's
 * heap peaks; as rows ~75 bytes. Money is summed in the same order either way (same doubles).
 */
class Tallies {
  private readonly rows = new Map<string, number>();
  private capacity = 1024;
  /** Weight the entity loses. */
  penalty = new Float64Array(this.capacity);
  /** Findings about the entity or below it. */
  count = new Int32Array(this.capacity);
  money = new Float64Array(this.capacity);
  /** The finding (its position + 1) that counted this entity last: an entity counts once per finding. */
  countedFor = new Int32Array(this.capacity);
  /** Whether `second` and `third` are set (see `tallyUp`). */
  resolved = new Uint8Array(this.capacity);
  /** The rows of the group and campaign above the entity; -1: none. */
  second = new Int32Array(this.capacity);
  third = new Int32Array(this.capacity);

  /** The entity's row (made at its first finding). */
  of(key: string): number {
    let row = this.rows.get(key);
    if (row === undefined) {
      row = this.rows.size;
      if (row === this.capacity) this.grow();
      this.second[row] = -1;
      this.third[row] = -1;
      this.rows.set(key, row);
    }
    return row;
  }

  penalise(key: string, weight: number): void {
    // The row first: making it may grow the columns (`this.penalty[this.of(key)]` would write to the old one).
    const row = this.of(key);
    this.penalty[row] += weight;
  }

  /** The entity's row, -1 when no finding touched it. */
  find(key: string): number {
    return this.rows.get(key) ?? -1;
  }

  private grow(): void {
    this.capacity *= 2;
    const larger = <T extends Float64Array | Int32Array | Uint8Array>(column: T): T => {
      const copy = new (column.constructor as new (length: number) => T)(this.capacity);
      copy.set(column);
      return copy;
    };
    this.penalty = larger(this.penalty);
    this.count = larger(this.count);
    this.money = larger(this.money);
    this.countedFor = larger(this.countedFor);
    this.resolved = larger(this.resolved);
    this.second = larger(this.second);
    this.third = larger(this.third);
  }
}

export function rollUpScores(account: PreparedAccount, findings: readonly Finding[], accountRef: EntityRef): Rollup {
  const tallies = tallyFindings(account, findings);
  const scoreOf = (ref: EntityRef, base: number): EntityScore => {
    const row = tallies.find(ref.key);
    if (row < 0) return { target: ref, score: clamp(base), findings: 0, moneyPerMonth: 0 };
    return { target: ref, score: clamp(base - tallies.penalty[row]), findings: tallies.count[row], moneyPerMonth: round2(tallies.money[row]) };
  };
  const { campaignWeights, ...entities } = scoreEntities(account, scoreOf);
  const accountRow = tallies.find(accountRef.key);
  const account_: EntityScore = {
    target: accountRef,
    score: clamp(accountMean(account, entities.campaigns, campaignWeights) - (accountRow >= 0 ? tallies.penalty[accountRow] : 0)),
    findings: findings.length,
    moneyPerMonth: round2(findings.reduce((acc, finding) => acc + (finding.moneyPerMonth ?? 0), 0)),
  };
  return { account: account_, ...entities };
}

/** Each finding's weight, count and money on the entities it is about and the ones above them. */
function tallyFindings(account: PreparedAccount, findings: readonly Finding[]): Tallies {
  // One tally per entity key. The keys of the group and campaign above an entity are the prepared
  // refs' own strings, never built per item: at a million keywords the findings list two million
  // items, and a new string per item and level (hashed and flattened for each lookup) made this stage
  // allocate as much as the checks. Each entity's tally links to the ones above it once, so an item
  // costs one lookup, not one per level.
  const tallies = new Tallies();
  const campaignsByIndex = new Map(account.campaigns.map((campaign) => [campaign.ref.campaignIndex!, campaign]));
  const campaignKeyOf = (campaignIndex: number) => campaignsByIndex.get(campaignIndex)?.ref.key ?? `c${campaignIndex}`;
  const groupKeyOf = (campaignIndex: number, groupIndex: number) => campaignsByIndex.get(campaignIndex)?.groups[groupIndex]?.ref.key ?? `c${campaignIndex}g${groupIndex}`;
  /**
   * The tally of an entity, linked to the tallies of the group and campaign above it: the entity,
   * its group, its campaign, each once in that order (`c0g1k5` → c0g1k5, c0g1, c0).
   */
  const tallyUp = (target: EntityRef): number => {
    const row = tallies.of(target.key);
    if (tallies.resolved[row]) return row;
    tallies.resolved[row] = 1;
    if (target.campaignIndex === undefined || target.level === 'campaign') return row;
    const campaignRow = tallies.of(campaignKeyOf(target.campaignIndex));
    if (target.level === 'group' || target.groupIndex === undefined) {
      tallies.second[row] = campaignRow;
      return row;
    }
    const groupRow = tallies.of(groupKeyOf(target.campaignIndex, target.groupIndex));
    tallies.second[row] = groupRow;
    tallies.third[row] = campaignRow;
    return row;
  };
  /** Adds to the row and the rows above it. */
  const addMoney = (row: number, money: number) => {
    tallies.money[row] += money;
    if (tallies.second[row] >= 0) tallies.money[tallies.second[row]] += money;
    if (tallies.third[row] >= 0) tallies.money[tallies.third[row]] += money;
  };

  findings.forEach((finding, index) => {
    if (penaltyOnItems(finding)) for (const item of finding.items!) tallies.penalise(item.target.key, finding.weight);
    else tallies.penalise(finding.target.key, finding.weight);

    const own = tallyUp(finding.target);
    if (!finding.items) {
      tallies.count[own]++;
      if (tallies.second[own] >= 0) tallies.count[tallies.second[own]]++;
      if (tallies.third[own] >= 0) tallies.count[tallies.third[own]]++;
    } else {
      // Once per entity it touches: its target and everything above, each item, each item's group.
      const counted = index + 1;
      const count = (row: number) => {
        if (row >= 0 && tallies.countedFor[row] !== counted) {
          tallies.countedFor[row] = counted;
          tallies.count[row]++;
        }
      };
      const countUp = (row: number) => {
        count(row);
        count(tallies.second[row]);
        count(tallies.third[row]);
      };
      countUp(own);
      for (const item of finding.items) countUp(tallyUp(item.target));
    }

    if (finding.items?.some((item) => item.moneyPerMonth !== undefined)) {
      for (const item of finding.items) {
        if (!item.moneyPerMonth) continue;
        addMoney(tallyUp(item.target), item.moneyPerMonth);
      }
    } else if (finding.moneyPerMonth) {
      addMoney(own, finding.moneyPerMonth);
    }
  });
  return tallies;
}

/** Scores from the bottom up: keywords and ads, their groups (the mean of them), campaigns (of their groups by size). */
function scoreEntities(account: PreparedAccount, scoreOf: (ref: EntityRef, base: number) => EntityScore): Omit<Rollup, 'account'> & { campaignWeights: number[] } {
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
  return { campaigns, groups, ads, keywords, campaignWeights };
}

/** The account's score before its own findings: its campaigns' weighted by spend, by size when there is no spend. */
function accountMean(account: PreparedAccount, campaigns: readonly EntityScore[], campaignWeights: readonly number[]): number {
  const bySpend = campaignWeights.some((weight) => weight > 0);
  let sum = 0;
  let total = 0;
  campaigns.forEach((campaign, index) => {
    const size = account.campaigns[index].groups.reduce((acc, group) => acc + group.keywords.length + group.ads.length, 0);
    const weight = bySpend ? campaignWeights[index] : Math.max(1, size);
    sum += campaign.score * weight;
    total += weight;
  });
  return total ? sum / total : 100;
}
