/**
 * Campaign settings: no campaign-level negatives, one group for everything, groups about everything.
 *
 * A group «обо всём» (`group.catch_all`): its keywords fall into three or more unrelated topics
 * (semantic/clusters.ts `groupTopics`: no shared topic lemma, each topic ≥ 2 keywords or ≥ 20 % of the
 * group), whatever the group's size — one ad cannot answer «розы», «тюльпаны» and «горшки для цветов».
 *
 * A campaign without negatives is one finding at the campaign (the fix is one shared list there, which
 * the semantic engine suggests), not one per keyword: its items are the broad keywords it leaves with
 * no negatives at any level (phrase, group or campaign), the ones that catch every query with their
 * words. The penalty stays on the campaign: it is one problem in one place. A group that uses a shared
 * negative set (Direct `NegativeKeywordSharedSetIds`) has its negatives there: its keywords are not
 * exposed, and a campaign whose every group with keywords uses one gets no finding.
 */
import type { FindingItem } from '../../../../contract/analysis-results.js';
import { groupTopics } from '../../semantic/clusters.js';
import { hasNegatives } from '../../semantic/prepare.js';
import { countOf, examplesSentence } from '../aggregate.js';
import { oneEvidence, type ScoringContext } from '../context.js';
import { checks, makeFinding } from '../registry.js';
import { formatCountOf } from '../../../../contract/format.js';

/** Unrelated topics from which a group is «обо всём». */
const CATCH_ALL_TOPICS = 3;

export function runCampaignChecks(context: ScoringContext): void {
  const { account, findings, settings, semantic } = context;
  // The ready campaign-level negatives of each campaign, in the result's order: looked up per campaign,
  // not a scan of every negative of the account per campaign.
  const campaignNegatives = new Map<string, string[]>();
  for (const negative of semantic.negatives) {
    if (negative.level !== 'campaign' || negative.status !== 'ready') continue;
    const ids = campaignNegatives.get(negative.target.key);
    if (ids) ids.push(negative.id);
    else campaignNegatives.set(negative.target.key, [negative.id]);
  }
  for (const campaign of account.campaigns) {
    const keywords = campaign.groups.reduce((sum, group) => sum + group.keywords.length, 0);
    if (keywords === 0) continue;
    const usesSharedSet = (group: (typeof campaign.groups)[number]) => (group.group.negativeSetIds?.length ?? 0) > 0;
    const allGroupsShared = campaign.groups.every((group) => group.keywords.length === 0 || usesSharedSet(group));
    if (campaign.campaign.negativeKeywords.length === 0 && !allGroupsShared) {
      const suggestionIds = campaignNegatives.get(campaign.ref.key) ?? [];
      const exposed: FindingItem[] = [];
      for (const group of campaign.groups) {
        if (usesSharedSet(group)) continue;
        for (const keyword of group.keywords) {
          if (keyword.parsed.quoted || hasNegatives(keyword)) continue;
          exposed.push({ target: keyword.ref, evidence: oneEvidence({ label: 'Минус-слов у фразы, группы и кампании', value: 0, threshold: 1, unit: 'count' }) });
        }
      }
      const finding = makeFinding(checks.campaignNoNegatives, campaign.ref, {
        explanation:
          `У кампании «${campaign.campaign.name}» нет минус-слов на кампанию.` +
          (exposed.length > 0 ? ` ${countOf(exposed.length, 'keyword')} в широком соответствии без минус-слов и у группы — по ним показываются любые запросы с их словами. ${examplesSentence(exposed)}` : ''),
        fix: 'Добавьте общий список минус-слов: бесплатные, информационные, вакансии, б/у, чужие города, конкуренты.',
        evidence: [
          { label: 'Минус-слов на кампанию', value: 0, threshold: 1, unit: 'count' },
          { label: 'Широких фраз без минус-слов', value: exposed.length, unit: 'count' },
        ],
        suggestionIds: suggestionIds.slice(0, 50),
      });
      if (exposed.length > 0) {
        finding.count = exposed.length;
        finding.items = exposed;
      }
      findings.push(finding);
    }
    for (const group of campaign.groups) {
      const { topics } = groupTopics(group.keywords);
      if (topics.length < CATCH_ALL_TOPICS) continue;
      const named = topics.slice(0, 4).map((topic) => `${topic.keywords.slice(0, 2).map((keyword) => `«${keyword.keyword.phrase}»`).join(', ')}`);
      findings.push(makeFinding(checks.groupCatchAll, group.ref, {
        explanation: `В группе «${group.group.name}» фразы ${topics.length} несвязанных тем, без общих слов: ${named.join('; ')}${topics.length > 4 ? '…' : ''}. Одно объявление не отвечает на все эти запросы.`,
        fix: 'Разделите группу по темам и напишите объявление для каждой.',
        evidence: [
          { label: 'Несвязанных тем', value: topics.length, threshold: CATCH_ALL_TOPICS, unit: 'count' },
          { label: 'Фраз в группе', value: group.keywords.length, unit: 'count' },
        ],
      }));
    }
    if (campaign.groups.length === 1 && keywords >= settings.singleGroupMinKeywords) {
      findings.push(makeFinding(checks.campaignSingleGroup, campaign.ref, {
        explanation: `В кампании «${campaign.campaign.name}» одна группа на ${formatCountOf(keywords, ['фразу', 'фразы', 'фраз'])}: на все запросы показывается одно и то же объявление.`,
        fix: 'Разделите фразы на группы по смыслу (см. кластеры семантического анализа) и напишите объявление для каждой.',
        evidence: oneEvidence({ label: 'Фраз в единственной группе', value: keywords, threshold: settings.singleGroupMinKeywords, setting: 'singleGroupMinKeywords', unit: 'count' }),
      }));
    }
  }
}
