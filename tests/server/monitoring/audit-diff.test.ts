import { describe, expect, it } from 'vitest';
import type { EntityRef } from '../../../contract/analysis-results.js';
import { diffAudits, entityIdentity, type DiffFinding } from '../../../server/engines/diff/audit-diff.js';

const keyword = (key: string, label: string, extra: Partial<EntityRef> = {}): EntityRef => ({ level: 'keyword', key, campaignName: 'Окна — поиск', groupName: 'Пластиковые окна', label, ...extra });
const finding = (id: string, checkId: string, target: EntityRef, moneyPerMonth = 0): DiffFinding => ({ id, checkId, title: checkId, target, moneyPerMonth });

describe('the audit diff engine', () => {
  it('matches an entity by its names, whatever its index key, case, «ё» and spaces', () => {
    expect(entityIdentity(keyword('c0g0k0', 'Окна  ПВХ ёлка'))).toBe(entityIdentity(keyword('c3g7k12', 'окна пвх елка')));
    expect(entityIdentity(keyword('c0g0k0', 'окна'))).not.toBe(entityIdentity(keyword('c0g0k0', 'окна', { groupName: 'Другие окна' })));
  });

  it('prefers the platform id: a renamed entity with the same id is the same', () => {
    expect(entityIdentity(keyword('c0g0k0', 'окна', { externalId: '77' }))).toBe(entityIdentity(keyword('c1g0k4', 'окна пвх', { externalId: '77' })));
  });

  it('new, fixed, open, worse and better, money over a 5 % (at least 10 ₽) tolerance', () => {
    const before = [
      finding('b1', 'keyword.action_stop', keyword('c0g0k1', 'окна пвх'), 5000),
      finding('b2', 'keyword.action_stop', keyword('c0g0k2', 'окна дешево'), 1000),
      finding('b3', 'keyword.action_stop', keyword('c0g0k3', 'окна цена'), 1000),
      finding('b4', 'keyword.action_stop', keyword('c0g0k4', 'окна купить'), 2000),
      finding('b5', 'ad.no_sitelinks', { level: 'ad', key: 'c0g0a0', campaignName: 'Окна — поиск', groupName: 'Пластиковые окна', label: 'Окна от завода' }),
    ];
    const after = [
      finding('a1', 'keyword.action_stop', keyword('c0g0k2', 'окна пвх'), 5040),
      finding('a2', 'keyword.action_stop', keyword('c0g0k3', 'окна дешево'), 1200),
      finding('a3', 'keyword.action_stop', keyword('c0g0k4', 'окна цена'), 900),
      finding('a4', 'keyword.action_stop', keyword('c0g0k0', 'окна оптом'), 3000),
    ];
    const changes = diffAudits(before, after);
    expect(changes.map((change) => [change.status, change.entityLabel.split(' › ').at(-1), change.moneyChange, change.currentFindingId ?? null])).toEqual([
      ['new', 'окна оптом', 3000, 'a4'],
      ['worse', 'окна дешево', 200, 'a2'],
      ['fixed', 'окна купить', -2000, null],
      ['fixed', 'Окна от завода', 0, null],
      ['better', 'окна цена', -100, 'a3'],
      ['open', 'окна пвх', 40, 'a1'],
    ]);
  });

  it('pairs two findings of one check on entities that read the same by money, and counts the extra one', () => {
    const ad = (key: string): EntityRef => ({ level: 'ad', key, campaignName: 'К', groupName: 'Г', label: 'Окна' });
    const changes = diffAudits([finding('b1', 'ad.no_utm', ad('c0g0a0')), finding('b2', 'ad.no_utm', ad('c0g0a1'))], [finding('a1', 'ad.no_utm', ad('c0g0a3'))]);
    expect(changes.map((change) => change.status)).toEqual(['fixed', 'open']);
  });
});
