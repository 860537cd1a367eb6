import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config.js';
import { describeStartupFailure, StartupError } from '../../../server/startup-error.js';
import { defaultPricingTable, loadPricingTable } from '../../../server/config/pricing-table.js';
import { priceAiPlan, priceCampaigns, priceLandingPages } from '../../../server/tokens/pricing.js';

// The pricing engine is pure: the same counts always give the same price.

describe('priceCampaigns', () => {
  it('prices a campaign as a base plus started blocks of keywords and ads', () => {
    const result = priceCampaigns([{ id: 'c1', name: 'Бренд', keywords_count: 250, ads_count: 60, groups_count: 12 }], ['scoring'], defaultPricingTable);
    // 5 base + 3 blocks of 100 keywords × 2 + 2 blocks of 50 ads × 1; groups are free by default.
    expect(result.total).toBe(13);
    expect(result.breakdown).toEqual([
      {
        index: 0,
        id: 'c1',
        name: 'Бренд',
        cost: 13,
        items: [
          { label: 'Базовая стоимость кампании', amount: 5 },
          { label: 'Ключевые фразы: 250', amount: 6 },
          { label: 'Объявления: 60', amount: 2 },
        ],
      },
    ]);
  });

  it('charges only the base for an empty campaign and sums campaigns into the total', () => {
    const result = priceCampaigns(
      [
        { keywords_count: 0, ads_count: 0 },
        { keywords_count: 100, ads_count: 50 },
        { keywords_count: 101, ads_count: 51 },
      ],
      undefined,
      defaultPricingTable,
    );
    expect(result.breakdown.map((c) => c.cost)).toEqual([5, 8, 11]);
    expect(result.total).toBe(24);
    expect(result.breakdown[0]).not.toHaveProperty('id');
  });

  it('adds the semantic pass as a share of the scoring price, rounded up, once however often it is listed', () => {
    const result = priceCampaigns([{ keywords_count: 250, ads_count: 60 }], ['semantic', 'scoring', 'semantic'], defaultPricingTable);
    // scoring 13; semantic ⌈6.5⌉ = 7.
    expect(result.breakdown[0].items.slice(3)).toEqual([{ label: 'Семантический анализ', amount: 7 }]);
    expect(result.total).toBe(20);
  });

  it('rounds shares without floating-point noise', () => {
    const table = loadPricingTable('{"perCampaign":30,"keywords":{"price":0},"ads":{"price":0},"kinds":{"semantic":0.1}}');
    expect(priceCampaigns([{ keywords_count: 5, ads_count: 5 }], ['semantic'], table).total).toBe(33);
  });
});

describe('loadPricingTable', () => {
  it('keeps the defaults without an override and merges a partial one', () => {
    expect(loadPricingTable(undefined)).toEqual(defaultPricingTable);
    const table = loadPricingTable('{"perCampaign":3,"groups":{"price":1},"kinds":{"semantic":1},"aiPlan":15}');
    expect(table).toEqual({ ...defaultPricingTable, perCampaign: 3, groups: { per: 10, price: 1 }, kinds: { semantic: 1 }, aiPlan: 15 });
    expect(priceCampaigns([{ keywords_count: 0, ads_count: 0, groups_count: 11 }], ['scoring'], table).total).toBe(5);
  });

  it('refuses a malformed override so a bad deployment fails at start-up', () => {
    expect(() => loadPricingTable('{nope')).toThrow(/PRICING_JSON is not valid JSON/);
    expect(() => loadPricingTable('{"perCampaign":-1}')).toThrow(/perCampaign/);
    expect(() => loadPricingTable('{"keywords":{"per":0}}')).toThrow(/keywords\.per/);
    expect(() => loadPricingTable('{"perKeyword":1}')).toThrow(/PRICING_JSON does not match/);
  });

  it('a malformed override stops the configuration step with a hint, not a stack trace while modules load', () => {
    const env = { NODE_ENV: 'test', PRICING_JSON: '{"perCampaign":-1}' } as NodeJS.ProcessEnv;
    const overrides = { jwtSecret: new Uint8Array(32), secretsKey: new Uint8Array(32) };
    expect(() => loadConfig(env, overrides)).toThrow(StartupError);
    const printed = describeStartupFailure(catchError(() => loadConfig(env, overrides)), 'reading the configuration');
    expect(printed).toContain('PRICING_JSON does not match the pricing table: perCampaign');
    expect(printed).toContain('What to do: fix or unset PRICING_JSON');
  });

  it('has no per-campaign price for the page check or the AI plan: those are charged per page and flat', () => {
    expect(Object.keys(defaultPricingTable.kinds)).toEqual(['semantic']);
    expect(() => loadPricingTable('{"kinds":{"relevance":1}}')).toThrow(/PRICING_JSON does not match the pricing table: kinds/);
    expect(() => loadPricingTable('{"kinds":{"ai":2}}')).toThrow(/PRICING_JSON does not match the pricing table: kinds/);
    const table = loadPricingTable('{"perLandingPage":2,"aiPlan":12}');
    expect(priceLandingPages(20, table)).toBe(40);
    expect(priceAiPlan(table)).toBe(12);
  });
});

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}
