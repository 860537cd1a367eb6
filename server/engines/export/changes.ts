/**
 * Accepted suggestions → a set of changes, and those changes applied to a copy of the imported data.
 * The export files are written from the changed data, so a file and the analysis agree by construction.
 *
 * Removing a duplicate keyword cannot be said in a bulk-upload file (uploads add and update, never
 * delete), so removals are applied to the data but the exporters list them as notes for a person.
 */
import type { AdField, EntityRef, Suggestion } from '../../../contract/analysis-results.js';
import type { Ad, Campaign, CampaignData } from '../../../contract/campaigns.js';
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

const emptyChanges = (): ChangeSet => ({ campaignNegatives: [], groupNegatives: [], keywordUpdates: [], keywordRemovals: [], adUpdates: [], campaignIndexes: [] });

const normalise = (text: string) => text.trim().toLowerCase().replace(/ё/g, 'е');

/**
 * Builds the change set one accepted suggestion at a time, in the order they were accepted (the engine's
 * order), so the export can read the suggestions batch by batch and drop each batch's documents: what it
 * keeps is the changes, a few strings per suggestion.
 */
export class ChangeCollector {
  private readonly campaignAdds = new Map<number, string[]>();
  private readonly groupAdds = new Map<string, { campaignIndex: number; groupIndex: number; add: string[] }>();
  private readonly touched = new Set<number>();
  private readonly keywordUpdates = new Map<string, ChangeSet['keywordUpdates'][number]>();
  private readonly changes = emptyChanges();

  add(suggestion: Suggestion, choice: AcceptedSuggestion): void {
    const { target } = suggestion;
    // A «rewrite by hand» fix has no value of its own: without the user's text there is nothing to write.
    if (suggestion.kind === 'ad_field' && suggestion.manual && !choice.value?.trim()) return;
    this.touched.add(target.campaignIndex!);
    if (suggestion.kind === 'negative_keyword' || (suggestion.kind === 'cross_minus' && suggestion.level === 'group')) {
      const texts = suggestion.kind === 'negative_keyword' ? [suggestion.text] : suggestion.add;
      if (target.level === 'campaign') {
        // Pushed, not re-spread: 100 000 accepted negatives of one campaign must stay linear.
        const adds = this.campaignAdds.get(target.campaignIndex!) ?? [];
        adds.push(...texts);
        this.campaignAdds.set(target.campaignIndex!, adds);
      } else {
        const entry = this.groupAdds.get(target.key) ?? { campaignIndex: target.campaignIndex!, groupIndex: target.groupIndex!, add: [] };
        entry.add.push(...texts);
        this.groupAdds.set(target.key, entry);
      }
    } else if (suggestion.kind === 'cross_minus') {
      const { phrase, minus } = splitMinusWords(suggestion.after);
      // Two accepted fixes of one keyword (a duplicate merge and a cross-minus) add up.
      const existing = this.keywordUpdates.get(target.key);
      if (existing) existing.negativeWords = addUnique(existing.negativeWords, minus);
      else {
        const update = { ref: target, phrase, negativeWords: minus };
        this.keywordUpdates.set(target.key, update);
        this.changes.keywordUpdates.push(update);
      }
      this.changes.keywordRemovals.push(...suggestion.remove);
    } else {
      this.changes.adUpdates.push({ ref: target, field: suggestion.field, index: suggestion.index, value: choice.value?.trim() || suggestion.after });
    }
  }

  /** The changes of every suggestion added so far. */
  result(): ChangeSet {
    return {
      ...this.changes,
      campaignNegatives: [...this.campaignAdds].map(([campaignIndex, add]) => ({ campaignIndex, add })),
      groupNegatives: [...this.groupAdds.values()],
      campaignIndexes: [...this.touched].sort((a, b) => a - b),
    };
  }
}

export function collectChanges(suggestions: Suggestion[], accepted: AcceptedSuggestion[]): ChangeSet {
  const byId = new Map(suggestions.map((suggestion) => [suggestion.id, suggestion]));
  const collector = new ChangeCollector();
  for (const choice of accepted) {
    const suggestion = byId.get(choice.id);
    if (suggestion) collector.add(suggestion, choice);
  }
  return collector.result();
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

/** The changes split by the campaign they apply to (each part keeps the order of the whole). */
export function changesByCampaign(changes: ChangeSet): Map<number, ChangeSet> {
  const parts = new Map<number, ChangeSet>();
  const partOf = (campaignIndex: number) => {
    let part = parts.get(campaignIndex);
    if (!part) parts.set(campaignIndex, (part = { ...emptyChanges(), campaignIndexes: [campaignIndex] }));
    return part;
  };
  for (const entry of changes.campaignNegatives) partOf(entry.campaignIndex).campaignNegatives.push(entry);
  for (const entry of changes.groupNegatives) partOf(entry.campaignIndex).groupNegatives.push(entry);
  for (const update of changes.keywordUpdates) partOf(update.ref.campaignIndex!).keywordUpdates.push(update);
  for (const ref of changes.keywordRemovals) partOf(ref.campaignIndex!).keywordRemovals.push(ref);
  for (const update of changes.adUpdates) partOf(update.ref.campaignIndex!).adUpdates.push(update);
  return parts;
}

/** Applies one campaign's part of the changes (`changesByCampaign`) to that campaign, in place. */
export function applyCampaignChanges(campaign: Campaign, changes: ChangeSet): void {
  for (const { add } of changes.campaignNegatives) campaign.negativeKeywords = addUnique(campaign.negativeKeywords, add);
  for (const { groupIndex, add } of changes.groupNegatives) {
    const group = campaign.groups[groupIndex];
    group.negativeKeywords = addUnique(group.negativeKeywords, add);
  }
  for (const update of changes.keywordUpdates) {
    const keyword = campaign.groups[update.ref.groupIndex!].keywords[update.ref.keywordIndex!];
    keyword.phrase = update.phrase;
    keyword.negativeWords = update.negativeWords;
  }
  for (const update of changes.adUpdates) setAdField(campaign.groups[update.ref.groupIndex!].ads[update.ref.adIndex!], update.field, update.index, update.value);
  // Removals last, by index from the end, so earlier indexes stay valid.
  const removals = [...changes.keywordRemovals].sort((a, b) => b.keywordIndex! - a.keywordIndex!);
  for (const ref of removals) campaign.groups[ref.groupIndex!].keywords.splice(ref.keywordIndex!, 1);
}

/** A copy of `data` with the changes applied (the original is not touched). */
export function applyChanges(data: CampaignData, changes: ChangeSet): CampaignData {
  const copy = structuredClone(data);
  for (const [campaignIndex, part] of changesByCampaign(changes)) applyCampaignChanges(copy.campaigns[campaignIndex], part);
  return copy;
}

/** The campaigns the changes touch, in order, each a copy with its changes applied (what an export file lists). */
export function* changedCampaigns(data: CampaignData, changes: ChangeSet): Generator<Campaign> {
  const parts = changesByCampaign(changes);
  for (const campaignIndex of changes.campaignIndexes) {
    const campaign = structuredClone(data.campaigns[campaignIndex]);
    applyCampaignChanges(campaign, parts.get(campaignIndex) ?? emptyChanges());
    yield campaign;
  }
}
