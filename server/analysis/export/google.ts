/**
 * Google Ads Editor CSV for the campaigns the accepted changes touch, written after the changes.
 * English headers; keywords with their match type in «Criterion Type»; negatives as Negative
 * Broad/Phrase/Exact (group level, Ad group filled) and Campaign Negative Broad/Phrase/Exact (campaign
 * level); responsive search ads with Headline 1…15, Description 1…4, Path 1/2, Final URL.
 * UTF-8 with a BOM, tab separated (Editor reads both this and its own UTF-16 export).
 */
import type { Campaign, CampaignData, MatchType } from '../../../src/contract/campaigns.js';
import { csvPieces } from '../../lib/csv.js';
import { changedCampaigns, type ChangeSet } from './changes.js';

const headlineColumns = Array.from({ length: 15 }, (_, i) => `Headline ${i + 1}`);
const descriptionColumns = Array.from({ length: 4 }, (_, i) => `Description ${i + 1}`);
export const googleColumns = ['Campaign', 'Ad group', 'Keyword', 'Criterion Type', 'Max CPC', 'Ad type', ...headlineColumns, ...descriptionColumns, 'Path 1', 'Path 2', 'Final URL'];

const matchLabel: Record<MatchType, string> = { broad: 'Broad', phrase: 'Phrase', exact: 'Exact' };

/** Google notation (`word`, `"phrase"`, `[exact]`) → bare text + match type. */
export function googleNegative(text: string): { keyword: string; match: MatchType } {
  const trimmed = text.trim();
  if (trimmed.startsWith('[') && trimmed.endsWith(']')) return { keyword: trimmed.slice(1, -1), match: 'exact' };
  if (trimmed.startsWith('"') && trimmed.endsWith('"')) return { keyword: trimmed.slice(1, -1), match: 'phrase' };
  return { keyword: trimmed, match: 'broad' };
}

/** Rows of a campaign (already changed), one at a time. */
function* googleRows(campaign: Campaign): Generator<Record<string, string>> {
  for (const negative of campaign.negativeKeywords) {
    const { keyword, match } = googleNegative(negative);
    yield { Campaign: campaign.name, Keyword: keyword, 'Criterion Type': `Campaign Negative ${matchLabel[match]}` };
  }
  for (const group of campaign.groups) {
    for (const keyword of group.keywords) {
      yield { Campaign: campaign.name, 'Ad group': group.name, Keyword: keyword.phrase, 'Criterion Type': matchLabel[keyword.matchType], 'Max CPC': keyword.bid === undefined ? '' : String(keyword.bid) };
    }
    for (const negative of group.negativeKeywords) {
      const { keyword, match } = googleNegative(negative);
      yield { Campaign: campaign.name, 'Ad group': group.name, Keyword: keyword, 'Criterion Type': `Negative ${matchLabel[match]}` };
    }
    for (const ad of group.ads) {
      const row: Record<string, string> = { Campaign: campaign.name, 'Ad group': group.name, 'Ad type': 'Responsive search ad', 'Final URL': ad.finalUrl ?? '' };
      ad.headlines.slice(0, 15).forEach((text, i) => (row[headlineColumns[i]] = text));
      ad.texts.slice(0, 4).forEach((text, i) => (row[descriptionColumns[i]] = text));
      row['Path 1'] = ad.paths?.[0] ?? '';
      row['Path 2'] = ad.paths?.[1] ?? '';
      yield row;
    }
  }
}

/** The Editor CSV of these (changed) campaigns in pieces. Cells a spreadsheet would run as formulas get a leading `'` (server/lib/csv.ts). */
export function googleCsvPieces(campaigns: Iterable<Campaign> | AsyncIterable<Campaign>): AsyncGenerator<string> {
  const lines = (async function* () {
    for await (const campaign of campaigns) for (const row of googleRows(campaign)) yield googleColumns.map((column) => row[column] ?? '');
  })();
  return csvPieces(googleColumns, lines, '\t');
}

/** The whole CSV of the changes in memory (tests). */
export async function exportGoogleCsv(data: CampaignData, changes: ChangeSet): Promise<string> {
  let text = '';
  for await (const piece of googleCsvPieces(changedCampaigns(data, changes))) text += piece;
  return text;
}
