import { describe, expect, it } from 'vitest';
import { parsePlanAnswer } from '../../../server/ai-plan/answer.js';
import { buildAiPlanPrompt, defaultPromptLimits, rankFindings, SYSTEM_PROMPT } from '../../../server/ai-plan/prompt.js';
import { LlmError } from '../../../server/ai-plan/provider.js';
import { acceptedNegative, cpcFinding, ctrFinding, largeAudit, lengthFinding, makeAudit, wasteFinding } from './fixtures.js';

const decisions = { accepted: ['s-free'], rejected: ['s-other'] };

describe('buildAiPlanPrompt', () => {
  it('lists the top findings by money with codes, the scores and what the user accepted, in Russian', () => {
    const prompt = buildAiPlanPrompt({ projectName: 'Окна Плюс', audit: makeAudit(), decisions });
    expect(prompt.messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(prompt.messages[0]!.content).toBe(SYSTEM_PROMPT);
    expect(SYSTEM_PROMPT).toContain('строго одним JSON-объектом');

    // Money first (3 290 before 1 200), then unpriced by severity (high before low).
    expect(prompt.findings.map((item) => [item.ref, item.finding.id])).toEqual([
      ['F1', wasteFinding.id],
      ['F2', cpcFinding.id],
      ['F3', ctrFinding.id],
      ['F4', lengthFinding.id],
    ]);
    const user = prompt.messages[1]!.content;
    expect(user).toContain('Проект: «Окна Плюс», площадка: Яндекс Директ.');
    expect(user).toContain('Оценка аккаунта: 64 из 100; замечаний 4.');
    expect(user).toMatch(/F1\. \[Деньги уходят сейчас\] Расход без конверсий — Кампания «Окна — поиск» \/ группа «Пластиковые окна» \/ «окна бесплатно»; 3\s290 ₽\/мес; что сделать: Остановите фразу «окна бесплатно»; данные: Расход без конверсий 3\s400 ₽ \(порог 3\s000 ₽\)/);
    expect(user).toContain('F4. [Порядок в аккаунте] Заголовок длиннее лимита — Кампания «Окна — поиск» / группа «Пластиковые окна» / «Пластиковые окна от завода»; что сделать');
    expect(user).toMatch(/- Окна — поиск: 58; 4; 4\s490 ₽/);
    expect(user).toContain('Пользователь уже принял предложений: 1 (минус-слова: 1, кросс-минусовка и дубли: 0, объявления: 0); отклонил: 1.');
    expect(user).toContain('- минус-слово «бесплатно» на уровне кампании — Кампания «Окна — поиск»');
    expect(user).toMatch(/Упущенные возможности: замечаний 1, 1\s200 ₽\/мес\./);
    expect(user).toContain('Ограничение аудита: Отчёт о поисковых запросах не загружен');
    expect(prompt.chars).toBe(SYSTEM_PROMPT.length + user.length);
  });

  it('is a pure function: the same audit gives the same text and codes', () => {
    const input = { projectName: 'Окна', audit: makeAudit(), decisions };
    expect(buildAiPlanPrompt(input)).toEqual(buildAiPlanPrompt(structuredClone(input)));
  });

  it('says when nothing was accepted yet', () => {
    const prompt = buildAiPlanPrompt({ projectName: 'Окна', audit: makeAudit(), decisions: { accepted: [], rejected: [] } });
    expect(prompt.messages[1]!.content).toContain('Пользователь ещё не принял ни одного предложения аудита.');
  });

  it('stays within the character budget for a huge account, keeping the most expensive findings', () => {
    const audit = largeAudit(20_000);
    const prompt = buildAiPlanPrompt({ projectName: 'Большой аккаунт', audit, decisions: { accepted: [], rejected: [] } });
    expect(prompt.chars).toBeLessThanOrEqual(defaultPromptLimits.maxChars);
    expect(prompt.findings.length).toBeGreaterThan(10);
    expect(prompt.findings.length).toBeLessThanOrEqual(defaultPromptLimits.maxFindings);
    // f0, f3, f6…: the priced ones, most money first.
    expect(prompt.findings.slice(0, 3).map((item) => item.finding.id)).toEqual(['f0', 'f3', 'f6']);
    // Every code given to the model is in the text, and no other.
    const user = prompt.messages[1]!.content;
    for (const { ref } of prompt.findings) expect(user).toContain(`\n${ref}. `);
    expect(user).not.toContain(`\nF${prompt.findings.length + 1}. `);
  });

  it('drops findings from the bottom when a tight budget leaves no room', () => {
    const audit = largeAudit(100);
    const tight = { ...defaultPromptLimits, maxChars: SYSTEM_PROMPT.length + 4000 };
    const prompt = buildAiPlanPrompt({ projectName: 'Окна', audit, decisions: { accepted: [], rejected: [] } }, tight);
    expect(prompt.chars).toBeLessThanOrEqual(tight.maxChars);
    expect(prompt.findings.length).toBeGreaterThanOrEqual(1);
    expect(prompt.findings[0]!.finding.id).toBe('f0');
  });

  it('ranks by money, then severity, then weight, then id', () => {
    const ranked = rankFindings([lengthFinding, ctrFinding, cpcFinding, wasteFinding]);
    expect(ranked.map((item) => item.id)).toEqual(['waste', 'cpc', 'ctr', 'len']);
  });
});

describe('parsePlanAnswer', () => {
  const prompt = buildAiPlanPrompt({ projectName: 'Окна', audit: makeAudit(), decisions });
  const answer = (value: unknown) => JSON.stringify(value);

  it('maps codes to the audit findings and adds up their money, never the model’s', () => {
    const plan = parsePlanAnswer(
      answer({
        summary: 'Деньги уходят на нецелевые фразы.',
        steps: [
          { title: 'Остановите фразы без конверсий', why: 'Расход без результата', expected_effect: 'Меньше пустого расхода', findings: ['F1', 'f2', 'F1'] },
          { title: 'Поднимите CTR', why: 'CTR ниже порога', findings: ['F3'] },
          { title: 'Сократите заголовки', why: 'Обрезаются', expected_effect: null, findings: ['F4', 'F2'] },
        ],
      }),
      prompt.findings,
    );
    expect(plan.summary).toBe('Деньги уходят на нецелевые фразы.');
    expect(plan.steps.map((step) => [step.position, step.title, step.money_per_month])).toEqual([
      [1, 'Остановите фразы без конверсий', 4490],
      [2, 'Поднимите CTR', null],
      [3, 'Сократите заголовки', 1200],
    ]);
    expect(plan.steps[0]!.findings[0]).toEqual({
      id: 'waste',
      check_id: 'stats.wasted_spend',
      title: 'Расход без конверсий',
      severity: 'high',
      target: 'Кампания «Окна — поиск» / группа «Пластиковые окна» / «окна бесплатно»',
      money_per_month: 3290,
    });
    expect(plan.steps[1]!.expected_effect).toBeNull();
    // Each priced finding counted once in the total, however many steps cite it.
    expect(plan.money_per_month_total).toBe(4490);
  });

  it('accepts JSON wrapped in a Markdown fence', () => {
    const plan = parsePlanAnswer('```json\n{"steps":[{"title":"Шаг","why":"Потому что","findings":[]}]}\n```', prompt.findings);
    expect(plan).toEqual({ summary: null, steps: [{ position: 1, title: 'Шаг', why: 'Потому что', expected_effect: null, money_per_month: null, findings: [] }], money_per_month_total: null });
  });

  it.each([
    ['text that is not JSON', 'Вот ваш план: 1. Остановите фразы', 'Языковая модель вернула ответ не в формате JSON'],
    ['no steps', answer({ summary: 'x', steps: [] }), 'Ответ языковой модели не соответствует формату плана: steps: нет ни одного шага'],
    ['a step without a title', answer({ steps: [{ why: 'x', findings: [] }] }), 'Ответ языковой модели не соответствует формату плана: steps.0.title: нет обязательного поля'],
    ['an array instead of an object', answer([{ title: 'x' }]), 'Ответ языковой модели не соответствует формату плана: steps: нет обязательного поля'],
    ['a string instead of an object', answer('план'), 'Ответ языковой модели не соответствует формату плана: ответ: ожидается объект с полями summary и steps'],
    ['a step that is a string', answer({ steps: ['Остановите фразы'] }), 'Ответ языковой модели не соответствует формату плана: steps.0: шаг — объект с полями title, why и findings'],
    ['codes the prompt never listed', answer({ steps: [{ title: 'x', why: 'y', findings: ['F1', 'F9', 'X'] }] }), 'Ответ языковой модели ссылается на замечания, которых нет в аудите: F9, X'],
  ])('refuses %s with a clear Russian message', (_name, content, message) => {
    expect(() => parsePlanAnswer(content, prompt.findings)).toThrow(new LlmError(message));
  });
});

describe('accepted suggestions of every kind', () => {
  it('are described by what they change', () => {
    const audit = makeAudit(undefined, [
      acceptedNegative,
      { id: 's-cross', kind: 'cross_minus', level: 'keyword', target: { level: 'keyword', key: 'k' }, before: 'окна', after: 'окна -пластиковые', add: ['пластиковые'], because: [], remove: [], reason: '' },
      { id: 's-ad', kind: 'ad_field', target: { level: 'ad', key: 'a' }, field: 'headline', index: 0, before: 'Длинный заголовок', after: 'Короткий', reason: '' },
    ]);
    const user = buildAiPlanPrompt({ projectName: 'Окна', audit, decisions: { accepted: ['s-free', 's-cross', 's-ad'], rejected: [] } }).messages[1]!.content;
    expect(user).toContain('принял предложений: 3 (минус-слова: 1, кросс-минусовка и дубли: 1, объявления: 1)');
    expect(user).toContain('- кросс-минусовка: «окна» → «окна -пластиковые»');
    expect(user).toContain('- исправление объявления: «Длинный заголовок» → «Короткий»');
  });
});
