/**
 * Accepted suggestions → a set of changes, and those changes applied to a copy of the imported data.
 * The export files are written from the changed data, so a file and the analysis agree by construction.
 *
 * Removing a duplicate keyword cannot be said in a bulk-upload file (uploads add and update, never
 * delete), so removals are applied to the data but the exporters list them as notes for a person.
 */
import type { AdField, EntityRef, Suggestion } from '../../../src/contract/analysis-results.js';
import type { Ad, CampaignData } from '../../../src/contract/campaigns.js';
import { splitMinusWords } from '../semantic/phrase.js';

export interface AcceptedSuggestion {
  id: string;
  /** The user's edited value of an ad field (defaults to the suggestion's `after`). */
  value?: string;
}

export interface ChangeSet {
  campaignNegatives: { campaignIndex: number; add: string[] }[];
  groupNegatives: { campaignIndex: number; groupIndex: number; add: string[] }[];
  /** A keyword rewritten with minus-words (cross-minus, merged duplicates). */
  keywordUpdates: { ref: EntityRef; phrase: string; negativeWords: string[] }[];
  keywordRemovals: EntityRef[];
  adUpdates: { ref: EntityRef; field: AdField; index: number; value: string }[];
  /** Campaigns any change touches (indexes into `data.campaigns`). */
  campaignIndexes: number[];
}

const normalise = (text: string) => text.trim().toLowerCase().replace(/ё/g, 'е');

export function collectChanges(suggestions: Suggestion[], accepted: AcceptedSuggestion[]): ChangeSet {
  const byId = new Map(suggestions.map((suggestion) => [suggestion.id, suggestion]));
  const changes: ChangeSet = { campaignNegatives: [], groupNegatives: [], keywordUpdates: [], keywordRemovals: [], adUpdates: [], campaignIndexes: [] };
  const campaignAdds = new Map<number, string[]>();
  const groupAdds = new Map<string, { campaignIndex: number; groupIndex: number; add: string[] }>();
  const touched = new Set<number>();
  const keywordUpdates = new Map<string, ChangeSet['keywordUpdates'][number]>();
  for (const choice of accepted) {
    const suggestion = byId.get(choice.id);
    if (!suggestion) continue;
    const { target } = suggestion;
    // A «rewrite by hand» fix has no value of its own: without the user's text there is nothing to write.
    if (suggestion.kind === 'ad_field' && suggestion.manual && !choice.value?.trim()) continue;
    touched.add(target.campaignIndex!);
    if (suggestion.kind === 'negative_keyword' || (suggestion.kind === 'cross_minus' && suggestion.level === 'group')) {
      const texts = suggestion.kind === 'negative_keyword' ? [suggestion.text] : suggestion.add;
      if (target.level === 'campaign') {
        // Pushed, not re-spread: 100 000 accepted negatives of one campaign must stay linear.
        const adds = campaignAdds.get(target.campaignIndex!) ?? [];
        adds.push(...texts);
        campaignAdds.set(target.campaignIndex!, adds);
      } else {
        const entry = groupAdds.get(target.key) ?? { campaignIndex: target.campaignIndex!, groupIndex: target.groupIndex!, add: [] };
        entry.add.push(...texts);
        groupAdds.set(target.key, entry);
      }
    } else if (suggestion.kind === 'cross_minus') {
      const { phrase, minus } = splitMinusWords(suggestion.after);
      // Two accepted fixes of one keyword (a duplicate merge and a cross-minus) add up.
      const existing = keywordUpdates.get(target.key);
      if (existing) existing.negativeWords = addUnique(existing.negativeWords, minus);
      else {
        const update = { ref: target, phrase, negativeWords: minus };
        keywordUpdates.set(target.key, update);
        changes.keywordUpdates.push(update);
      }
      changes.keywordRemovals.push(...suggestion.remove);
    } else {
      changes.adUpdates.push({ ref: target, field: suggestion.field, index: suggestion.index, value: choice.value?.trim() || suggestion.after });
    }
  }
  changes.campaignNegatives = [...campaignAdds].map(([campaignIndex, add]) => ({ campaignIndex, add }));
  changes.groupNegatives = [...groupAdds.values()];
  changes.campaignIndexes = [...touched].sort((a, b) => a - b);
  return changes;
}

function addUnique(list: string[], additions: string[]): string[] {
  const seen = new Set(list.map(normalise));
  const result = [...list];
  for (const text of additions) {
    if (seen.has(normalise(text))) continue;
    seen.add(normalise(text));
    result.push(text);
  }
  return result;
}

function setAdField(ad: Ad, field: AdField, index: number, value: string): void {
  switch (field) {
    case 'headline':
      ad.headlines[index] = value;
      break;
    case 'text':
      ad.texts[index] = value;
      break;
    case 'displayUrl':
      ad.displayUrl = value;
      break;
    case 'path':
      ad.paths = [...(ad.paths ?? [])];
      ad.paths[index] = value;
      break;
    case 'finalUrl':
      ad.finalUrl = value;
      break;
    case 'sitelinkTitle':
      if (ad.sitelinks[index]) ad.sitelinks[index] = { ...ad.sitelinks[index], title: value };
      break;
    case 'sitelinkDescription':
      if (ad.sitelinks[index]) ad.sitelinks[index] = { ...ad.sitelinks[index], description: value };
      break;
    case 'callout':
      ad.callouts[index] = value;
      break;
  }
}

/** A copy of `data` with the changes applied (the original is not touched). */
export function applyChanges(data: CampaignData, changes: ChangeSet): CampaignData {
  const copy = structuredClone(data);
  for (const { campaignIndex, add } of changes.campaignNegatives) {
    const campaign = copy.campaigns[campaignIndex];
    campaign.negativeKeywords = addUnique(campaign.negativeKeywords, add);
  }
  for (const { campaignIndex, groupIndex, add } of changes.groupNegatives) {
    const group = copy.campaigns[campaignIndex].groups[groupIndex];
    group.negativeKeywords = addUnique(group.negativeKeywords, add);
  }
  for (const update of changes.keywordUpdates) {
    const keyword = copy.campaigns[update.ref.campaignIndex!].groups[update.ref.groupIndex!].keywords[update.ref.keywordIndex!];
    keyword.phrase = update.phrase;
    keyword.negativeWords = update.negativeWords;
  }
  for (const update of changes.adUpdates) {
    const ad = copy.campaigns[update.ref.campaignIndex!].groups[update.ref.groupIndex!].ads[update.ref.adIndex!];
    setAdField(ad, update.field, update.index, update.value);
  }
  // Removals last, by index from the end, so earlier indexes stay valid.
  const removals = [...changes.keywordRemovals].sort((a, b) => b.keywordIndex! - a.keywordIndex!);
  for (const ref of removals) copy.campaigns[ref.campaignIndex!].groups[ref.groupIndex!].keywords.splice(ref.keywordIndex!, 1);
  return copy;
}
