import { describe, expect, it } from 'vitest';
import { generateDirectCsv } from '../../../bench/import.js';
import { importCampaignFiles } from '../../../server/projects/importers/index.js';

describe('an account of 100 000 keywords and 20 000 ads', () => {
  it('imports completely from one Yandex Direct CSV under the 50 MB upload limit', async () => {
    const generated = generateDirectCsv();
    const bytes = new TextEncoder().encode(generated.text);
    expect(bytes.length).toBeLessThan(50 * 1024 * 1024);
    const result = await importCampaignFiles([{ name: 'big.tsv', bytes }]);
    expect(result.problems).toEqual([]);
    expect(result.counts).toEqual({ campaigns: 100, groups: 10_000, ads: 20_000, keywords: 100_000, searchQueries: 0 });
    const group = result.data!.campaigns[7].groups[42];
    expect(group.keywords).toHaveLength(10);
    expect(group.ads.map((ad) => ad.headlines.length)).toEqual([2, 2]);
    expect(group.keywords[1]).toMatchObject({ negativeWords: ['бесплатно', 'б/у'], bid: 22.5 });
  });
});
