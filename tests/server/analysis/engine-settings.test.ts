import { describe, expect, it } from 'vitest';
import { defaultAnalysisSettings } from '../../../contract/analysis-results.js';
import { defaultProjectSettings, ProjectSettingsSchema } from '../../../contract/projects.js';
import * as v from 'valibot';
import { engineSettings, regionWords } from '../../../server/analysis/run-audit.js';
import { ad, campaign, group, kw, query, stats, yandex } from '../../fixtures/analysis/builders.js';
import { analyse } from '../analysis-engine/helpers.js';

describe('project settings reach the engines', () => {
  it('every project threshold maps to an engine setting, and the project defaults are the engine defaults', () => {
    // Not per-project thresholds: home places come from the region, a month is 30 days.
    const { homeRegionWords: _home, daysPerMonth: _days, ...tunable } = defaultAnalysisSettings;
    expect(engineSettings(defaultProjectSettings, 900)).toStrictEqual({ ...tunable, targetCpa: 900 });
  });

  it('keeps the engine default for what the project does not set', () => {
    expect(engineSettings({ same_ad_text_groups: 5, competitors: ['Rehau'] }, null)).toEqual({ targetCpa: null, sameAdTextGroups: 5, competitors: ['Rehau'] });
  });

  it('validates the new thresholds', () => {
    expect(v.safeParse(ProjectSettingsSchema, { same_ad_text_groups: 1 }).success).toBe(false);
    expect(v.safeParse(ProjectSettingsSchema, { min_group_relevance: 1.5 }).success).toBe(false);
    expect(v.safeParse(ProjectSettingsSchema, { competitors: [''] }).success).toBe(false);
    expect(v.safeParse(ProjectSettingsSchema, { expensive_cpc_median_multiple: 3, competitors: ['Veka'] }).success).toBe(true);
  });

  it("turns the project's region into home places the geography negatives leave alone", async () => {
    expect(regionWords('Москва и Московская область')).toEqual(['москва', 'московская', 'область']);
    expect(regionWords(null)).toEqual([]);
    const data = yandex(
      [campaign('Окна', [group('Окна', [kw('окна пвх')], [ad('Окна ПВХ')])], { negativeKeywords: [] })],
      [query('окна пвх казань', stats(70, 2, 60), { campaignName: 'Окна' }), query('окна пвх москва', stats(70, 2, 60), { campaignName: 'Окна' })],
    );
    const texts = async (region: string | null) => (await analyse(data, engineSettings({}, null, region))).semantic.negatives.map((item) => [item.text, item.status]);
    // No region anywhere: geography is for a person to check.
    expect(await texts(null)).toEqual(expect.arrayContaining([['казань', 'check_by_hand'], ['москва', 'check_by_hand']]));
    // Region «Москва»: Казань is foreign, Москва is home and never a negative.
    const withRegion = await texts('Москва');
    expect(withRegion).toContainEqual(['казань', 'ready']);
    expect(withRegion.some(([text]) => text === 'москва')).toBe(false);
  });
});
