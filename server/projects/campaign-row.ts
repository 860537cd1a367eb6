/**
 * The columns a project's campaign row carries beside its document (counts, statistics, the groups'
 * names and counts: what the project screen and lists show without reading the document), computed by the
 * import thread from the campaign it already holds, so PostgreSQL never has to take the document apart
 * (migration 0109: the documents are stored as `json` text).
 */
import type { Campaign, Placement, Stats } from '../../contract/campaigns.js';
import { placementOfName, placementOfType } from '../engines/placement.js';
import type { GroupSummary } from '../../contract/projects.js';
import type { CampaignRowSummary } from '../db/tables/projects.js';


type StatsTotal = Pick<Stats, 'impressions' | 'clicks' | 'cost' | 'conversions'>;

const textOrNull = (value: unknown): string | null => (value === undefined || value === null ? null : String(value));

/** The sum of the statistics of those that have them; null when none has. */
function sumStats(items: Iterable<{ stats?: Stats }>): StatsTotal | null {
  let total: StatsTotal | null = null;
  for (const item of items) {
    const stats = item.stats;
    if (typeof stats !== 'object' || stats === null) continue;
    total ??= { impressions: 0, clicks: 0, cost: 0, conversions: 0 };
    total.impressions += Number(stats.impressions ?? 0);
    total.clicks += Number(stats.clicks ?? 0);
    total.cost += Number(stats.cost ?? 0);
    total.conversions += Number(stats.conversions ?? 0);
  }
  return total;
}

function* keywordsOf(campaign: Campaign) {
  for (const group of campaign.groups ?? []) yield* group.keywords ?? [];
}

function* adsOf(campaign: Campaign) {
  for (const group of campaign.groups ?? []) yield* group.ads ?? [];
}

export function campaignRowSummary(campaign: Campaign): CampaignRowSummary {
  const groups = campaign.groups ?? [];
  let ads = 0;
  let keywords = 0;
  const groupsSummary = groups.map((group) => {
    ads += group.ads?.length ?? 0;
    keywords += group.keywords?.length ?? 0;
    return {
      name: group.name ?? '',
      external_id: textOrNull(group.externalId),
      ads: group.ads?.length ?? 0,
      keywords: group.keywords?.length ?? 0,
      negative_keywords: group.negativeKeywords?.length ?? 0,
    };
  });
  return {
    external_id: textOrNull(campaign.externalId),
    name: campaign.name ?? '',
    type: textOrNull(campaign.type),
    groups_count: groups.length,
    ads_count: ads,
    keywords_count: keywords,
    negative_keywords_count: campaign.negativeKeywords?.length ?? 0,
    stats: campaign.stats ?? sumStats(keywordsOf(campaign)) ?? sumStats(adsOf(campaign)),
    groups_summary: groupsSummary,
  };
}

/**
 * Where a campaign row's type or name says it shows («Текстово-графические объявления» says nothing;
 * «Цветы — РСЯ» says networks), for the badge of the campaign list. The document's settings and
 * statistics (../engines/placement.ts reads them too) are not read for a list of campaigns.
 */
export function rowPlacement(row: { type: string | null; name: string }): Placement | null {
  return placementOfType(row.type ?? undefined) ?? placementOfName(row.name);
}
