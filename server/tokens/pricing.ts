import { analysisKindLabels, analysisKinds, type AnalysisKind, type CampaignCost, type CampaignCounts } from '../../contract/tokens.js';
import { pricingTable, type PricingTable } from '../config/pricing-table.js';

export interface PriceResult {
  total: number;
  breakdown: CampaignCost[];
}

const blocks = (count: number, per: number) => Math.ceil(count / per);
/** Rounds up a share of a price, without floating-point noise (0.1 × 30 is 3, not 4). */
const ceilShare = (amount: number, share: number) => Math.ceil(Math.round(amount * share * 1e6) / 1e6);

/**
 * Prices campaigns for the chosen kinds of analysis. Pure: the same input always gives the same
 * price, so the amount shown before starting is the amount charged. Scoring is always included;
 * unknown or repeated kinds are ignored. Lines worth 0 tokens are left out of the breakdown.
 */
export function priceCampaigns(campaigns: readonly CampaignCounts[], kinds: readonly AnalysisKind[] = ['scoring'], table: PricingTable = pricingTable): PriceResult {
  const options = analysisKinds.filter((kind): kind is Exclude<AnalysisKind, 'scoring'> => kind !== 'scoring' && kinds.includes(kind));
  const breakdown = campaigns.map((campaign, index): CampaignCost => {
    const scoringLines = [
      { label: 'Базовая стоимость кампании', amount: table.perCampaign },
      { label: `Ключевые фразы: ${campaign.keywords_count}`, amount: blocks(campaign.keywords_count, table.keywords.per) * table.keywords.price },
      { label: `Объявления: ${campaign.ads_count}`, amount: blocks(campaign.ads_count, table.ads.per) * table.ads.price },
      { label: `Группы объявлений: ${campaign.groups_count ?? 0}`, amount: blocks(campaign.groups_count ?? 0, table.groups.per) * table.groups.price },
    ];
    const scoring = scoringLines.reduce((sum, line) => sum + line.amount, 0);
    const optionLines = options.map((kind) => ({ label: analysisKindLabels[kind], amount: ceilShare(scoring, table.kinds[kind]) }));
    const items = [...scoringLines, ...optionLines].filter((line) => line.amount > 0);
    return {
      index,
      ...(campaign.id !== undefined ? { id: campaign.id } : {}),
      ...(campaign.name !== undefined ? { name: campaign.name } : {}),
      cost: items.reduce((sum, line) => sum + line.amount, 0),
      items,
    };
  });
  return { total: breakdown.reduce((sum, campaign) => sum + campaign.cost, 0), breakdown };
}

/** Price of a page check of `pages` pages (see `perLandingPage`). */
export function priceLandingPages(pages: number, table: PricingTable = pricingTable): number {
  return pages * table.perLandingPage;
}

/** Price of one AI plan of a completed audit (see `aiPlan`). */
export function priceAiPlan(table: PricingTable = pricingTable): number {
  return table.aiPlan;
}
