/**
 * When the money of a Direct account runs out, from what the read of the account says: each campaign's
 * `funds` (its own balance, or the shared account's) and what the campaigns cost over the statistics period.
 *
 * The forecast is the simplest one the data supports: the balance divided by the average daily spend of the
 * period, counting only campaigns that are on (a stopped campaign spends nothing from now on). A campaign
 * with its own balance is forecast alone; the campaigns of one shared account spend one balance together.
 * Daily and weekly budgets are not used: they cap a day's or week's spend, which the period's average
 * already stays under, so they would not move the day the money ends.
 *
 * Pure: campaigns in, forecasts out (the caller decides whom to tell).
 */
import type { CampaignFunds } from '../../../contract/campaigns.js';

export interface RunoutCampaign {
  name: string;
  externalId?: string;
  /** Direct `State`, lower case; missing counts as on. */
  state?: string;
  funds?: CampaignFunds;
  /** Cost over the statistics period; null when the period has no statistics for it. */
  cost: number | null;
}

export interface BalanceRunout {
  /** A shared account (общий счёт) or one campaign's own balance. */
  source: 'shared_account' | 'campaign';
  /** What the forecast is about, stable across reads: the shared account's id, else the campaign's id or name. */
  key: string;
  /** The campaign's name (own balance); for a shared account, the first of its live campaigns. */
  campaignName: string;
  /** Live campaigns spending this balance. */
  campaigns: number;
  /** Money left, in the account currency. */
  balance: number;
  /** Average spend a day over the period, of the live campaigns spending this balance. */
  dailySpend: number;
  /** Whole days the balance lasts at that pace (0: already out or less than a day). */
  daysLeft: number;
}

const isLive = (campaign: RunoutCampaign) => campaign.state === undefined || campaign.state === 'on';

function forecast(source: BalanceRunout['source'], key: string, campaigns: RunoutCampaign[], balance: number, periodDays: number): BalanceRunout | null {
  const dailySpend = campaigns.reduce((sum, campaign) => sum + (campaign.cost ?? 0), 0) / periodDays;
  const base = { source, key, campaignName: campaigns[0]!.name, campaigns: campaigns.length, balance, dailySpend: Math.round(dailySpend * 100) / 100 };
  // Nothing left while something is on: the ads have stopped (or stop at the next click) whatever the pace.
  if (balance <= 0) return { ...base, daysLeft: 0 };
  // No spend in the period: no pace to forecast from.
  if (dailySpend <= 0) return null;
  return { ...base, daysLeft: Math.floor(balance / dailySpend) };
}

/**
 * Every balance whose money lasts `withinDays` days or less at the period's pace, the soonest first.
 * `periodDays` is the length of the statistics period (no period: no forecast).
 */
export function balanceRunouts(campaigns: RunoutCampaign[], periodDays: number | null, withinDays: number): BalanceRunout[] {
  if (!periodDays || periodDays <= 0) return [];
  const live = campaigns.filter((campaign) => isLive(campaign) && campaign.funds?.balance !== undefined);
  const found: BalanceRunout[] = [];

  const shared = new Map<string, RunoutCampaign[]>();
  for (const campaign of live) {
    if (campaign.funds!.mode !== 'shared_account') continue;
    const key = campaign.funds!.accountId || 'shared';
    shared.set(key, [...(shared.get(key) ?? []), campaign]);
  }
  for (const [key, members] of shared) {
    const result = forecast('shared_account', key, members, members[0]!.funds!.balance!, periodDays);
    if (result) found.push(result);
  }
  for (const campaign of live) {
    if (campaign.funds!.mode !== 'campaign') continue;
    const result = forecast('campaign', campaign.externalId ?? campaign.name, [campaign], campaign.funds!.balance!, periodDays);
    if (result) found.push(result);
  }
  return found.filter((result) => result.daysLeft <= withinDays).sort((a, b) => a.daysLeft - b.daysLeft || b.dailySpend - a.dailySpend);
}
