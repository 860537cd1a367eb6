import { describe, expect, it } from 'vitest';
import type { EntityRef, Suggestion } from '../../../contract/analysis-results.js';
import { directFieldLabels } from '../../../contract/changes.js';
import { changeMessages } from '../../../contract/messages.js';
import { batches, changedSince, limitProblem, mergeNegatives, planChanges, unitsFor, valuesAfter, withMinusWords } from '../../../server/engines/changes/plan.js';

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
