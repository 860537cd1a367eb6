/** Campaign settings: no campaign-level negatives, one group for everything. */
import type { ScoringContext } from '../context.js';
import { checks, makeFinding } from '../registry.js';

export function runCampaignChecks(context: ScoringContext): void {
  const { account, findings, settings, semantic } = context;
  for (const campaign of account.campaigns) {
    const keywords = campaign.groups.reduce((sum, group) => sum + group.keywords.length, 0);
    if (keywords === 0) continue;
    if (campaign.campaign.negativeKeywords.length === 0) {
      const suggestionIds = semantic.negatives.filter((negative) => negative.level === 'campaign' && negative.target.key === campaign.ref.key && negative.status === 'ready').map((negative) => negative.id);
      findings.push(makeFinding(checks.campaignNoNegatives, campaign.ref, {
        explanation: `У кампании «${campaign.campaign.name}» нет минус-слов на кампанию.`,
        fix: 'Добавьте общий список минус-слов: бесплатные, информационные, вакансии, б/у, чужие города, конкуренты.',
        evidence: [{ label: 'Минус-слов на кампанию', value: 0, threshold: 1, unit: 'count' }],
        suggestionIds: suggestionIds.slice(0, 50),
      }));
    }
    if (campaign.groups.length === 1 && keywords >= settings.singleGroupMinKeywords) {
      findings.push(makeFinding(checks.campaignSingleGroup, campaign.ref, {
        explanation: `В кампании «${campaign.campaign.name}» одна группа на ${keywords} фраз: на все запросы показывается одно и то же объявление.`,
        fix: 'Разделите фразы на группы по смыслу (см. кластеры семантического анализа) и напишите объявление для каждой.',
        evidence: [{ label: 'Фраз в единственной группе', value: keywords, threshold: settings.singleGroupMinKeywords, setting: 'singleGroupMinKeywords', unit: 'count' }],
      }));
    }
  }
}
