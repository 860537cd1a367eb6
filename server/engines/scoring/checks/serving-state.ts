/**
 * Whether a campaign, ad or keyword can show, as far as the import says: the one definition the moderation
 * and serving checks share. Unknown (a file without status columns) counts as showing.
 */
import type { Ad, Campaign, Keyword } from '../../../../contract/campaigns.js';

/**
 * Stopped or archived by the person: Direct `State` SUSPENDED / ARCHIVED (lower case in the model), Google
 * `Paused` / `Removed`, a Direct export's «Остановлено», «Архивное». Direct's `OFF` is not a choice (the
 * object does not show for another reason) and is not counted here.
 */
export function isStoppedByUser(status: string | undefined): boolean {
  if (!status) return false;
  const value = status.trim().toLowerCase();
  return value === 'suspended' || value === 'archived' || value === 'paused' || value === 'removed' || value.startsWith('остановлен') || value.startsWith('архив');
}

/** The keyword can show: not stopped and not rejected. */
export const keywordServes = (keyword: Keyword) => !isStoppedByUser(keyword.status) && keyword.moderation?.status !== 'rejected';

/** Campaign states in which nothing is meant to show (Direct `State`, lower case). */
const CAMPAIGN_NOT_SHOWING = new Set(['off', 'suspended', 'ended', 'archived', 'converted']);

/** The campaign is on (or the import does not say) and was sent to moderation. */
export function campaignMeantToShow(campaign: Campaign): boolean {
  return !CAMPAIGN_NOT_SHOWING.has(campaign.state ?? '') && campaign.status !== 'draft' && !isStoppedByUser(campaign.state) && !isStoppedByUser(campaign.status);
}

const NOT_SERVING_MODERATION = new Set(['rejected', 'draft']);

/** The ad can show: not stopped by the person, and not rejected or a draft (unknown moderation counts as serving). */
export function adServes(ad: Ad): boolean {
  return !isStoppedByUser(ad.status) && !NOT_SERVING_MODERATION.has(ad.moderation?.status ?? '');
}

