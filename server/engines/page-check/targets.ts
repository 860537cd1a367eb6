/**
 * Which ad groups lead to which landing page. Ads of one group often differ only in their UTM tags, so
 * addresses are grouped by `pageKey` (tracking parameters and fragment dropped) and the first address
 * seen is the one fetched: with its UTM tags, so the check can tell whether a redirect keeps them.
 */
import type { Campaign } from '../../../contract/campaigns.js';
import type { LandingUrl } from '../../../contract/page-check.js';
import { pageKey, type GroupTarget } from './engine.js';

export interface LandingPage {
  /** The address fetched (the first ad address of this page). */
  url: string;
  key: string;
  campaigns: Set<string>;
  groups: GroupTarget[];
}

const isHttp = (url: string) => /^https?:\/\//i.test(url.trim());

export function collectLandingPages(campaigns: readonly Campaign[]): LandingPage[] {
  const pages = new Map<string, LandingPage>();
  for (const campaign of campaigns) {
    for (const group of campaign.groups) {
      // One target per (page, group): the group's ads leading to this page.
      const byPage = new Map<string, GroupTarget>();
      for (const ad of group.ads) {
        const address = ad.finalUrl?.trim();
        if (!address || !isHttp(address)) continue;
        const key = pageKey(address);
        let page = pages.get(key);
        if (!page) {
          page = { url: address, key, campaigns: new Set(), groups: [] };
          pages.set(key, page);
        }
        page.campaigns.add(campaign.name);
        let target = byPage.get(key);
        if (!target) {
          target = {
            campaign: campaign.name,
            group: group.name,
            keywords: group.keywords.map((keyword) => ({ phrase: keyword.phrase, negativeWords: keyword.negativeWords, isAutotargeting: keyword.isAutotargeting })),
            headlines: [],
            texts: [],
            ads: 0,
            cost: 0,
            clicks: 0,
          };
          byPage.set(key, target);
          page.groups.push(target);
        }
        target.ads += 1;
        target.headlines.push(...ad.headlines.filter(Boolean));
        target.texts.push(...ad.texts.filter(Boolean));
        target.cost += ad.stats?.cost ?? 0;
        target.clicks += ad.stats?.clicks ?? 0;
      }
    }
  }
  // Pages with the most traffic sources first: when there are more than 100, those matter most.
  return [...pages.values()].sort((a, b) => b.groups.length - a.groups.length || a.url.localeCompare(b.url));
}

export function describeLandingPages(pages: readonly LandingPage[]): LandingUrl[] {
  return pages.map((page) => ({
    url: page.url,
    campaigns: page.campaigns.size,
    groups: page.groups.length,
    keywords: page.groups.reduce((sum, group) => sum + group.keywords.length, 0),
    ads: page.groups.reduce((sum, group) => sum + group.ads, 0),
  }));
}
