import { describe, expect, it } from 'vitest';
import type { EntityRef, Suggestion } from '../../../contract/analysis-results.js';
import { directFieldLabels, shownDirectValue } from '../../../contract/changes.js';
import { changeMessages } from '../../../contract/messages.js';
import { batches, bidChange, bidItem, changedSince, limitProblem, mergeNegatives, mergeSites, planChanges, unitsFor, valuesAfter, withMinusWords } from '../../../server/engines/changes/plan.js';

const campaignRef: EntityRef = { level: 'campaign', key: 'c0', campaignIndex: 0, campaignName: 'Поиск', externalId: '701' };
const negative = (text: string, ref: EntityRef = campaignRef): Suggestion => ({
  id: `neg:${ref.key}|${text}`,
  kind: 'negative_keyword',
  level: ref.level === 'campaign' ? 'campaign' : 'group',
  target: ref,
  text,
  category: 'free',
  status: 'ready',
  source: 'queries',
  reason: '',
  queries: [],
  clicks: 0,
  cost: 0,
  costPerMonth: 0,
  evidence: [],
});

describe('the change plan', () => {
  it('merges additions into the list as it is, keeping every existing entry and skipping ones it has', () => {
    expect(mergeNegatives(['Бесплатно', 'своими руками'], ['бесплатно', 'скачать', '-торрент', 'ёлка', 'елка'])).toEqual(['Бесплатно', 'своими руками', 'скачать', 'торрент', 'ёлка']);
    expect(withMinusWords('тёплый пол -водяной', ['водяной', 'купить'])).toBe('тёплый пол -водяной -купить');
  });

  it('makes one item per object and says what the API cannot carry', () => {
    const groupRef: EntityRef = { level: 'group', key: 'c0g0', campaignIndex: 0, groupIndex: 0, groupName: 'Группа', externalId: '8001' };
    const noId: EntityRef = { level: 'campaign', key: 'c1', campaignIndex: 1, campaignName: 'Без id' };
    const plan = planChanges(
      [
        { suggestion: negative('скачать'), value: null },
        { suggestion: negative('торрент'), value: null },
        { suggestion: negative('даром', groupRef), value: null },
        { suggestion: negative('даром', noId), value: null },
        { suggestion: { id: 'ad:1', kind: 'ad_field', target: { level: 'ad', key: 'c0g0a0', externalId: '9001', label: 'Объявление' }, field: 'callout', index: 0, before: 'a', after: 'b', reason: '' }, value: null },
        { suggestion: { id: 'ad:2', kind: 'ad_field', target: { level: 'ad', key: 'c0g0a0', externalId: '9001', label: 'Объявление' }, field: 'headline', index: 1, before: 'a', after: '', manual: { limit: 30, length: 40 }, reason: '' }, value: 'Свой текст' },
      ],
      changeMessages,
    );
    expect(plan.items).toEqual([
      { kind: 'campaign_negatives', objectId: '701', label: 'Поиск', suggestionIds: ['neg:c0|скачать', 'neg:c0|торрент'], change: { add: ['скачать', 'торрент'] } },
      { kind: 'group_negatives', objectId: '8001', label: 'Группа', suggestionIds: ['neg:c0g0|даром'], change: { add: ['даром'] } },
      { kind: 'ad_texts', objectId: '9001', label: 'Объявление', suggestionIds: ['ad:2'], change: { set: { Title2: 'Свой текст' } } },
    ]);
    expect(plan.skipped.map((skipped) => skipped.reason)).toEqual([changeMessages.noExternalId, changeMessages.notSupported.replace('{what}', 'быстрые ссылки и уточнения')]);
  });

  it('refuses a list over Direct’s limit and describes what changed since a write', () => {
    const long = Array.from({ length: 1000 }, (_, i) => `слово${i}`); // about 8 000 characters
    expect(limitProblem('group_negatives', valuesAfter('group_negatives', { NegativeKeywords: [] }, { add: long }))).toMatchObject({ limit: 4096 });
    expect(limitProblem('campaign_negatives', valuesAfter('campaign_negatives', { NegativeKeywords: [] }, { add: long }))).toBeNull();
    expect(changedSince({ NegativeKeywords: ['а', 'б'] }, { NegativeKeywords: ['а', 'в'] }, directFieldLabels)).toBe('Минус-фразы: добавлено «в»; Минус-фразы: удалено «б»');
    expect(changedSince({ Title: 'Старый' }, { Title: 'Новый' }, directFieldLabels)).toBe('Заголовок 1: «Старый» → «Новый»');
    expect(changedSince({ Keyword: 'пол -ремонт' }, { Keyword: 'пол -ремонт' }, directFieldLabels)).toBeNull();
  });

  it('splits writes within the method limits and counts the points of the batches', () => {
    expect(batches(Array.from({ length: 25 }, (_, i) => i), 10).map((piece) => piece.length)).toEqual([10, 10, 5]);
    // 25 campaigns: 1 read of ≤ 1 000 (10 + 25), 3 updates of ≤ 10 (3 × 10 + 25 × 3).
    expect(unitsFor('campaign_negatives', 25)).toBe(10 + 25 + 30 + 75);
    expect(unitsFor('ad_texts', 0)).toBe(0);
  });
});

describe('bids and excluded sites', () => {
  const keywordRef: EntityRef = { level: 'keyword', key: 'c0g0k0', campaignIndex: 0, groupIndex: 0, keywordIndex: 0, label: 'тёплый пол', externalId: '10011' } as EntityRef;
  const verdict = (action: 'lower_bid' | 'raise_bid' | 'stop', cost: number, conversions: number) => ({ target: keywordRef, action, clicks: 50, cost, conversions, referenceCpa: 1000 });

  it('takes the advice’s first step: at most −30 % or +20 %, the exact step in between', () => {
    expect(bidItem(verdict('lower_bid', 5000, 1))!.change.bidFactor).toBeCloseTo(0.7);
    expect(bidItem(verdict('lower_bid', 1200, 1))!.change.bidFactor).toBeCloseTo(1000 / 1200);
    expect(bidItem(verdict('raise_bid', 1000, 5))!.change.bidFactor).toBeCloseTo(1.2);
    expect(bidItem(verdict('stop', 1000, 0))).toBeNull();
    expect(bidItem({ ...verdict('lower_bid', 5000, 1), target: { ...keywordRef, externalId: undefined } })).toBeNull();
  });

  it('writes bids only where the strategy is manual, rounded to 0,10 ₽, never under 0,30 ₽', () => {
    const manualSearch = { search: true, network: false, strategy: null };
    expect(bidChange({ SearchBid: '15000000', NetworkBid: '5000000' }, manualSearch, 0.7)).toEqual({ set: { SearchBid: '10500000' } });
    expect(bidChange({ SearchBid: '12340000', NetworkBid: '5000000' }, { search: true, network: true, strategy: null }, 1.2)).toEqual({ set: { SearchBid: '14800000', NetworkBid: '6000000' } });
    expect(bidChange({ SearchBid: '400000' }, manualSearch, 0.5)).toEqual({ set: { SearchBid: '300000' } });
    expect(bidChange({ SearchBid: '15000000' }, { search: false, network: false, strategy: 'стратегия «Максимум кликов»' }, 0.7)).toEqual({ reason: 'automatic' });
    expect(bidChange({ SearchBid: null, NetworkBid: '5000000' }, manualSearch, 0.7)).toEqual({ reason: 'no_bid' });
    expect(bidChange({ SearchBid: '300000' }, manualSearch, 0.9)).toEqual({ reason: 'unchanged' });
    expect(shownDirectValue('SearchBid', '10500000')).toBe('10,50 ₽');
    expect(changedSince({ SearchBid: '10500000' }, { SearchBid: '12000000' }, directFieldLabels, shownDirectValue)).toBe('Ставка на поиске: «10,50 ₽» → «12,00 ₽»');
  });

  it('merges sites without case or www., keeps the list within 1 000 and names what did not fit', () => {
    expect(mergeSites(['www.Games.example'], ['games.example', 'news.example'])).toEqual({ list: ['www.Games.example', 'news.example'], left: [] });
    const full = Array.from({ length: 999 }, (_, i) => `s${i}.example`);
    expect(mergeSites(full, ['a.example', 'b.example', 's1.example'])).toEqual({ list: [...full, 'a.example'], left: ['b.example'] });
    expect(valuesAfter('campaign_excluded_sites', { ExcludedSites: ['x.example'] }, { add: ['y.example'] })).toEqual({ ExcludedSites: ['x.example', 'y.example'] });
  });
});
