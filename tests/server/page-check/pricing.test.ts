import { describe, expect, it } from 'vitest';
import { defaultPricingTable, loadPricingTable } from '../../../server/config/pricing-table.js';
import { priceLandingPages } from '../../../server/tokens/pricing.js';

describe('page check price', () => {
  it('costs perLandingPage tokens a page, overridable by PRICING_JSON', () => {
    expect(defaultPricingTable.perLandingPage).toBe(1);
    expect(priceLandingPages(20, defaultPricingTable)).toBe(20);
    const table = loadPricingTable('{"perLandingPage":3}');
    expect(priceLandingPages(4, table)).toBe(12);
    expect(() => loadPricingTable('{"perLandingPage":-1}')).toThrow(/PRICING_JSON does not match/);
  });
});
