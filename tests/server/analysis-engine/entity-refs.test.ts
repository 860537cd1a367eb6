import { describe, expect, it } from 'vitest';
import type { EntityRef } from '../../../contract/analysis-results.js';
import { EntityRefCompactor, expandInPlace, namesNeeded } from '../../../server/analysis/entity-refs.js';

const keyword: EntityRef = {
  level: 'keyword',
  key: 'c0g6k0',
  campaignIndex: 0,
  groupIndex: 6,
  keywordIndex: 0,
  campaignName: 'Мебель 1',
  groupName: 'Недорогие комоды 6',
  label: 'комоды',
  externalId: '901',
};
const ad: EntityRef = { level: 'ad', key: 'c0g6a2', campaignIndex: 0, groupIndex: 6, adIndex: 2, campaignName: 'Мебель 1', groupName: 'Недорогие комоды 6', label: 'Комоды от 5 000 ₽' };
const group: EntityRef = { level: 'group', key: 'c0g6', campaignIndex: 0, groupIndex: 6, campaignName: 'Мебель 1', groupName: 'Недорогие комоды 6', label: 'Недорогие комоды 6', externalId: '77' };
const campaign: EntityRef = { level: 'campaign', key: 'c0', campaignIndex: 0, campaignName: 'Мебель 1', label: 'Мебель 1' };

/** Stores `refs` compactly, then reads them back the way the API does (JSON text, names from the table). */
function roundTrip(refs: EntityRef[]) {
  const compactor = new EntityRefCompactor();
  const stored = JSON.parse(JSON.stringify(refs.map(compactor.compact))) as unknown[];
  const names = new Map(compactor.takeNewNames());
  expect(namesNeeded(stored).every((key) => names.has(key))).toBe(true);
  return { stored: structuredClone(stored), names, read: JSON.stringify(expandInPlace(stored, names)) };
}

describe('compact entity refs (stored result documents)', () => {
  it('stores keyword, ad, group and campaign refs as key, label and platform id, and reads them back byte for byte', () => {
    const refs = [keyword, ad, group, campaign, { ...keyword, key: 'c12g0k305', campaignIndex: 12, groupIndex: 0, keywordIndex: 305, campaignName: 'Другая', groupName: 'Г', externalId: undefined }];
    const { stored, names, read } = roundTrip(refs);
    expect(read).toBe(JSON.stringify(refs));
    expect(stored.slice(0, 4)).toEqual([{ '@': 'c0g6k0', l: 'комоды', x: '901' }, { '@': 'c0g6a2', l: 'Комоды от 5 000 ₽' }, { '@': 'c0g6', x: '77' }, { '@': 'c0' }]);
    // Each name once, whatever the number of refs.
    expect([...names]).toEqual([
      ['c0', 'Мебель 1'],
      ['c0g6', 'Недорогие комоды 6'],
      ['c12', 'Другая'],
      ['c12g0', 'Г'],
    ]);
  });

  it('keeps whole every ref the key and names cannot reproduce exactly', () => {
    const whole: EntityRef[] = [
      { level: 'account', key: 'account', label: 'Аккаунт' },
      // Fields in another order, a missing name, an unexpected field, a wrong index, a key with a leading zero, a level that disagrees with the key.
      { key: 'c0g6k1', level: 'keyword', campaignIndex: 0, groupIndex: 6, keywordIndex: 1, campaignName: 'Мебель 1', groupName: 'Недорогие комоды 6', label: 'x' },
      { level: 'keyword', key: 'c0g6k2', campaignIndex: 0, groupIndex: 6, keywordIndex: 2, label: 'без имён' },
      { ...keyword, key: 'c0g6k3', keywordIndex: 3, extra: 1 } as EntityRef,
      { ...keyword, key: 'c0g6k4', keywordIndex: 5 },
      { ...keyword, key: 'c0g06k4', keywordIndex: 4 },
      { ...keyword, level: 'ad', key: 'c0g6k6', keywordIndex: 6 },
      { ...keyword, key: 'c0g6k7', keywordIndex: 7, externalId: 7 as unknown as string },
      { level: 'campaign', key: 'c0', campaignIndex: 0, campaignName: 'Мебель 1' },
    ];
    const { stored, read } = roundTrip(whole);
    expect(stored).toEqual(JSON.parse(JSON.stringify(whole)));
    expect(read).toBe(JSON.stringify(whole));
  });

  it('keeps whole a ref whose names differ from those already recorded for its campaign or group', () => {
    const renamed: EntityRef = { ...keyword, key: 'c0g6k9', keywordIndex: 9, groupName: 'Другое имя группы' };
    const { stored, read } = roundTrip([keyword, renamed, { ...campaign, campaignName: 'Иначе', label: 'Иначе' }]);
    expect(stored[1]).toEqual(renamed);
    expect(stored[2]).toMatchObject({ level: 'campaign' });
    expect(read).toBe(JSON.stringify([keyword, renamed, { ...campaign, campaignName: 'Иначе', label: 'Иначе' }]));
  });

  it('keeps a group or campaign label that is not its name', () => {
    const labelled: EntityRef = { ...group, label: 'Подпись' };
    const { stored, read } = roundTrip([labelled]);
    expect(stored[0]).toEqual({ '@': 'c0g6', l: 'Подпись', x: '77' });
    expect(read).toBe(JSON.stringify([labelled]));
  });

  it('expands refs anywhere in a document, and leaves documents of full refs (results stored before) as they are', () => {
    const compactor = new EntityRefCompactor();
    const document = { id: 'x', target: compactor.compact(group), because: [compactor.compact(keyword)], nested: { ads: [{ target: compactor.compact(ad), relevance: 0.5 }] } };
    const names = new Map(compactor.takeNewNames());
    expect(JSON.stringify(expandInPlace(JSON.parse(JSON.stringify(document)), names))).toBe(
      JSON.stringify({ id: 'x', target: group, because: [keyword], nested: { ads: [{ target: ad, relevance: 0.5 }] } }),
    );
    const old = { id: 'y', target: keyword, keywords: [ad, campaign] };
    expect(namesNeeded([old])).toEqual([]);
    expect(JSON.stringify(expandInPlace(structuredClone(old), new Map()))).toBe(JSON.stringify(old));
  });

  it('fails loudly rather than inventing a name the stored result lacks', () => {
    const compactor = new EntityRefCompactor();
    const stored = [compactor.compact(keyword)];
    expect(() => expandInPlace(stored, new Map([['c0', 'Мебель 1']]))).toThrow(/c0g6/);
  });
});
