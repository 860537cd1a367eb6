/**
 * The prompt of an AI plan, built by a pure function from a completed audit: the account's scores, the
 * money story («Теряете ≈ X ₽/мес» and its causes, the figure every screen shows), the checks that
 * fired, the top findings by money (each with a short code the model must cite), the cost of the
 * non-target queries with the top automatic negatives (code `N`), and what the user already accepted.
 * Russian, because the plan is read in Russian.
 *
 * Bounded: whatever the size of the account, the prompt stays under `maxChars`, so the price of a plan
 * (a flat `aiPlan` in the pricing table) matches the work. Lists are capped first; when the text is still
 * too long, the least useful lines go (accepted examples, campaigns, checks, negatives), findings last.
 */
import * as v from 'valibot';
import type { AnalysisDecisions, AuditResult } from '../../contract/analysis.js';
import {
  moneyCauseKinds,
  moneyCauseLabel,
  readMoneyStory,
  NonTargetQueriesSchema,
  severityLabels,
  type MoneyCause,
  type MoneyStory,
  type EntityRef,
  type StoredEvidence,
  type Finding,
  type NegativeKeywordSuggestion,
  type NonTargetQueries,
  type Severity,
  type Suggestion,
} from '../../contract/analysis-results.js';
import { adPlatformLabels } from '../../contract/campaigns.js';
import { formatEvidenceValue } from '../../contract/evidence-format.js';
import { pluralRu } from '../../contract/format.js';

export interface PromptLimits {
  /** System and user messages together, in characters. */
  maxChars: number;
  maxFindings: number;
  maxChecks: number;
  maxCampaigns: number;
  maxAcceptedExamples: number;
  /** Automatic negatives listed under the non-target queries (code N). */
  maxNegatives: number;
  /** Longer lines (a huge ad text, a long explanation) are cut to this. */
  maxLineChars: number;
}

export const defaultPromptLimits: PromptLimits = {
  maxChars: 24_000,
  maxFindings: 40,
  maxChecks: 20,
  maxCampaigns: 15,
  maxAcceptedExamples: 15,
  maxNegatives: 10,
  maxLineChars: 400,
};

/**
 * Findings the worker reads out of PostgreSQL for the prompt at most (a big account has tens of
 * thousands): ordered the way `rankFindings` orders them, so the top ones are the same.
 */
export const PROMPT_FINDINGS_PREFETCH = 400;

export interface PromptInput {
  projectName: string;
  audit: AuditResult;
  decisions: AnalysisDecisions;
}

/** The code a step cites for "add the automatic negatives". */
export const NEGATIVES_REF = 'N';

/**
 * The non-target queries as the prompt cites them (code `N`): the engine's figure, each query once. A
 * step citing N is worth `summary.costPerMonth`, never the sum of the negatives' own (overlapping) costs.
 */
export interface PromptNegatives {
  ref: typeof NEGATIVES_REF;
  summary: NonTargetQueries;
}

/** A finding as the prompt cites it: `F1`, `F2`… in the order of the list. */
export interface PromptFinding {
  ref: string;
  finding: Finding;
}

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

export interface AiPlanPrompt {
  messages: ChatMessage[];
  /** Characters of all messages together (what `prompt_chars` records). */
  chars: number;
  /** The findings listed in the prompt, by code: the only ones a step may refer to. */
  findings: PromptFinding[];
  /** Code N when the prompt gives the non-target queries (results stored before the figure have none). */
  negatives: PromptNegatives | null;
  /** The audit's money story the prompt quotes (null for results stored before it): what the plan's total is measured against. */
  money: MoneyStory | null;
}

const severityRank: Record<Severity, number> = { high: 0, medium: 1, low: 2 };
const money = (finding: Finding) => (finding.moneyPerMonth && finding.moneyPerMonth > 0 ? finding.moneyPerMonth : 0);

/** Most roubles per month first; then the more severe, the heavier, and the id for a stable order. */
export function rankFindings(findings: readonly Finding[]): Finding[] {
  return [...findings].sort(
    (a, b) => money(b) - money(a) || severityRank[a.severity] - severityRank[b.severity] || (b.weight ?? 0) - (a.weight ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

const integer = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 0 });
const rub = (value: number) => `${integer.format(Math.round(value))} ₽`;

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** «Кампания «Окна» / группа «ПВХ» / «окна бесплатно»»: where a finding points, for a person. */
export function describeTarget(target: EntityRef): string {
  if (target.level === 'account') return 'Аккаунт';
  const parts: string[] = [];
  if (target.campaignName) parts.push(`кампания «${target.campaignName}»`);
  if (target.groupName) parts.push(`группа «${target.groupName}»`);
  if (target.label && target.level !== 'campaign' && target.level !== 'group') parts.push(`«${target.label}»`);
  if (parts.length === 0) parts.push(target.label ?? target.key);
  const text = parts.join(' / ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function describeEvidence(evidence: readonly StoredEvidence[]): string {
  return evidence
    .slice(0, 4)
    .map((item) => `${item.label} ${formatEvidenceValue(item)}${item.threshold !== undefined ? ` (порог ${formatEvidenceValue(item, 'threshold')})` : ''}`)
    .join('; ');
}

function findingLine(ref: string, finding: Finding): string {
  // What the model needs most comes first: a long line is cut at its end (the evidence).
  const priced = money(finding) > 0 ? `; ${rub(money(finding))}/мес` : '';
  const evidence = finding.evidence.length > 0 ? `; данные: ${describeEvidence(finding.evidence)}` : '';
  return `${ref}. [${severityLabels[finding.severity]}] ${finding.title} — ${describeTarget(finding.target)}${priced}; что сделать: ${finding.fix.replace(/\.\s*$/, '')}${evidence}`;
}

function suggestionLine(suggestion: Suggestion): string {
  switch (suggestion.kind) {
    case 'negative_keyword':
      return `минус-слово «${suggestion.text}» на уровне ${suggestion.level === 'campaign' ? 'кампании' : 'группы'} — ${describeTarget(suggestion.target)}`;
    case 'cross_minus':
      return `кросс-минусовка: «${suggestion.before}» → «${suggestion.after}»`;
    case 'ad_field':
      return suggestion.manual
        ? `исправление объявления: «${suggestion.before}» — переписать вручную (${suggestion.manual.length} символов при лимите ${suggestion.manual.limit})`
        : `исправление объявления: «${suggestion.before}» → «${suggestion.after}»`;
  }
}

/**
 * The automatic negatives (campaign category words, group phrases; never the check-by-hand ones) that
 * block the most money first. The worker reads only the top ones and the accepted ones; so does this.
 */
export function topAutomaticNegatives(negatives: readonly NegativeKeywordSuggestion[], max: number): NegativeKeywordSuggestion[] {
  return negatives
    .filter((item) => item.status === 'ready')
    .sort((a, b) => b.costPerMonth - a.costPerMonth || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, max);
}

function negativeLine(negative: NegativeKeywordSuggestion, decisions: AnalysisDecisions): string {
  const decided = decisions.accepted.includes(negative.id) ? '; уже принято' : decisions.rejected.includes(negative.id) ? '; отклонено пользователем' : '';
  return `- ${suggestionLine(negative)}; ${rub(negative.costPerMonth)}/мес${decided}`;
}

const causeUnits: Record<MoneyCause, [string, string, string]> = {
  wasted_keywords: ['фраза', 'фразы', 'фраз'],
  non_target_queries: ['запрос', 'запроса', 'запросов'],
  overpaid_clicks: ['фраза', 'фразы', 'фраз'],
  broken_pages: ['страница', 'страницы', 'страниц'],
  network_placements: ['площадка', 'площадки', 'площадок'],
};

/**
 * «Теряете ≈ X ₽/мес» and its causes, then the money that could be saved apart: the figures the results
 * screen and the action plan show, so the plan the model writes speaks of the same money. The causes
 * never overlap: the lost ones add up to X, the saving ones to the second figure.
 */
function moneyStoryLines(story: MoneyStory): string[] {
  if (story.causes.length === 0) return ['Потери в деньгах по данным аудита не посчитаны (нет конверсий или отчёта о запросах).'];
  const line = (cause: MoneyStory['causes'][number]) => `- ${moneyCauseLabel(cause.cause, story)}: ${rub(cause.perMonth)}/мес (${integer.format(cause.count)} ${pluralRu(cause.count, causeUnits[cause.cause])})`;
  const saving = story.causes.filter((cause) => moneyCauseKinds[cause.cause] === 'saving');
  return [
    `Теряете ≈ ${rub(story.perMonth)}/мес (расход без конверсий) — сумма причин ниже, каждый рубль посчитан один раз:`,
    ...story.causes.filter((cause) => moneyCauseKinds[cause.cause] === 'lost').map(line),
    ...(saving.length > 0 ? [`Отдельно, не потери: можно сэкономить ≈ ${rub(story.saving.perMonth)}/мес — конверсии дороже ориентира:`, ...saving.map(line)] : []),
  ];
}

export const SYSTEM_PROMPT = [
  'Ты — опытный специалист по контекстной рекламе (Яндекс Директ, Google Ads, VK Реклама).',
  'Тебе дают результаты автоматического аудита рекламного аккаунта. Составь по ним план действий: упорядоченные шаги, которые рекламодатель выполнит один за другим, самые выгодные и срочные — первыми.',
  'Опирайся только на данные аудита. Каждый шаг должен ссылаться на замечания аудита по их кодам (F1, F2…) из списка «Главные замечания»; не придумывай коды, которых нет в списке.',
  'Если в данных есть блок «Нецелевые запросы (код N)», шаг про добавление автоматических минус-слов ссылается на код N (в том же списке findings); пусть это будет отдельный шаг, без кодов F.',
  'Не называй денежных сумм: сервер сам посчитает эффект шага в рублях по замечаниям, на которые он ссылается.',
  'Ответь строго одним JSON-объектом без пояснений вокруг, в таком виде:',
  '{"summary": "2–3 предложения: главное о состоянии аккаунта", "steps": [{"title": "короткое действие в повелительном наклонении", "why": "почему это важно, со ссылкой на данные", "expected_effect": "что изменится после шага, без сумм", "findings": ["F1", "F4"]}]}',
  'Шагов — от 3 до 10 (меньше, если замечаний мало). Пиши по-русски, конкретно, без общих советов.',
].join('\n');

interface Section {
  title: string;
  lines: string[];
}

/**
 * Builds the prompt. Pure: the same audit and decisions always give the same text and codes. The
 * audit may come with its big arrays pre-cut (see PROMPT_FINDINGS_PREFETCH): only the top findings,
 * the check summaries and the accepted suggestions are read.
 */
export function buildAiPlanPrompt(input: PromptInput, limits: PromptLimits = defaultPromptLimits): AiPlanPrompt {
  const { scoring, semantic } = input.audit;
  const story = input.audit.money ? readMoneyStory(input.audit.money, scoring.settings.targetCpa) : null;
  const line = (text: string) => clip(text, limits.maxLineChars);
  const findingsTotal = Object.values(scoring.bySeverity).reduce((sum, item) => sum + item.count, 0);
  const entitiesTotal = Object.values(scoring.bySeverity).reduce((sum, item) => sum + (item.entities ?? item.count), 0);

  const header: string[] = [
    line(`Проект: «${input.projectName}», площадка: ${adPlatformLabels[scoring.platform] ?? scoring.platform}.`),
    scoring.period ? `Период статистики: ${scoring.period.from} — ${scoring.period.to} (${scoring.periodDays} дн.); суммы ниже — в рублях в месяц.` : 'Статистики за период нет: суммы в рублях посчитаны только там, где они есть.',
    `Объём: кампаний ${scoring.counts.campaigns}, групп ${scoring.counts.groups}, объявлений ${scoring.counts.ads}, ключевых фраз ${scoring.counts.keywords}, поисковых запросов ${scoring.counts.searchQueries}.`,
    `Оценка аккаунта: ${Math.round(scoring.account.score)} из 100; замечаний ${integer.format(findingsTotal)}${entitiesTotal > findingsTotal ? ` (они касаются ${integer.format(entitiesTotal)} фраз, объявлений, групп и кампаний)` : ''}.`,
    // The one money figure of every screen and its causes; results stored before it keep the old totals.
    ...(story ? moneyStoryLines(story) : [`Расход без конверсий: ${rub(scoring.wastedSpend.perMonth)}/мес.`]),
    ...(['high', 'medium', 'low'] as const).map(
      (severity) => `${severityLabels[severity]}: замечаний ${scoring.bySeverity[severity]?.count ?? 0}${story ? '' : `, ${rub(scoring.bySeverity[severity]?.moneyPerMonth ?? 0)}/мес`}.`,
    ),
    `Семантика: дублей ${semantic.counts.duplicates}, пересечений ${semantic.counts.intersections}, предложено минус-слов ${semantic.counts.negatives}.`,
    ...scoring.notices.slice(0, 5).map((notice) => line(`Ограничение аудита: ${notice.message}`)),
  ];

  const campaigns: Section = {
    title: 'Оценки кампаний (из 100; замечаний; ₽/мес):',
    lines: [...scoring.campaigns]
      .sort((a, b) => b.moneyPerMonth - a.moneyPerMonth || a.score - b.score)
      .slice(0, limits.maxCampaigns)
      .map((campaign) => line(`- ${campaign.target.campaignName ?? campaign.target.label ?? campaign.target.key}: ${Math.round(campaign.score)}; ${campaign.findings}; ${rub(campaign.moneyPerMonth)}`)),
  };

  const checks: Section = {
    // «Мест»: the entities a check fired on (an aggregated finding «12 фраз» is 12 places).
    title: 'Сработавшие проверки (мест; ₽/мес; важность):',
    lines: scoring.byCheck
      .filter((check) => check.count > 0)
      .sort((a, b) => b.moneyPerMonth - a.moneyPerMonth || severityRank[a.severity] - severityRank[b.severity] || b.count - a.count)
      .slice(0, limits.maxChecks)
      .map((check) => line(`- ${check.title}: ${check.entities ?? check.count}; ${rub(check.moneyPerMonth)}; ${severityLabels[check.severity]}`)),
  };

  const ranked = rankFindings(scoring.findings).slice(0, limits.maxFindings);
  const findings: PromptFinding[] = ranked.map((finding, index) => ({ ref: `F${index + 1}`, finding }));
  const findingLines = findings.map(({ ref, finding }) => line(findingLine(ref, finding)));

  // Results stored before the engine reported the query figure have none: no code N then.
  const nonTarget = v.safeParse(NonTargetQueriesSchema, semantic.nonTargetQueries);
  const automatic = topAutomaticNegatives(semantic.negatives, limits.maxNegatives);
  const negatives: PromptNegatives | null = nonTarget.success && nonTarget.output.queries > 0 && automatic.length > 0 ? { ref: NEGATIVES_REF, summary: nonTarget.output } : null;
  const negativesHeader = negatives
    ? line(
        `Нецелевые запросы (код ${NEGATIVES_REF}): ${rub(negatives.summary.costPerMonth)}/мес, запросов без конверсий: ${integer.format(negatives.summary.queries)} (каждый запрос посчитан один раз; это часть расхода фраз, не добавка к нему). Их отсекут автоматические минус-слова из отчёта о поисковых запросах.`,
      )
    : '';
  const negativeLines = negatives ? automatic.map((item) => line(negativeLine(item, input.decisions))) : [];

  const acceptedIds = new Set(input.decisions.accepted);
  const suggestions: Suggestion[] = [...semantic.negatives, ...semantic.crossMinus, ...scoring.suggestions];
  const accepted = suggestions.filter((item) => acceptedIds.has(item.id));
  const countOf = (kind: Suggestion['kind']) => accepted.filter((item) => item.kind === kind).length;
  const decisionsHeader =
    accepted.length === 0
      ? 'Пользователь ещё не принял ни одного предложения аудита.'
      : `Пользователь уже принял предложений: ${accepted.length} (минус-слова: ${countOf('negative_keyword')}, кросс-минусовка и дубли: ${countOf('cross_minus')}, объявления: ${countOf('ad_field')}); отклонил: ${input.decisions.rejected.length}. Эти изменения будут внесены — не повторяй их отдельными шагами.`;
  const acceptedExamples: Section = {
    title: 'Примеры принятых изменений:',
    lines: accepted.slice(0, limits.maxAcceptedExamples).map((item) => line(`- ${suggestionLine(item)}`)),
  };

  const render = () => {
    const parts = [header.join('\n')];
    for (const section of [campaigns, checks]) if (section.lines.length > 0) parts.push(`${section.title}\n${section.lines.join('\n')}`);
    if (negatives) {
      parts.push(negativeLines.length > 0 ? `${negativesHeader}\nГлавные из них (отсекают запросы на ₽/мес; суммы пересекаются, итог — выше):\n${negativeLines.join('\n')}` : negativesHeader);
    }
    parts.push(`Главные замечания (ссылайся на них по коду):\n${findingLines.length > 0 ? findingLines.join('\n') : 'Замечаний нет.'}`);
    parts.push(acceptedExamples.lines.length > 0 ? `${decisionsHeader}\n${acceptedExamples.title}\n${acceptedExamples.lines.join('\n')}` : decisionsHeader);
    return parts.join('\n\n');
  };

  // Over the budget: drop the least useful lines first, findings from the bottom of the list last.
  let user = render();
  const budget = limits.maxChars - SYSTEM_PROMPT.length;
  for (const trimmable of [acceptedExamples.lines, campaigns.lines, checks.lines, negativeLines, findingLines]) {
    while (user.length > budget && trimmable.length > (trimmable === findingLines ? 1 : 0)) {
      trimmable.pop();
      user = render();
    }
  }
  findings.length = findingLines.length;
  // Only a header of absurdly long names can still be over: cut the text itself.
  if (user.length > budget) user = `${user.slice(0, Math.max(0, budget - 1))}…`;

  const messages: ChatMessage[] = [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: user },
  ];
  return { messages, chars: messages.reduce((sum, message) => sum + message.content.length, 0), findings, negatives, money: story };
}
