/**
 * Google Ads Editor CSV for the campaigns the accepted changes touch, written after the changes.
 * English headers; keywords with their match type in «Criterion Type»; negatives as Negative
 * Broad/Phrase/Exact (group level, Ad group filled) and Campaign Negative Broad/Phrase/Exact (campaign
 * level); responsive search ads with Headline 1…15, Description 1…4, Path 1/2, Final URL.
 * UTF-8 with a BOM, tab separated (Editor reads both this and its own UTF-16 export).
 */
import type { CampaignData, MatchType } from '../../../src/contract/campaigns.js';
import { csvPieces } from '../../lib/csv.js';
import { applyChanges, type ChangeSet } from './changes.js';


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

/** Rows of the touched campaigns after the changes, one at a time. */
function* googleRows(data: CampaignData, changes: ChangeSet): Generator<Record<string, string>> {
  const changed = applyChanges(data, changes);
  for (const campaignIndex of changes.campaignIndexes) {
    const campaign = changed.campaigns[campaignIndex];
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
}

/** The Editor CSV in pieces. Cells a spreadsheet would run as formulas get a leading `'` (server/lib/csv.ts). */
export function* googleCsvPieces(data: CampaignData, changes: ChangeSet): Generator<string> {
  const lines = (function* () {
    for (const row of googleRows(data, changes)) yield googleColumns.map((column) => row[column] ?? '');
  })();
  yield* csvPieces(googleColumns, lines, '\t');
}

export function exportGoogleCsv(data: CampaignData, changes: ChangeSet): string {
  return [...googleCsvPieces(data, changes)].join('');
}
