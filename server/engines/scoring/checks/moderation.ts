/**
 * Moderation (issue 22): what Yandex said of the ads, their sitelinks, images and display links, and what
 * follows from it for a group and a campaign. Read from the Direct API (`Ads.Status` with
 * `StatusClarification`, `TextAd.SitelinksModeration` / `AdImageModeration` / `DisplayUrlPathModeration`)
 * or from a Direct export's status columns (importers/moderation-columns.ts). An import that says nothing
 * of moderation gets no finding here: an ad whose moderation is unknown counts as serving.
 *
 * - a rejected ad, with Yandex's reason, unless the person has stopped it (then the group check speaks);
 * - rejected sitelinks, image, display link of an ad that is on;
 * - stuck on moderation: no impression over a statistics period of at least `moderationStuckDays` (only
 *   where the import has statistics per ad; an edited ad on moderation keeps showing its old version);
 * - a draft never sent in a campaign that is on;
 * - a group with keywords and ads, none of which serves; a campaign that is on and where no group serves
 *   (one finding there instead of one per group);
 * - a text ad without an image in a campaign that shows in the networks (where the import reads images).
 * Campaigns that are stopped, ended, archived or still drafts are left out: nothing of theirs is meant to show.
 */
import type { Moderation } from '../../../../contract/campaigns.js';
import { formatCountOf } from '../../../../contract/format.js';
import type { PreparedAd, PreparedCampaign, PreparedGroup } from '../../semantic/prepare.js';
import { countOf } from '../aggregate.js';
import { oneEvidence, type ScoringContext } from '../context.js';
import { checks, makeFinding } from '../registry.js';
import { adServes, campaignMeantToShow, isStoppedByUser, keywordServes } from './serving-state.js';

const reasonSentence = (moderation: Moderation) =>
  moderation.clarification ? `Причина, которую назвал Яндекс: «${moderation.clarification}».` : 'Причину Яндекс показывает в интерфейсе Директа у объявления.';

/** «Объявление «…» (группа «…»)»: by its headline, else its image, else its number. */
function adName(ad: PreparedAd, group: PreparedGroup): string {
  const headline = ad.ad.headlines[0];
  const name = headline ? `Объявление «${headline}»` : ad.ad.image ? `Графическое объявление «${ad.ad.image}»` : `Объявление № ${ad.ad.externalId ?? ad.ref.key}`;
  return `${name} (группа «${group.group.name}»)`;
}

export function runModerationChecks(context: ScoringContext): void {
  const { account } = context;
  const adStatsKnown = account.ads.some((ad) => ad.ad.stats !== undefined);
  // Images are known where the import reads them: the Direct API (the only import that reads strategies) or a file with images.
  const imagesKnown = account.platform === 'yandex_direct' && (account.campaigns.some((campaign) => campaign.campaign.strategy) || account.ads.some((ad) => ad.ad.image !== undefined || ad.ad.imageModeration !== undefined));
  for (const campaign of account.campaigns) {
    if (!campaignMeantToShow(campaign.campaign)) continue;
    const servingGroups = campaign.groups.filter(groupServes);
    const campaignSilent = campaign.groups.length > 0 && servingGroups.length === 0 && campaign.groups.some(groupJudged);
    if (campaignSilent) noActiveGroups(campaign, context);
    for (const group of campaign.groups) {
      const keywordsLive = group.keywords.length === 0 || group.keywords.some((keyword) => keywordServes(keyword.keyword));
      if (!campaignSilent && !adsServe(group) && keywordsLive && groupJudged(group)) noActiveAds(group, campaign, context);
      for (const ad of group.ads) {
        adModeration(ad, group, context);
        if (ad.ad.moderation?.status === 'moderation' && adStatsKnown && !isStoppedByUser(ad.ad.status)) stuckOnModeration(ad, group, context);
        if (ad.ad.moderation?.status === 'draft' && !isStoppedByUser(ad.ad.status)) draftNotSent(ad, group, context);
        if (imagesKnown && showsInNetworks(campaign) && ad.ad.kind === 'text' && !ad.ad.image && adServes(ad.ad)) noImageInNetworks(ad, group, campaign, context);
      }
    }
  }
}

/** The campaign shows in the networks by what is known of it, not by the default guess (placement.ts). */
const showsInNetworks = (campaign: PreparedCampaign) => campaign.placement !== 'search' && campaign.placementSource !== 'default';

/** One of the group's ads can show (a group the import gave no ads has nothing to judge). */
const adsServe = (group: PreparedGroup) => group.ads.length === 0 || group.ads.some((ad) => adServes(ad.ad));

/** The group can show: an ad that serves and (when it has keywords) a keyword that does. */
const groupServes = (group: PreparedGroup) => adsServe(group) && (group.keywords.length === 0 || group.keywords.some((keyword) => keywordServes(keyword.keyword)));

/** The import says something of this group's ads (moderation or a stop); otherwise it is not judged. */
const groupJudged = (group: PreparedGroup) => group.ads.some((ad) => ad.ad.moderation !== undefined || isStoppedByUser(ad.ad.status));

/** «1 отклонено модерацией, 2 остановлены»: why a group's ads do not show. */
function whyAdsSilent(group: PreparedGroup): string {
  let rejected = 0;
  let drafts = 0;
  let stopped = 0;
  for (const { ad } of group.ads) {
    if (ad.moderation?.status === 'rejected') rejected++;
    else if (ad.moderation?.status === 'draft') drafts++;
    else if (isStoppedByUser(ad.status)) stopped++;
  }
  const parts = [
    rejected > 0 ? `${formatCountOf(rejected, ['отклонено', 'отклонены', 'отклонено'])} модерацией` : '',
    drafts > 0 ? formatCountOf(drafts, ['черновик', 'черновика', 'черновиков']) : '',
    stopped > 0 ? formatCountOf(stopped, ['остановлено', 'остановлены', 'остановлено']) : '',
  ].filter(Boolean);
  return parts.join(', ');
}

function noActiveAds(group: PreparedGroup, campaign: PreparedCampaign, context: ScoringContext): void {
  const liveKeywords = group.keywords.filter((keyword) => keywordServes(keyword.keyword)).length;
  context.findings.push(makeFinding(checks.groupNoActiveAds, group.ref, {
    explanation: `В группе «${group.group.name}» кампании «${campaign.campaign.name}» нет ни одного работающего объявления (${whyAdsSilent(group)}): ${liveKeywords > 0 ? `её фразы (${liveKeywords}) не показываются` : 'группа не показывается'}.`,
    fix: 'Исправьте отклонённое объявление по причине модерации (или напишите новое) и отправьте на модерацию; включите нужные остановленные объявления.',
    evidence: [
      { label: 'Работающих объявлений', value: 0, threshold: 1, unit: 'count' },
      { label: 'Объявлений в группе', value: group.ads.length, unit: 'count' },
      { label: 'Работающих фраз', value: liveKeywords, unit: 'count' },
    ],
  }));
}

function noActiveGroups(campaign: PreparedCampaign, context: ScoringContext): void {
  const rejected = campaign.groups.reduce((sum, group) => sum + group.ads.filter((ad) => ad.ad.moderation?.status === 'rejected').length, 0);
  context.findings.push(makeFinding(checks.campaignNoActiveGroups, campaign.ref, {
    explanation:
      `Кампания «${campaign.campaign.name}» включена, но ни в одной из её ${formatCountOf(campaign.groups.length, ['группы', 'групп', 'групп'])} нет работающего объявления с работающими фразами: она ничего не показывает.` +
      (rejected > 0 ? ` Отклонено модерацией: ${countOf(rejected, 'ad')}.` : ''),
    fix: 'Исправьте отклонённые объявления по причинам модерации и отправьте их заново, включите нужные объявления и фразы; если кампания не нужна — остановите её, чтобы она не путала отчёты.',
    evidence: [
      { label: 'Работающих групп', value: 0, threshold: 1, unit: 'count' },
      { label: 'Групп в кампании', value: campaign.groups.length, unit: 'count' },
      { label: 'Отклонённых объявлений', value: rejected, unit: 'count' },
    ],
  }));
}

/** The ad's own rejection (while it is on), and its rejected parts. */
function adModeration(ad: PreparedAd, group: PreparedGroup, context: ScoringContext): void {
  const { findings } = context;
  const { moderation, sitelinksModeration, imageModeration, displayUrlModeration } = ad.ad;
  if (isStoppedByUser(ad.ad.status)) return;
  const name = adName(ad, group);
  if (moderation?.status === 'rejected') {
    const othersServe = group.ads.some((other) => other !== ad && adServes(other.ad));
    findings.push(makeFinding(checks.adRejected, ad.ref, {
      explanation: `${name} отклонено модерацией и не показывается. ${reasonSentence(moderation)}${othersServe ? '' : ' Других работающих объявлений в группе нет.'}`,
      fix: 'Исправьте в объявлении то, что назвал Яндекс, и сохраните его: оно снова уйдёт на модерацию. Если причина кажется ошибкой — оспорьте решение из интерфейса Директа.',
      evidence: oneEvidence({ label: 'Отклонено модерацией', value: 1, unit: 'count' }),
    }));
    return; // the parts of a rejected ad wait for the ad itself
  }
  if (sitelinksModeration?.status === 'rejected') {
    findings.push(makeFinding(checks.adSitelinksRejected, ad.ref, {
      explanation: `Быстрые ссылки: ${name.charAt(0).toLowerCase()}${name.slice(1)} показывается без них — модерация их отклонила. ${reasonSentence(sitelinksModeration)}`,
      fix: 'Исправьте быстрые ссылки по причине модерации (тексты, адреса страниц) и сохраните набор: он снова уйдёт на модерацию.',
      evidence: oneEvidence({ label: 'Быстрые ссылки отклонены', value: 1, unit: 'count' }),
    }));
  }
  if (imageModeration?.status === 'rejected') {
    findings.push(makeFinding(checks.adImageRejected, ad.ref, {
      explanation: `${name}: изображение${ad.ad.image ? ` «${ad.ad.image}»` : ''} отклонено модерацией. ${reasonSentence(imageModeration)}`,
      fix: 'Замените изображение на соответствующее требованиям Яндекса (без мелкого текста, рамок и чужих товарных знаков) и сохраните объявление.',
      evidence: oneEvidence({ label: 'Изображение отклонено', value: 1, unit: 'count' }),
    }));
  }
  if (displayUrlModeration?.status === 'rejected') {
    findings.push(makeFinding(checks.adDisplayUrlRejected, ad.ref, {
      explanation: `${name}: отображаемая ссылка${ad.ad.displayUrl ? ` «${ad.ad.displayUrl}»` : ''} отклонена модерацией. ${reasonSentence(displayUrlModeration)}`,
      fix: 'Исправьте отображаемую ссылку: она должна соответствовать странице, на которую ведёт объявление.',
      evidence: oneEvidence({ label: 'Отображаемая ссылка отклонена', value: 1, unit: 'count' }),
    }));
  }
}

function stuckOnModeration(ad: PreparedAd, group: PreparedGroup, context: ScoringContext): void {
  const { facts, settings } = context;
  if (!facts.hasStatistics || facts.periodDays < settings.moderationStuckDays || (ad.ad.stats?.impressions ?? 0) > 0) return;
  context.findings.push(makeFinding(checks.adModerationStuck, ad.ref, {
    period: facts.period ?? undefined,
    explanation: `${adName(ad, group)} на модерации и за ${facts.periodDays} дн. статистики не получило ни одного показа. Обычно модерация занимает от нескольких часов до трёх дней.`,
    fix: 'Откройте объявление в Директе: если оно всё ещё «На модерации», напишите в поддержку Директа; проверьте, не ждёт ли оно документов (лицензии, сертификата) для своей тематики.',
    evidence: [
      { label: 'Показов за период', value: 0, unit: 'count' },
      { label: 'Дней статистики', value: facts.periodDays, threshold: settings.moderationStuckDays, setting: 'moderationStuckDays', unit: 'count' },
    ],
  }));
}

function draftNotSent(ad: PreparedAd, group: PreparedGroup, context: ScoringContext): void {
  context.findings.push(makeFinding(checks.adDraftNotSent, ad.ref, {
    explanation: `${adName(ad, group)} — черновик в работающей кампании: его не отправили на модерацию, и оно не показывается.`,
    fix: 'Отправьте объявление на модерацию (в Директе: «Отправить на модерацию») или удалите черновик, если он не нужен.',
    evidence: oneEvidence({ label: 'Черновиков', value: 1, unit: 'count' }),
  }));
}

function noImageInNetworks(ad: PreparedAd, group: PreparedGroup, campaign: PreparedCampaign, context: ScoringContext): void {
  context.findings.push(makeFinding(checks.adNoImageNetworks, ad.ref, {
    explanation: `${adName(ad, group)} без изображения, а кампания «${campaign.campaign.name}» показывается в сетях: там объявление без картинки выглядит бледнее и не попадает в графические блоки.`,
    fix: 'Добавьте изображение к объявлению (горизонтальное 16:9 от 1080×607 и квадратное от 450×450).',
    evidence: oneEvidence({ label: 'Изображений у объявления', value: 0, threshold: 1, unit: 'count' }),
  }));
}
