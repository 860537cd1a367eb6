/**
 * Network sites and apps of a placements report (a file's «Площадка» column or the Direct API's Reports
 * `Placement`, fetch-account.ts `placementReport`):
 * - `stats.network_sites`: a site that spent the stop rule's money (≥ `stopCostCpaRatio` × the reference
 *   CPA, with at least `minClicksForNegative` clicks) without a conversion, or whose CTR is suspicious
 *   without a conversion, is to exclude. One finding per campaign, dearest first, whose fix is the list
 *   to paste into «Запрещённые площадки». No money of its own: a site's spend is part of its keywords'
 *   spend, which the stop and wasted-spend findings already price.
 * - Where the import read the campaign's `ExcludedSites` (the API does), sites already excluded are left
 *   out (excluded during the period: their spend is history), and the list keeps within Direct's limit of
 *   1 000 sites per campaign: what does not fit is `placement.excluded_sites_limit`, priced with the spend
 *   of the sites left out (they keep spending).
 */
import { share, type Evidence, type FindingFile } from '../../../../contract/analysis-results.js';
import { formatCount } from '../../../../contract/format.js';
import type { AdPlatform } from '../../../../contract/campaigns.js';
import type { PreparedCampaign } from '../../semantic/prepare.js';
import { csvLine } from '../../../lib/csv.js';
import { formatRub, percent, rub, type ScoringContext } from '../context.js';
import { checks, makeFinding } from '../registry.js';

/** Direct: «Запрещённые площадки» hold at most 1 000 sites and apps per campaign (`campaigns.update` `ExcludedSites`). */
export const DIRECT_EXCLUDED_SITES_LIMIT = 1000;
const SITES_NAMED = 5;

interface FlaggedSite {
  site: string;
  cost: number;
  reason: string;
}

const normaliseSite = (site: string) => site.trim().toLowerCase().replace(/^www\./, '');

/** `referenceCpa`: the CPA the stop rule compares with (null: none, only the CTR rule runs). */
export function networkSiteChecks(campaign: PreparedCampaign, referenceCpa: number | null, context: ScoringContext, periodEvidence: Evidence): void {
  const { settings, findings, facts } = context;
  const sites = campaign.campaign.sites ?? [];
  if (sites.length === 0) return;
  const stopLimit = referenceCpa !== null ? settings.stopCostCpaRatio * referenceCpa : null;
  const excluded = campaign.campaign.excludedSites;
  const alreadyExcluded = new Set((excluded ?? []).map(normaliseSite));
  const flagged: FlaggedSite[] = [];
  for (const { site, stats } of sites) {
    if (stats.conversions > 0 || alreadyExcluded.has(normaliseSite(site))) continue;
    const ctr = stats.impressions > 0 ? stats.clicks / stats.impressions : 0;
    if (facts.hasConversions && stopLimit !== null && stats.clicks >= settings.minClicksForNegative && stats.cost >= stopLimit) {
      flagged.push({ site, cost: stats.cost, reason: `${formatRub(stats.cost)} без конверсий` });
    } else if (stats.impressions >= settings.minImpressionsForCtr && ctr >= settings.suspiciousNetworkCtr) {
      flagged.push({ site, cost: stats.cost, reason: `CTR ${percent(ctr)} % без конверсий` });
    }
  }
  if (flagged.length === 0) return;
  flagged.sort((a, b) => b.cost - a.cost);
  // Within the limit, dearest first; the rest is the limit's finding.
  const room = excluded ? Math.max(0, DIRECT_EXCLUDED_SITES_LIMIT - excluded.length) : flagged.length;
  const fitting = flagged.slice(0, room);
  const left = flagged.slice(room);
  const total = flagged.reduce((sum, item) => sum + item.cost, 0);
  const named = flagged.slice(0, SITES_NAMED).map((item) => `«${item.site}» (${item.reason})`).join(', ');
  const rest = flagged.length - Math.min(flagged.length, SITES_NAMED);
  if (fitting.length > 0) {
    const finding = makeFinding(checks.networkSites, campaign.ref, {
      period: facts.period ?? undefined,
      explanation: `В сетях кампания «${campaign.campaign.name}» показывалась на площадках без отдачи: ${named}${rest > 0 ? ` и ещё ${rest}` : ''}. Вместе ${formatRub(total * facts.monthFactor)} в месяц.`,
      fix: `${excludeAdvice(campaign.campaign.platform ?? context.account.platform, fitting.length)}: ${fitting.map((item) => item.site).join(', ')}.`,
      evidence: [
        { label: 'Площадок', value: flagged.length, unit: 'count' },
        { label: 'Расход на них', value: rub(total), unit: 'rub' },
        ...(stopLimit !== null ? [{ label: 'Расход без конверсий от', value: rub(stopLimit), setting: 'stopCostCpaRatio' as const, unit: 'rub' as const }] : []),
        { label: 'Подозрительный CTR от', value: share(settings.suspiciousNetworkCtr), setting: 'suspiciousNetworkCtr', unit: 'share' },
        ...(excluded ? [{ label: 'Уже запрещено площадок', value: excluded.length, threshold: DIRECT_EXCLUDED_SITES_LIMIT, unit: 'count' as const }] : []),
        periodEvidence,
      ],
    });
    finding.file = sitesFile(campaign, fitting, 'Скачать список площадок (CSV)');
    // As data too: a change set writes them to the campaign through the API.
    finding.sites = fitting.map((item) => item.site);
    findings.push(finding);
  }
  if (left.length > 0) limitFinding(campaign, excluded!.length, flagged.length, left, context, periodEvidence);
}

/**
 * The sites as a one-column CSV (UTF-8 with a BOM, CRLF: what Excel opens), dearest first with their spend,
 * to paste into the campaign's «Запрещённые площадки» (Direct takes a list of sites, one per line).
 */
function sitesFile(campaign: PreparedCampaign, sites: FlaggedSite[], label: string): FindingFile {
  const lines = [csvLine(['Площадка', 'Расход за период, ₽', 'Причина'], ';'), ...sites.map((item) => csvLine([item.site, String(rub(item.cost)).replace('.', ','), item.reason], ';'))];
  return { name: `excluded-sites-${campaign.campaign.externalId ?? campaign.ref.key}.csv`, label, csv: `\uFEFF${lines.join('\r\n')}\r\n` };
}

function excludeAdvice(platform: AdPlatform, count: number): string {
  if (platform === 'google_ads') return `Исключите эти места размещения (${formatCount(count)}) в настройках кампании`;
  return `Добавьте в «Запрещённые площадки и сети» кампании (${formatCount(count)})`;
}

function limitFinding(campaign: PreparedCampaign, excludedCount: number, flaggedCount: number, left: FlaggedSite[], context: ScoringContext, periodEvidence: Evidence): void {
  const { facts } = context;
  const cost = left.reduce((sum, item) => sum + item.cost, 0);
  const finding = makeFinding(checks.excludedSitesLimit, campaign.ref, {
    period: facts.period ?? undefined,
    explanation:
      `В «Запрещённых площадках» кампании «${campaign.campaign.name}» уже ${formatCount(excludedCount)} из ${formatCount(DIRECT_EXCLUDED_SITES_LIMIT)}: из ${formatCount(flaggedCount)} площадок без отдачи помещается ${formatCount(flaggedCount - left.length)}. ` +
      `Остальные ${formatCount(left.length)} (${left.slice(0, SITES_NAMED).map((item) => `«${item.site}»`).join(', ')}${left.length > SITES_NAMED ? '…' : ''}) продолжают тратить: ${formatRub(cost)} за период.`,
    fix: `Освободите место: уберите из списка площадки, которые больше не нужны (закрытые сайты, площадки с копеечным расходом в прошлом), и добавьте оставшиеся: ${left.map((item) => item.site).join(', ')}.`,
    evidence: [
      { label: 'Уже запрещено площадок', value: excludedCount, threshold: DIRECT_EXCLUDED_SITES_LIMIT, unit: 'count' },
      { label: 'Не помещается площадок', value: left.length, unit: 'count' },
      { label: 'Их расход', value: rub(cost), unit: 'rub' },
      periodEvidence,
    ],
    money: cost,
    monthFactor: facts.monthFactor,
  });
  finding.file = sitesFile(campaign, left, 'Скачать площадки, которые не поместились (CSV)');
  context.findings.push(finding);
}
