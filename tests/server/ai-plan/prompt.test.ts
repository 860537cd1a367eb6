import { describe, expect, it } from 'vitest';
import { parsePlanAnswer } from '../../../server/ai-plan/answer.js';
import { buildAiPlanPrompt, defaultPromptLimits, rankFindings, SYSTEM_PROMPT } from '../../../server/ai-plan/prompt.js';
import { LlmError } from '../../../server/ai-plan/provider.js';
import type { MoneyStory } from '../../../contract/analysis-results.js';
import { formatRub } from '../../../contract/format.js';
import { acceptedNegative, cpcFinding, ctrFinding, largeAudit, lengthFinding, makeAudit, negative, wasteFinding, withNonTargetQueries } from './fixtures.js';

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

  it('quotes the money story («Теряете ≈ X») and its causes instead of totals of its own', () => {
    const audit = makeAudit();
    // Stored before the lost/saving split: its 6 290 had the 1 000 of dearer conversions in it.
    audit.money = {
      perMonth: 6290,
      period: 6500,
      causes: [
        { cause: 'wasted_keywords', perMonth: 3290, period: 3400, count: 1, list: { kind: 'findings', checks: ['keyword.action_stop', 'stats.wasted_spend'] } },
        { cause: 'non_target_queries', perMonth: 2000, period: 2067, count: 12, list: { kind: 'suggestions', suggestionKind: 'negative_keyword' } },
        { cause: 'overpaid_clicks', perMonth: 1000, period: 1033, count: 2, list: { kind: 'findings', checks: ['keyword.action_lower_bid'] } },
      ],
    };
    audit.scoring.bySeverity.medium = { ...audit.scoring.bySeverity.medium, entities: 40 };
    const user = buildAiPlanPrompt({ projectName: 'Окна', audit, decisions }).messages[1]!.content;
    expect(user).toMatch(/Теряете ≈ 5\s290 ₽\/мес \(расход без конверсий\) — сумма причин ниже, каждый рубль посчитан один раз:\n- Фразы без конверсий: 3\s290 ₽\/мес \(1 фраза\)\n- Нецелевые запросы: 2\s000 ₽\/мес \(12 запросов\)\n/);
    // Money that could be saved apart, never in the loss.
    expect(user).toMatch(/\nОтдельно, не потери: можно сэкономить ≈ 1\s000 ₽\/мес — конверсии дороже ориентира:\n- Конверсии дороже (целевой цены|средней цены в аккаунте): 1\s000 ₽\/мес/);
    // No second money total beside it: no wasted-spend line, no roubles per severity.
    expect(user).not.toMatch(/^Расход без конверсий: /m);
    expect(user).toContain('Упущенные возможности: замечаний 1.');
    expect(user).toContain('Оценка аккаунта: 64 из 100; замечаний 4 (они касаются 43 фраз, объявлений, групп и кампаний).');
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
    expect(plan).toEqual({ summary: null, steps: [{ position: 1, title: 'Шаг', why: 'Потому что', expected_effect: null, money_per_month: null, findings: [] }], money_per_month_total: null, money_note: null });
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

describe('non-target queries and the automatic negatives (code N)', () => {
  const negatives = () => [
    negative('s-free', 'бесплатно', 870, { category: 'free' }),
    negative('s-jobs', 'вакансии', 1354.84),
    negative('s-reviews', 'отзывы', 5000, { status: 'check_by_hand', category: 'ambiguous' }),
    negative('s-other', 'работа', 100),
  ];
  const audit = () => withNonTargetQueries(makeAudit(), negatives());
  const userOf = (prompt: ReturnType<typeof buildAiPlanPrompt>) => prompt.messages[1]!.content;

  it('gives the deduplicated figure under code N and the top automatic negatives, never the check-by-hand ones', () => {
    const prompt = buildAiPlanPrompt({ projectName: 'Окна', audit: audit(), decisions });
    expect(prompt.negatives).toEqual({ ref: 'N', summary: audit().semantic.nonTargetQueries });
    expect(SYSTEM_PROMPT).toContain('ссылается на код N');
    const user = userOf(prompt);
    // 2 000 ₽ × 30 / 31, not the negatives' own 870 + 1 354,84 + 100.
    expect(user).toMatch(/Нецелевые запросы \(код N\): 1\s935 ₽\/мес, запросов без конверсий: 3 \(каждый запрос посчитан один раз/);
    const lines = user.split('\n').filter((text) => text.startsWith('- минус-слово'));
    expect(lines.filter((text) => text.includes('₽/мес'))).toEqual([
      expect.stringMatching(/^- минус-слово «вакансии» на уровне кампании — Кампания «Окна — поиск»; 1\s355 ₽\/мес$/),
      '- минус-слово «бесплатно» на уровне кампании — Кампания «Окна — поиск»; 870 ₽/мес; уже принято',
      '- минус-слово «работа» на уровне кампании — Кампания «Окна — поиск»; 100 ₽/мес; отклонено пользователем',
    ]);
    // The accepted examples list «бесплатно» again, as before (without money).
    expect(lines.at(-1)).toBe('- минус-слово «бесплатно» на уровне кампании — Кампания «Окна — поиск»');
    expect(user).not.toContain('«отзывы»');
    // Money first: the negatives come before the findings.
    expect(user.indexOf('(код N)')).toBeLessThan(user.indexOf('Главные замечания'));
  });

  it('lists at most maxNegatives automatic negatives, most money first', () => {
    const many = Array.from({ length: 25 }, (_, i) => negative(`n${i}`, `слово${i}`, 1000 - i));
    const prompt = buildAiPlanPrompt({ projectName: 'Окна', audit: withNonTargetQueries(makeAudit(), many), decisions: { accepted: [], rejected: [] } });
    const listed = [...userOf(prompt).matchAll(/^- минус-слово «(слово\d+)»/gm)].map((match) => match[1]);
    expect(listed).toEqual(Array.from({ length: defaultPromptLimits.maxNegatives }, (_, i) => `слово${i}`));
  });

  it('stays within the budget with long negatives, dropping their lines before the findings', () => {
    const long = Array.from({ length: 10 }, (_, i) => negative(`n${i}`, `${'очень длинная минус-фраза '.repeat(30)}${i}`, 1000 - i, { level: 'group' }));
    const big = withNonTargetQueries(largeAudit(20_000), long);
    const prompt = buildAiPlanPrompt({ projectName: 'Большой аккаунт', audit: big, decisions: { accepted: [], rejected: [] } });
    expect(prompt.chars).toBeLessThanOrEqual(defaultPromptLimits.maxChars);
    expect(userOf(prompt)).toContain('(код N)');
    expect(prompt.findings.length).toBeGreaterThan(10);

    const tight = { ...defaultPromptLimits, maxChars: SYSTEM_PROMPT.length + 4000 };
    const small = buildAiPlanPrompt({ projectName: 'Окна', audit: withNonTargetQueries(largeAudit(100), long), decisions: { accepted: [], rejected: [] } }, tight);
    expect(small.chars).toBeLessThanOrEqual(tight.maxChars);
    expect(small.findings[0]!.finding.id).toBe('f0');
    // The figure stays, the negatives' lines went first: several findings are still there.
    expect(userOf(small)).toContain('(код N)');
    expect(userOf(small)).not.toContain('- минус-слово');
    expect(small.findings.length).toBeGreaterThan(1);
  });

  it('has no code N for a result stored before the figure existed, and refuses a step citing it there', () => {
    const older = makeAudit(undefined, negatives());
    const prompt = buildAiPlanPrompt({ projectName: 'Окна', audit: older, decisions });
    expect(prompt.negatives).toBeNull();
    expect(userOf(prompt)).not.toContain('код N');
    const content = JSON.stringify({ steps: [{ title: 'Добавьте минус-слова', why: 'Нецелевые запросы', findings: ['N'] }] });
    expect(() => parsePlanAnswer(content, prompt.findings, prompt.negatives)).toThrow(new LlmError('Ответ языковой модели ссылается на замечания, которых нет в аудите: N'));
  });

  it('prices a step citing N with the non-target queries, once per step, beside the findings’ total rather than in it', () => {
    const prompt = buildAiPlanPrompt({ projectName: 'Окна', audit: audit(), decisions });
    const plan = parsePlanAnswer(
      JSON.stringify({
        steps: [
          { title: 'Добавьте минус-слова', why: 'Запросы без конверсий', findings: ['n', 'N'] },
          { title: 'Остановите фразы без конверсий', why: 'Расход без результата', findings: ['F1', 'F2'] },
          { title: 'Проверьте минус-слова ещё раз', why: 'Повтор', findings: ['N'] },
        ],
      }),
      prompt.findings,
      prompt.negatives,
    );
    expect(plan.steps.map((step) => [step.title, step.money_per_month])).toEqual([
      ['Добавьте минус-слова', 1935.48],
      ['Остановите фразы без конверсий', 4490],
      ['Проверьте минус-слова ещё раз', 1935.48],
    ]);
    expect(plan.steps[0]!.findings).toEqual([
      { id: 'non-target-queries', check_id: 'semantic.non_target_queries', title: 'Нецелевые запросы: автоматические минус-слова', severity: 'high', target: 'Поисковые запросы без конверсий: 3', money_per_month: 1935.48 },
    ]);
    // The queries are part of the keywords' spend the findings price: 3 290 + 1 200, not + 1 935,48.
    expect(plan.money_per_month_total).toBe(4490);
  });
});

describe('the plan’s total against the audit’s money headline', () => {
  /** Lost: the waste finding’s keywords and the non-target queries (and, in `withBrokenPages`, pages no finding of the prompt shows); to save apart: the dearer clicks. */
  const story = (withBrokenPages = false): MoneyStory => {
    const lost: MoneyStory['causes'] = [
      { cause: 'wasted_keywords', perMonth: 3290, period: 3400, count: 1, list: { kind: 'findings', checks: ['stats.wasted_spend'] } },
      { cause: 'non_target_queries', perMonth: 1935.48, period: 2000, count: 3, list: { kind: 'suggestions', suggestionKind: 'negative_keyword' } },
      ...(withBrokenPages ? [{ cause: 'broken_pages' as const, perMonth: 800, period: 827, count: 2, list: { kind: 'findings' as const, checks: ['pages.broken'] } }] : []),
    ];
    const perMonth = lost.reduce((sum, cause) => sum + cause.perMonth, 0);
    return {
      perMonth,
      period: perMonth,
      saving: { perMonth: 1200, period: 1240, reference: 'target' },
      spendPerMonth: 40_000,
      causes: [...lost, { cause: 'overpaid_clicks', perMonth: 1200, period: 1240, count: 1, list: { kind: 'findings', checks: ['stats.expensive_cpc'] } }],
    };
  };
  const withStory = (money: MoneyStory) => {
    const audit = withNonTargetQueries(makeAudit(), [negative('n-free', 'бесплатно', 1935.48)]);
    audit.money = money;
    return audit;
  };
  const steps = (...cited: string[][]) => JSON.stringify({ steps: cited.map((findings, i) => ({ title: `Шаг ${i + 1}`, why: 'По аудиту', findings })) });

  it('equals the headline when the steps cover every cause of it, the money to save named apart and never added', () => {
    const money = story();
    const prompt = buildAiPlanPrompt({ projectName: 'Окна', audit: withStory(money), decisions });
    expect(prompt.money).toEqual(money);
    // F1: the waste (3 290), F2: the dearer clicks (1 200, to save), N: the queries (1 935,48).
    const plan = parsePlanAnswer(steps(['F1', 'F2'], ['N']), prompt.findings, prompt.negatives, prompt.money);
    expect(plan.money_per_month_total).toBe(5225.48);
    expect(plan.money_per_month_total).toBe(money.perMonth);
    expect(plan.money_note).toBe(
      `План охватывает все потери, которые нашёл аудит: ${formatRub(5225.48)} в месяц. Отдельно от потерь можно сэкономить ${formatRub(1200)} в месяц на конверсиях дороже целевой цены: шаги плана касаются ${formatRub(1200)} из них. К потерям эта сумма не прибавляется.`,
    );
    // The steps keep the money of what they cite; only the total is measured against the headline.
    expect(plan.steps.map((step) => step.money_per_month)).toEqual([4490, 1935.48]);
  });

  it('says what of the headline it leaves out and why when it covers less: «План охватывает X из Y»', () => {
    const money = story(true);
    const prompt = buildAiPlanPrompt({ projectName: 'Окна', audit: withStory(money), decisions });
    // Cites the dearer clicks and the queries; not the waste (listed as F1), and no finding shows the broken pages.
    const plan = parsePlanAnswer(steps(['F2'], ['N']), prompt.findings, prompt.negatives, prompt.money);
    expect(plan.money_per_month_total).toBe(1935.48);
    expect(plan.money_note).toBe(
      `План охватывает ${formatRub(1935.48)} из ${formatRub(6025.48)} потерь в месяц. Не вошли: «Фразы без конверсий» — ${formatRub(3290)}: ни один шаг плана на эти замечания не ссылается; «Неработающие страницы» — ${formatRub(800)}: этих замечаний не было среди главных, по которым составлялся план. Отдельно от потерь можно сэкономить ${formatRub(1200)} в месяц на конверсиях дороже целевой цены: шаги плана касаются ${formatRub(1200)} из них. К потерям эта сумма не прибавляется.`,
    );
  });

  it('never counts more of a cause than the headline has of it, nor the money to save in the loss', () => {
    const money = story();
    // The cause counts 2 000 of the waste finding’s 3 290 (the rest is inside other causes).
    money.causes[0]!.perMonth = 2000;
    money.perMonth = 2000 + 1935.48;
    const prompt = buildAiPlanPrompt({ projectName: 'Окна', audit: withStory(money), decisions });
    const plan = parsePlanAnswer(steps(['F1'], ['F2']), prompt.findings, prompt.negatives, prompt.money);
    expect(plan.money_per_month_total).toBe(2000);
    expect(plan.money_note).toContain(`План охватывает ${formatRub(2000)} из ${formatRub(3935.48)} потерь в месяц. Не вошли: «Нецелевые запросы» — ${formatRub(1935.48)}: в плане нет шага с автоматическими минус-словами.`);
  });
});
