/**
 * Entity references stored without their repeated parts. A result's documents repeat the same
 * `EntityRef`s over and over (a keyword's ref in its verdict, its score, its cluster, its duplicates,
 * its finding items…), and most of a ref's bytes say nothing the key does not: the level and the
 * indexes are in the key (`c0g6k0`), the campaign and group names are the same on every ref of the
 * group. Stored, a ref is its key, its label and its platform id (`{"@":"c0g6k0","l":"комоды"}`); the
 * names go once per campaign and group into `analysis_entity_names` (key → name), written with the
 * rows. Readers expand the refs back (`expandEntityRefs`) before anything else sees the documents.
 *
 * Lossless by construction: a ref is compacted only if expanding the compact form gives it back with
 * the same fields in the same order (so the API's JSON is the same bytes), and only if its names
 * agree with the names already recorded for its campaign and group. Any other ref (the account's,
 * a query's, one with an unexpected field) is stored whole, and a whole ref reads back as it is, as
 * do the documents of results saved before compaction.
 */
import type { EntityLevel, EntityRef } from '../../contract/analysis-results.js';

/** A stored compact ref: key, label when it is not the entity's own name (campaign, group), platform id. */
export interface CompactRef {
  '@': string;
  l?: string;
  x?: string;
}
/** The marker of a compact ref: no field of the results contract is called so. */
const MARK = '@';

/** Entity keys: `c<ci>`, `c<ci>g<gi>`, `c<ci>g<gi>k<ki>` (keyword), `c<ci>g<gi>a<ai>` (ad), indexes without leading zeros. */
const KEY = /^c(0|[1-9]\d*)(?:g(0|[1-9]\d*)(?:([ka])(0|[1-9]\d*))?)?$/;

/** The fields of a ref of each level in the order the engine writes them (semantic/prepare.ts), `externalId` optional after them. */
const FIELDS: Record<'campaign' | 'group' | 'keyword' | 'ad', readonly string[]> = {
  campaign: ['level', 'key', 'campaignIndex', 'campaignName', 'label'],
  group: ['level', 'key', 'campaignIndex', 'groupIndex', 'campaignName', 'groupName', 'label'],
  keyword: ['level', 'key', 'campaignIndex', 'groupIndex', 'keywordIndex', 'campaignName', 'groupName', 'label'],
  ad: ['level', 'key', 'campaignIndex', 'groupIndex', 'adIndex', 'campaignName', 'groupName', 'label'],
};

interface ParsedKey {
  level: keyof typeof FIELDS;
  campaignKey: string;
  groupKey: string | null;
  campaignIndex: number;
  groupIndex: number | null;
  /** The keyword's or the ad's index. */
  itemIndex: number | null;
}

function parseKey(key: string): ParsedKey | null {
  const match = KEY.exec(key);
  if (!match) return null;
  const [, campaign, group, kind, item] = match;
  return {
    level: kind === 'k' ? 'keyword' : kind === 'a' ? 'ad' : group !== undefined ? 'group' : 'campaign',
    campaignKey: `c${campaign}`,
    groupKey: group !== undefined ? `c${campaign}g${group}` : null,
    campaignIndex: Number(campaign),
    groupIndex: group !== undefined ? Number(group) : null,
    itemIndex: item !== undefined ? Number(item) : null,
  };
}

/** True if the ref's defined fields are exactly `fields` in this order, then at most `externalId` (JSON drops undefined ones). */
function hasFieldsInOrder(ref: EntityRef, fields: readonly string[]): boolean {
  let index = 0;
  for (const name of Object.keys(ref)) {
    if ((ref as unknown as Record<string, unknown>)[name] === undefined) continue;
    if (index < fields.length ? name !== fields[index] : index > fields.length || name !== 'externalId') return false;
    index++;
  }
  return index >= fields.length;
}

/**
 * Compacts the refs of one result (the engine thread, result-rows.ts). Remembers each ref object it has
 * seen (the engine shares one object per entity, so most refs are a lookup) and the names of the
 * campaigns and groups; `takeNewNames` hands out the names not yet written.
 */
export class EntityRefCompactor {
  /** By identity; weak, so the refs of lists already written can go. */
  private readonly seen = new WeakMap<EntityRef, CompactRef | EntityRef>();
  private readonly names = new Map<string, string>();
  private newNames: [key: string, name: string][] = [];

  /** The ref as stored: compact when that is lossless, else the ref itself. */
  compact = (ref: EntityRef): CompactRef | EntityRef => {
    if (typeof ref !== 'object' || ref === null) return ref;
    let stored = this.seen.get(ref);
    if (stored === undefined) {
      stored = this.compactNew(ref) ?? ref;
      this.seen.set(ref, stored);
    }
    return stored;
  };

  compactAll = (refs: EntityRef[]): (CompactRef | EntityRef)[] => refs.map(this.compact);

  /** Names recorded since the last call, as `[entity key, name]`: to be written before (or with) the rows that use them. */
  takeNewNames(): [key: string, name: string][] {
    const names = this.newNames;
    this.newNames = [];
    return names;
  }

  private compactNew(ref: EntityRef): CompactRef | null {
    if (typeof ref.key !== 'string') return null;
    const key = parseKey(ref.key);
    if (!key || ref.level !== key.level || !hasFieldsInOrder(ref, FIELDS[key.level])) return null;
    if (ref.campaignIndex !== key.campaignIndex || typeof ref.campaignName !== 'string' || typeof ref.label !== 'string') return null;
    if (ref.externalId !== undefined && typeof ref.externalId !== 'string') return null;
    if (key.groupKey !== null && (ref.groupIndex !== key.groupIndex || typeof ref.groupName !== 'string')) return null;
    if (key.level === 'keyword' && ref.keywordIndex !== key.itemIndex) return null;
    if (key.level === 'ad' && ref.adIndex !== key.itemIndex) return null;
    if (!this.agrees(key.campaignKey, ref.campaignName) || (key.groupKey !== null && !this.agrees(key.groupKey, ref.groupName!))) return null;
    const ownName = key.level === 'campaign' ? ref.campaignName : key.level === 'group' ? ref.groupName : undefined;
    const compact: CompactRef = { [MARK]: ref.key };
    if (ref.label !== ownName) compact.l = ref.label;
    if (ref.externalId !== undefined) compact.x = ref.externalId;
    return compact;
  }

  /** Records the name of an entity on first sight; false if it differs from the one recorded. */
  private agrees(key: string, name: string): boolean {
    const known = this.names.get(key);
    if (known === undefined) {
      this.names.set(key, name);
      this.newNames.push([key, name]);
      return true;
    }
    return known === name;
  }
}

const isCompact = (value: object): value is CompactRef => Object.hasOwn(value, MARK);

/** Calls `visit` on every compact ref inside a parsed document; a compact ref's own fields are not walked. */
function forEachCompact(value: unknown, visit: (ref: CompactRef) => void): void {
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) forEachCompact(item, visit);
  } else if (isCompact(value)) {
    visit(value);
  } else {
    for (const name in value) forEachCompact((value as Record<string, unknown>)[name], visit);
  }
}

/** The campaign and group keys whose names the compact refs of these documents need (none for documents without compact refs). */
export function namesNeeded(documents: readonly unknown[]): string[] {
  const keys = new Set<string>();
  for (const document of documents) {
    forEachCompact(document, (ref) => {
      const key = parseKey(ref[MARK]);
      if (!key) throw new Error(`A stored entity reference has an unknown key: ${ref[MARK]}`);
      keys.add(key.campaignKey);
      if (key.groupKey) keys.add(key.groupKey);
    });
  }
  return [...keys];
}

/** The full `EntityRef` of a compact one, its fields in the engine's order. */
function expandRef(ref: CompactRef, names: ReadonlyMap<string, string>): EntityRef {
  const key = parseKey(ref[MARK])!;
  const nameOf = (entityKey: string) => {
    const name = names.get(entityKey);
    if (name === undefined) throw new Error(`The name of ${entityKey} is missing from the stored result (entity ${ref[MARK]})`);
    return name;
  };
  const campaignName = nameOf(key.campaignKey);
  const level: EntityLevel = key.level;
  const full: EntityRef = { level, key: ref[MARK], campaignIndex: key.campaignIndex };
  if (key.groupKey === null) {
    full.campaignName = campaignName;
    full.label = ref.l ?? campaignName;
  } else {
    full.groupIndex = key.groupIndex!;
    if (key.level === 'keyword') full.keywordIndex = key.itemIndex!;
    if (key.level === 'ad') full.adIndex = key.itemIndex!;
    full.campaignName = campaignName;
    full.groupName = nameOf(key.groupKey);
    full.label = ref.l ?? full.groupName;
  }
  if (ref.x !== undefined) full.externalId = ref.x;
  return full;
}

/** Replaces every compact ref inside a parsed document by its full ref, in place; returns the document. */
export function expandInPlace<T>(document: T, names: ReadonlyMap<string, string>): T {
  if (document === null || typeof document !== 'object') return document;
  if (Array.isArray(document)) {
    for (let i = 0; i < document.length; i++) {
      const item: unknown = document[i];
      if (item !== null && typeof item === 'object') document[i] = isCompact(item) ? expandRef(item, names) : expandInPlace(item, names);
    }
    return document;
  }
  const record = document as Record<string, unknown>;
  for (const name in record) {
    const value = record[name];
    if (value !== null && typeof value === 'object') record[name] = isCompact(value) ? expandRef(value, names) : expandInPlace(value, names);
  }
  return document;
}
