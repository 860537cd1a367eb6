/**
 * What changed between two audits of one account: the findings of each, matched by what they are about.
 *
 * A finding is about its check and its target entity (an aggregated finding «N фраз» is about its group
 * or campaign: compared at the level the check reports, never item by item). The entity's identity must
 * survive a re-import, which renumbers everything: row ids and the index keys (`c0g6k0`) change, so they
 * are never used. The platform's id is (Direct keeps an ad's id when it is edited); without one, the
 * campaign, group and the entity's own text, normalised (case, «ё», spaces).
 *
 * Pure: findings in, changes out.
 */
import type { EntityLevel, EntityRef } from '../../../contract/analysis-results.js';

export type ChangeStatus = 'new' | 'fixed' | 'open' | 'worse' | 'better';

/** One finding as the comparison needs it. */
export interface DiffFinding {
  id: string;
  checkId: string;
  title: string;
  target: EntityRef;
  moneyPerMonth: number;
}

export interface FindingChange {
  status: ChangeStatus;
  checkId: string;
  title: string;
  /** «Кампания › Группа › фраза», the entity as a person reads it. */
  entityLabel: string;
  level: EntityLevel;
  moneyBefore: number;
  moneyAfter: number;
  /** After − before, ₽/month: positive = more money lost. */
  moneyChange: number;
  /** The finding in the later audit (absent for a fixed one). */
  currentFindingId?: string;
  /** The finding in the earlier audit (absent for a new one). */
  previousFindingId?: string;
}

/**
 * Money moves smaller than this are noise (a day more or less in the period, rounding), not «хуже» or
 * «лучше»: 5 % of the earlier figure, at least 10 ₽/month.
 */
export const MONEY_TOLERANCE = { share: 0.05, minimumRub: 10 } as const;

const normalise = (text: string | undefined) => (text ?? '').toLocaleLowerCase('ru-RU').replace(/ё/g, 'е').replace(/\s+/g, ' ').trim();

/** The entity's identity across imports: platform id when the import has one, else its names normalised. */
export function entityIdentity(target: EntityRef): string {
  if (target.externalId) return `${target.level}#${target.externalId}`;
  const parts = [target.level, normalise(target.campaignName)];
  if (target.level !== 'campaign' && target.level !== 'account') parts.push(normalise(target.groupName));
  if (target.level !== 'campaign' && target.level !== 'group' && target.level !== 'account') parts.push(normalise(target.label));
  return parts.join('\u0001');
}

export function entityLabel(target: EntityRef): string {
  const parts: string[] = [];
  if (target.campaignName) parts.push(target.campaignName);
  if (target.groupName && target.level !== 'campaign') parts.push(target.groupName);
  const own = target.label;
  if (own && own !== target.campaignName && own !== target.groupName) parts.push(own);
  if (parts.length === 0 && own) parts.push(own);
  return parts.join(' › ');
}

const matchKey = (finding: DiffFinding) => `${finding.checkId}\u0000${entityIdentity(finding.target)}`;

function byMatchKey(findings: readonly DiffFinding[]): Map<string, DiffFinding[]> {
  const groups = new Map<string, DiffFinding[]>();
  for (const finding of findings) {
    const key = matchKey(finding);
    const group = groups.get(key);
    if (group) group.push(finding);
    else groups.set(key, [finding]);
  }
  // Two findings of one check on entities that read the same (two ads with one headline): paired by money.
  for (const group of groups.values()) if (group.length > 1) group.sort((a, b) => b.moneyPerMonth - a.moneyPerMonth);
  return groups;
}

const roundRub = (value: number) => Math.round(value * 100) / 100;

function statusOfPair(before: number, after: number): ChangeStatus {
  const tolerance = Math.max(MONEY_TOLERANCE.minimumRub, Math.abs(before) * MONEY_TOLERANCE.share);
  if (after - before > tolerance) return 'worse';
  if (before - after > tolerance) return 'better';
  return 'open';
}

function changeOf(status: ChangeStatus, before: DiffFinding | undefined, after: DiffFinding | undefined): FindingChange {
  const shown = (after ?? before)!;
  const moneyBefore = roundRub(before?.moneyPerMonth ?? 0);
  const moneyAfter = roundRub(after?.moneyPerMonth ?? 0);
  const change: FindingChange = {
    status,
    checkId: shown.checkId,
    title: shown.title,
    entityLabel: entityLabel(shown.target),
    level: shown.target.level,
    moneyBefore,
    moneyAfter,
    moneyChange: roundRub(moneyAfter - moneyBefore),
  };
  if (after) change.currentFindingId = after.id;
  if (before) change.previousFindingId = before.id;
  return change;
}

const statusOrder: Record<ChangeStatus, number> = { new: 0, worse: 1, fixed: 2, better: 3, open: 4 };

/** The changes from `before` to `after`: every finding of either once; by status, then by the money moved. */
export function diffAudits(before: readonly DiffFinding[], after: readonly DiffFinding[]): FindingChange[] {
  const earlier = byMatchKey(before);
  const changes: FindingChange[] = [];
  for (const [key, laterGroup] of byMatchKey(after)) {
    const earlierGroup = earlier.get(key) ?? [];
    earlier.delete(key);
    laterGroup.forEach((finding, index) => {
      const previous = earlierGroup[index];
      changes.push(previous ? changeOf(statusOfPair(previous.moneyPerMonth, finding.moneyPerMonth), previous, finding) : changeOf('new', undefined, finding));
    });
    for (const gone of earlierGroup.slice(laterGroup.length)) changes.push(changeOf('fixed', gone, undefined));
  }
  for (const group of earlier.values()) for (const gone of group) changes.push(changeOf('fixed', gone, undefined));
  return changes.sort((a, b) => statusOrder[a.status] - statusOrder[b.status] || Math.abs(b.moneyChange) - Math.abs(a.moneyChange) || b.moneyAfter - a.moneyAfter);
}
