/**
 * Google Ads Editor CSV for the campaigns the accepted changes touch, written after the changes.
 * English headers; keywords with their match type in «Criterion Type»; negatives as Negative
 * Broad/Phrase/Exact (group level, Ad group filled) and Campaign Negative Broad/Phrase/Exact (campaign
 * level); responsive search ads with Headline 1…15, Description 1…4, Path 1/2, Final URL, built so that
 * Editor accepts them (google-rsa.ts: an ad that cannot make one is left out and counted).
 * UTF-8 with a BOM, tab separated (Editor reads both this and its own UTF-16 export).
 *
 * Editor finds existing campaigns, ad groups and keywords by their names and texts (its CSV has no ID
 * columns to match on), so the names are written exactly as they were imported.
 *
 * A Yandex Direct account exported for Editor (moving it to Google Ads) is translated where Google has
 * an equivalent, and what has none is left out rather than written wrong:
 * - Direct operators (`"…"`, `[…]`, `!`, `+`) are taken off the texts: the match type says it in Google;
 * - a keyword's own minus-words (the cross-minus, `шуба -норковая`) become negatives of its ad group,
 *   because a Google keyword has no minus-words of its own; a minus-word that is a word of another
 *   keyword of the same group is left out (as a group negative it would switch that keyword off, and
 *   Google already gives a query to the group's closest keyword);
 * - Yandex macros in final URLs become Google ValueTrack parameters (`{campaign_id}` → `{campaignid}`,
 *   `urlMacros`); a macro with no equivalent is removed with its parameter.
 */
import type { AdGroup, AdPlatform, Campaign, CampaignData, MatchType } from '../../../contract/campaigns.js';
import { csvPieces } from '../../lib/csv.js';
import { changedCampaigns, type ChangeSet } from './changes.js';
import { responsiveSearchAd, SkippedAds } from './google-rsa.js';

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

/**
 * Yandex Direct URL macros and their Google ValueTrack equivalents (`null`: Google has none, the macro is
 * left out). Direct: «Параметры в URL»; Google: «ValueTrack parameters».
 */
const urlMacros: Record<string, string | null> = {
  campaign_id: 'campaignid',
  gbid: 'adgroupid',
  ad_id: 'creative',
  banner_id: 'creative',
  phrase_id: 'targetid',
  keyword: 'keyword',
  device_type: 'device',
  source: 'placement',
  source_type: 'network',
  campaign_name: null,
  campaign_name_lat: null,
  campaign_type: null,
  position: null,
  position_type: null,
  region_id: null,
  region_name: null,
  retargeting_id: null,
  interest_id: null,
  adtarget_id: null,
  adtarget_name: null,
  addphrases: null,
  addphrasestext: null,
  creative_id: null,
  coef_goal_context_id: null,
};

/**
 * A Direct final URL with its macros in Google's terms: known macros translated, the others removed
 * (a query parameter left empty by that goes as a whole). `{lpurl}`-style Google macros are not touched.
 */
export function googleFinalUrl(url: string): string {
  const translate = (text: string) =>
    text.replace(/\{([a-z_0-9]+)\}/gi, (whole, name: string) => {
      const key = name.toLowerCase();
      if (!(key in urlMacros)) return whole;
      const google = urlMacros[key];
      return google ? `{${google}}` : '';
    });
  const queryStart = url.indexOf('?');
  if (queryStart < 0) return translate(url);
  const hashStart = url.indexOf('#', queryStart);
  const query = url.slice(queryStart + 1, hashStart < 0 ? undefined : hashStart);
  const hash = hashStart < 0 ? '' : url.slice(hashStart);
  const parameters = query
    .split('&')
    .map((parameter) => {
      const equals = parameter.indexOf('=');
      if (equals < 0) return translate(parameter);
      const value = translate(parameter.slice(equals + 1));
      return value === '' && parameter.slice(equals + 1) !== '' ? '' : `${parameter.slice(0, equals)}=${value}`;
    })
    .filter(Boolean);
  return `${translate(url.slice(0, queryStart))}${parameters.length > 0 ? `?${parameters.join('&')}` : ''}${hash}`;
}

/** A Direct phrase without its operators (`"…"`, `[…]`, `!`, `+`): Google says the match type in its own column. */
export const withoutDirectOperators = (text: string) =>
  text
    .replace(/["[\]]/g, '')
    .replace(/(^|\s)[!+]+/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();

const normalWord = (word: string) => word.toLowerCase().replace(/ё/g, 'е');

/**
 * The ad group's negatives for Editor: its own, then the minus-words of its keywords (a Google keyword has
 * none of its own) except those that are a word of one of the group's keywords (see the file's comment).
 */
function groupNegatives(group: AdGroup, notation: AdPlatform): string[] {
  const own = notation === 'google_ads' ? group.negativeKeywords : group.negativeKeywords.map(withoutDirectOperators);
  const keywordWords = new Set(group.keywords.flatMap((keyword) => withoutDirectOperators(keyword.phrase).split(' ').map(normalWord)));
  const seen = new Set(own.map(normalWord));
  const result = [...own];
  for (const keyword of group.keywords) {
    for (const minus of keyword.negativeWords) {
      const text = withoutDirectOperators(minus);
      const key = normalWord(text);
      if (!text || seen.has(key) || text.split(' ').some((word) => keywordWords.has(normalWord(word)))) continue;
      seen.add(key);
      result.push(text);
    }
  }
  return result;
}

/**
 * Rows of a campaign (already changed), one at a time; `notation`: the platform its texts are written for
 * when the campaign does not say. Ads that make no valid RSA are counted in `skipped` instead of written.
 */
function* googleRows(campaign: Campaign, fallbackNotation: AdPlatform, skipped: SkippedAds): Generator<Record<string, string>> {
  const notation = campaign.platform ?? fallbackNotation;
  const fromDirect = notation !== 'google_ads';
  for (const negative of campaign.negativeKeywords) {
    const { keyword, match } = googleNegative(fromDirect ? withoutDirectOperators(negative) : negative);
    yield { Campaign: campaign.name, Keyword: keyword, 'Criterion Type': `Campaign Negative ${matchLabel[match]}` };
  }
  for (const group of campaign.groups) {
    for (const keyword of group.keywords) {
      if (keyword.isAutotargeting) continue;
      const text = fromDirect ? withoutDirectOperators(keyword.phrase) : keyword.phrase;
      yield { Campaign: campaign.name, 'Ad group': group.name, Keyword: text, 'Criterion Type': matchLabel[keyword.matchType], 'Max CPC': keyword.bid === undefined ? '' : String(keyword.bid) };
    }
    for (const negative of groupNegatives(group, notation)) {
      const { keyword, match } = googleNegative(negative);
      yield { Campaign: campaign.name, 'Ad group': group.name, Keyword: keyword, 'Criterion Type': `Negative ${matchLabel[match]}` };
    }
    const keywords = fromDirect ? group.keywords.filter((keyword) => !keyword.isAutotargeting).map((keyword) => withoutDirectOperators(keyword.phrase)) : [];
    for (const ad of group.ads) {
      const finalUrl = ad.finalUrl && fromDirect ? googleFinalUrl(ad.finalUrl) : (ad.finalUrl ?? '');
      const rsa = responsiveSearchAd(ad, keywords, finalUrl, fromDirect);
      if (!rsa.ok) {
        skipped.add(rsa.reason, { campaign: campaign.name, group: group.name, headline: ad.headlines[0] });
        continue;
      }
      const row: Record<string, string> = { Campaign: campaign.name, 'Ad group': group.name, 'Ad type': 'Responsive search ad', 'Final URL': rsa.ad.finalUrl };
      rsa.ad.headlines.forEach((text, i) => (row[headlineColumns[i]] = text));
      rsa.ad.descriptions.forEach((text, i) => (row[descriptionColumns[i]] = text));
      row['Path 1'] = rsa.ad.paths[0] ?? '';
      row['Path 2'] = rsa.ad.paths[1] ?? '';
      yield row;
    }
  }
}

/**
 * The Editor CSV of these (changed) campaigns in pieces. Cells a spreadsheet would run as formulas get a
 * leading `'` (server/lib/csv.ts). `notation`: the platform of the analysed account (campaigns imported
 * before the importers marked each campaign's platform say nothing themselves); `skipped` counts the ads
 * left out (google-rsa.ts).
 */
export function googleCsvPieces(campaigns: Iterable<Campaign> | AsyncIterable<Campaign>, notation: AdPlatform, skipped: SkippedAds = new SkippedAds()): AsyncGenerator<string> {
  const lines = (async function* () {
    for await (const campaign of campaigns) for (const row of googleRows(campaign, notation, skipped)) yield googleColumns.map((column) => row[column] ?? '');
  })();
  return csvPieces(googleColumns, lines, '\t');
}

/** The ads of these (changed) campaigns that the Editor file leaves out, counted without writing it. */
export async function skippedEditorAds(campaigns: Iterable<Campaign> | AsyncIterable<Campaign>, notation: AdPlatform): Promise<SkippedAds> {
  const skipped = new SkippedAds();
  for await (const campaign of campaigns) {
    const rows = googleRows(campaign, notation, skipped);
    // Only the counting matters: the rows are made and dropped one by one.
    while (!rows.next().done) continue;
  }
  return skipped;
}

/** The whole CSV of the changes in memory (tests). */
export async function exportGoogleCsv(data: CampaignData, changes: ChangeSet): Promise<string> {
  let text = '';
  for await (const piece of googleCsvPieces(changedCampaigns(data, changes), data.platform)) text += piece;
  return text;
}
