/**
 * The model's answer turned into the stored plan. The text must be one JSON object of the shape the
 * system prompt asks for (checked with valibot); every finding code must be one the prompt listed.
 * Money comes from the audit, never from the model: a step is worth the priced findings it cites, and
 * code N (the automatic negatives) is worth the non-target queries' cost, each query once. The plan's
 * total is the part of the audit's headline (money lost) its steps cover, with a note saying what it
 * leaves out and why (plan-money.ts); results stored before the money story keep the sum of the findings.
 */
import * as v from 'valibot';
import type { AiPlanFinding, AiPlanResult } from '../../contract/ai-plan.js';
import type { Finding, MoneyStory } from '../../contract/analysis-results.js';
import { aiPlanMessages as m } from '../../contract/messages.js';
import { LlmError } from './provider.js';
import { planMoney } from './plan-money.js';
import { describeTarget, NEGATIVES_REF, type PromptFinding, type PromptNegatives } from './prompt.js';

const text = (max: number) => v.pipe(v.string('ожидается строка'), v.trim(), v.minLength(1, 'пустая строка'), v.maxLength(max, `длиннее ${max} символов`));
const optionalText = (max: number) => v.optional(v.nullable(v.pipe(v.string('ожидается строка'), v.trim(), v.maxLength(max, `длиннее ${max} символов`))));

/** What the system prompt asks the model for. */
export const LlmPlanAnswerSchema = v.object(
  {
    summary: optionalText(2000),
    steps: v.pipe(
      v.array(
        v.object(
          {
            title: text(300),
            why: text(3000),
            expected_effect: optionalText(1000),
            findings: v.optional(v.array(v.pipe(v.string('код замечания — строка'), v.trim(), v.toUpperCase()), 'findings — список кодов'), []),
          },
          'шаг — объект с полями title, why и findings',
        ),
        'steps — список шагов',
      ),
      v.minLength(1, 'нет ни одного шага'),
      v.maxLength(20, 'больше 20 шагов'),
    ),
  },
  'ожидается объект с полями summary и steps',
);

/** Some servers wrap JSON in a Markdown fence even in JSON mode: the fence is not part of the answer. */
function unfence(content: string): string {
  const fenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/i.exec(content.trim());
  return fenced ? fenced[1]! : content;
}

/** valibot reports a missing key of an object with the object's own message: say what it is instead. */
const isMissingKey = (issue: v.BaseIssue<unknown>) => issue.kind === 'schema' && issue.type === 'object' && issue.input === undefined && (issue.path?.length ?? 0) > 0;

const round = (value: number) => Math.round(value * 100) / 100;

/** Code N as the screen lists it among a step's findings. */
export const NON_TARGET_QUERIES_ITEM_ID = 'non-target-queries';

function negativesItem(negatives: PromptNegatives): AiPlanFinding {
  const { summary } = negatives;
  return {
    id: NON_TARGET_QUERIES_ITEM_ID,
    check_id: 'semantic.non_target_queries',
    title: 'Нецелевые запросы: автоматические минус-слова',
    severity: 'high',
    target: `Поисковые запросы без конверсий: ${summary.queries}`,
    money_per_month: summary.costPerMonth > 0 ? round(summary.costPerMonth) : null,
  };
}

/**
 * `negatives`: code N of the prompt, when it had one. `story`: the audit's money story (`readMoneyStory`),
 * null for results stored before it: then `money_per_month_total` is the sum of the priced findings the
 * plan cites, without code N (the non-target queries are part of the keywords' spend the findings price).
 */
export function parsePlanAnswer(content: string, findings: readonly PromptFinding[], negatives: PromptNegatives | null = null, story: MoneyStory | null = null): AiPlanResult {
  let raw: unknown;
  try {
    raw = JSON.parse(unfence(content));
  } catch {
    throw new LlmError(m.notJson);
  }
  const parsed = v.safeParse(LlmPlanAnswerSchema, raw);
  if (!parsed.success) {
    const problems = parsed.issues
      .slice(0, 3)
      .map((issue) => `${v.getDotPath(issue) ?? 'ответ'}: ${isMissingKey(issue) ? 'нет обязательного поля' : issue.message}`)
      .join('; ');
    throw new LlmError(m.badShape.replace('{problems}', problems));
  }

  const byRef = new Map(findings.map((item) => [item.ref, item.finding]));
  const known = (ref: string) => byRef.has(ref) || (negatives !== null && ref === NEGATIVES_REF);
  const unknown = [...new Set(parsed.output.steps.flatMap((step) => step.findings).filter((ref) => !known(ref)))];
  if (unknown.length > 0) throw new LlmError(m.unknownFindings.replace('{refs}', unknown.slice(0, 10).join(', ')));

  const priced = new Map<string, number>();
  const citedFindings = new Map<string, Finding>();
  const steps = parsed.output.steps.map((step, index) => {
    const cited: AiPlanFinding[] = [...new Set(step.findings)].map((ref) => {
      if (ref === NEGATIVES_REF && negatives) return negativesItem(negatives);
      const finding = byRef.get(ref)!;
      citedFindings.set(finding.id, finding);
      const perMonth = finding.moneyPerMonth && finding.moneyPerMonth > 0 ? round(finding.moneyPerMonth) : null;
      if (perMonth !== null) priced.set(finding.id, perMonth);
      return { id: finding.id, check_id: finding.checkId, title: finding.title, severity: finding.severity, target: describeTarget(finding.target), money_per_month: perMonth };
    });
    const amounts = cited.map((item) => item.money_per_month).filter((value): value is number => value !== null);
    return {
      position: index + 1,
      title: step.title,
      why: step.why,
      expected_effect: step.expected_effect || null,
      money_per_month: amounts.length > 0 ? round(amounts.reduce((sum, value) => sum + value, 0)) : null,
      findings: cited,
    };
  });
  const citesNegatives = parsed.output.steps.some((step) => step.findings.includes(NEGATIVES_REF));
  const money = story ? planMoney(story, [...citedFindings.values()], [...byRef.values()], citesNegatives) : null;
  const findingsTotal = priced.size > 0 ? round([...priced.values()].reduce((sum, value) => sum + value, 0)) : null;
  return {
    summary: parsed.output.summary || null,
    steps,
    money_per_month_total: money ? (money.lostCovered > 0 ? money.lostCovered : null) : findingsTotal,
    money_note: money?.note ?? null,
  };
}
