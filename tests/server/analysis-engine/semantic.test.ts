import { describe, expect, it } from 'vitest';
import { negativeBlocks } from '../../../server/engines/semantic/negative-match.js';
import { splitMinusWords } from '../../../server/engines/semantic/phrase.js';
import { ad, campaign, group, kw, query, stats, yandex } from '../../fixtures/analysis/builders.js';
import { analyse, phraseTools, prepared } from './helpers.js';

describe('normalisation', () => {
  it('folds case and ё, strips operators and splits minus-words off', async () => {
    const { phrase } = await phraseTools();
    const parsed = phrase('"Купить !Ёлку +в [Москве]" -Бесплатно -!дёшево');
    expect(parsed.words.map((word) => word.form)).toEqual(['купить', 'елку', 'в', 'москве']);
    expect(parsed.quoted).toBe(true);
    expect(parsed.words[1].fixed).toBe(true);
    expect(parsed.words[2]).toMatchObject({ forced: true, stop: true });
    expect(parsed.significant.map((word) => word.form)).toEqual(['купить', 'елку', 'в', 'москве']);
    expect(parsed.minus.map((minus) => minus.words[0].form)).toEqual(['бесплатно', 'дешево']);
    expect(parsed.minus[1].words[0].fixed).toBe(true);
    expect(splitMinusWords('интернет-магазин окон -дешево')).toEqual({ phrase: 'интернет-магазин окон', minus: ['дешево'] });
    expect(phrase('(купить|заказать) окна').words.map((word) => word.form)).toEqual(['купить', 'заказать', 'окна']);
  });

  it('ignores stop words for the meaning of a phrase', async () => {
    const { phrase } = await phraseTools();
    expect(phrase('окна на заказ').lemmaKey).toBe(phrase('заказ окон').lemmaKey);
    expect(phrase('окна +на заказ').lemmaKey).not.toBe(phrase('заказ окон').lemmaKey);
  });
});

describe('negatives among the keyword rows', () => {
  it('reads a «-фраза» row as a group negative, but not the autotargeting row (---autotargeting)', async () => {
    const account = await prepared(
      yandex([campaign('Окна', [group('Окна', [kw('купить окна'), kw('-бесплатно'), kw('---autotargeting', { isAutotargeting: true })], [ad('Купить окна ПВХ')])], { negativeKeywords: [] })]),
    );
    expect(account.groups[0]!.negativeTexts).toEqual(['бесплатно']);
    expect(account.negativeKeywordCount).toBe(1);
    expect(account.keywords.map((keyword) => keyword.keyword.phrase)).toEqual(['купить окна']);
  });
});

describe('negative matching by word and lemma, never substring', () => {
  it("'авто' does not block 'автобус', but blocks every form of авто", async () => {
    const { phrase, words } = await phraseTools();
    expect(negativeBlocks(phrase('авто'), words('аренда автобуса'), 'yandex_direct')).toBe(false);
    expect(negativeBlocks(phrase('авто'), words('купить авто в кредит'), 'yandex_direct')).toBe(true);
    expect(negativeBlocks(phrase('окно'), words('пластиковые окна'), 'yandex_direct')).toBe(true);
  });

  it('covers every form of a word the dictionary does not know, by its stem', async () => {
    const { phrase, words } = await phraseTools();
    expect(negativeBlocks(phrase('ламинат'), words('укладка ламината своими руками'), 'yandex_direct')).toBe(true);
    expect(negativeBlocks(phrase('электросамокат'), words('детский самокат'), 'yandex_direct')).toBe(false);
  });

  it('!word fixes the form; a minus-phrase needs all its words; quotes need the same word count', async () => {
    const { phrase, words } = await phraseTools();
    expect(negativeBlocks(phrase('!окна'), words('ремонт окон'), 'yandex_direct')).toBe(false);
    expect(negativeBlocks(phrase('!окна'), words('ремонт окна'), 'yandex_direct')).toBe(true);
    expect(negativeBlocks(phrase('своими руками'), words('окна своими руками'), 'yandex_direct')).toBe(true);
    expect(negativeBlocks(phrase('своими руками'), words('массаж руками'), 'yandex_direct')).toBe(false);
    expect(negativeBlocks(phrase('"ремонт окон"'), words('ремонт окон'), 'yandex_direct')).toBe(true);
    expect(negativeBlocks(phrase('"ремонт окон"'), words('ремонт окон цена'), 'yandex_direct')).toBe(false);
  });

  it('Google negatives compare forms: broad, "phrase", [exact]', async () => {
    const { phrase, words } = await phraseTools();
    expect(negativeBlocks(phrase('free'), words('free download'), 'google_ads')).toBe(true);
    expect(negativeBlocks(phrase('jobs'), words('job offers'), 'google_ads')).toBe(false);
    expect(negativeBlocks(phrase('"cheap flights"'), words('very cheap flights now'), 'google_ads')).toBe(true);
    expect(negativeBlocks(phrase('"cheap flights"'), words('flights cheap'), 'google_ads')).toBe(false);
    expect(negativeBlocks(phrase('[cheap flights]'), words('cheap flights now'), 'google_ads')).toBe(false);
  });
});

describe('cross-minus like Keywordsresearch.deduplicate', () => {
  it("'шуба' and 'шуба норковая' give 'шуба -норковая'", async () => {
    const data = yandex([campaign('Шубы', [group('Шубы', [kw('шуба'), kw('шуба норковая')], [ad('Шубы в наличии')])])]);
    const { semantic } = await analyse(data);
    const suggestion = semantic.crossMinus.find((item) => item.target.label === 'шуба');
    expect(suggestion).toMatchObject({ level: 'keyword', before: 'шуба', after: 'шуба -норковая', add: ['норковая'] });
    // The narrower keyword is left as it is.
    expect(semantic.crossMinus.some((item) => item.target.label === 'шуба норковая')).toBe(false);
  });

  it("'заказ окон -жалюзи' and 'окна на заказ -дешево' merge into 'окна на заказ -дешево -жалюзи'", async () => {
    const data = yandex([campaign('Окна', [group('Окна', [kw('заказ окон', { negativeWords: ['жалюзи'] }), kw('окна на заказ', { negativeWords: ['дешево'] })], [ad('Окна на заказ')])])]);
    const { semantic } = await analyse(data);
    expect(semantic.duplicates).toHaveLength(1);
    const merge = semantic.crossMinus.find((item) => item.remove.length > 0)!;
    expect(merge.after).toBe('окна на заказ -дешево -жалюзи');
    expect(merge.target.label).toBe('окна на заказ');
    expect(merge.remove.map((ref) => ref.label)).toEqual(['заказ окон']);
  });

  it('finds cross-group intersections and fixes them; an existing minus-word already fixes it', async () => {
    const data = yandex([
      campaign('Шубы', [
        group('Все шубы', [kw('шуба')], [ad('Шубы')]),
        group('Норковые', [kw('шуба норковая'), kw('шуба норковая длинная женская')], [ad('Норковые шубы')]),
        group('Мутон', [kw('шуба мутоновая')], [ad('Шубы из мутона')]),
        group('Кожа', [kw('куртка', { negativeWords: ['кожаная'] }), kw('куртка кожаная')], [ad('Куртки')]),
      ]),
    ]);
    const { semantic } = await analyse(data);
    const pairs = semantic.intersections.map((item) => `${item.broader.label} > ${item.narrower.label}`);
    expect(pairs).toEqual(expect.arrayContaining(['шуба > шуба норковая', 'шуба > шуба мутоновая', 'шуба > шуба норковая длинная женская']));
    expect(pairs.some((pair) => pair.startsWith('куртка'))).toBe(false);
    const keywordFix = semantic.crossMinus.find((item) => item.level === 'keyword' && item.target.label === 'шуба')!;
    expect(keywordFix.after).toBe('шуба -норковая -мутоновая');
    const groupFix = semantic.crossMinus.find((item) => item.level === 'group' && item.target.groupName === 'Все шубы')!;
    expect(groupFix.add).toEqual(['шуба норковая длинная женская']);
  });

  it('does not cross-minus quoted keywords or keywords of other campaigns', async () => {
    const data = yandex([
      campaign('А', [group('А', [kw('"шуба"'), kw('шуба норковая')], [ad('Шубы')])]),
      campaign('Б', [group('Б', [kw('пальто')], [ad('Пальто')])]),
      campaign('В', [group('В', [kw('пальто женское')], [ad('Пальто')])]),
    ]);
    const { semantic } = await analyse(data);
    expect(semantic.crossMinus).toEqual([]);
  });
});

describe('negative-keyword suggestions', () => {
  const converting = query('купить окна бесплатная доставка', stats(100, 20, 2000, 3), { campaignName: 'Окна' });
  const data = yandex(
    [campaign('Окна', [group('Окна', [kw('купить окна'), kw('окна пвх')], [ad('Купить окна ПВХ')], { region: 'Москва' })], { negativeKeywords: [] })],
    [
      query('окна своими руками', stats(100, 2, 40), { campaignName: 'Окна' }),
      query('скачать чертеж окна', stats(50, 1, 20), { campaignName: 'Окна' }),
      query('вакансии монтажник окон', stats(60, 3, 90), { campaignName: 'Окна' }),
      query('окна пвх отзывы', stats(80, 4, 120), { campaignName: 'Окна' }),
      query('окна пвх казань', stats(70, 2, 60), { campaignName: 'Окна' }),
      query('окна пвх москва', stats(70, 2, 60, 1), { campaignName: 'Окна' }),
      query('окна пвх rehau', stats(80, 12, 600), { campaignName: 'Окна', groupName: 'Окна' }),
      query('окна пвх veka', stats(80, 4, 200), { campaignName: 'Окна', groupName: 'Окна' }),
      query('окна бесплатно', stats(100, 6, 300), { campaignName: 'Окна' }),
      converting,
    ],
    { period: { from: '2024-03-01', to: '2024-03-15' } },
  );

  it('suggests category words at campaign level, by category', async () => {
    const { semantic } = await analyse(data, { competitors: ['Rehau'] });
    const byText = new Map(semantic.negatives.map((item) => [item.text, item]));
    expect(byText.get('своими руками')).toMatchObject({ level: 'campaign', category: 'informational', status: 'ready' });
    expect(byText.get('скачать')).toMatchObject({ category: 'free', status: 'ready' });
    expect(byText.get('вакансии')).toMatchObject({ category: 'jobs', status: 'ready' });
    expect(byText.get('казань')).toMatchObject({ category: 'foreign_geo', status: 'ready' });
    expect(byText.get('rehau')).toMatchObject({ category: 'competitors', status: 'ready' });
    // Money per month: 600 ₽ over 15 days → 1200 ₽ a month.
    expect(byText.get('rehau')).toMatchObject({ cost: 600, costPerMonth: 1200, clicks: 12 });
  });

  it('leaves ambiguous intents (отзывы) for a person', async () => {
    const { semantic } = await analyse(data);
    expect(semantic.negatives.find((item) => item.text === 'отзывы')).toMatchObject({ category: 'ambiguous', status: 'check_by_hand' });
  });

  it('never suggests a negative that blocks a converting query, and says why', async () => {
    const { semantic } = await analyse(data);
    expect(semantic.negatives.some((item) => item.text === 'бесплатно')).toBe(false);
    const dropped = semantic.droppedNegatives.find((item) => item.text === 'бесплатно')!;
    expect(dropped.blockedQueries).toEqual(['купить окна бесплатная доставка']);
    // The home region (Москва: the group's region) is never "foreign".
    expect(semantic.negatives.some((item) => item.text === 'москва')).toBe(false);
  });

  it('suggests other zero-conversion queries as group phrases only with enough clicks; below: collect data', async () => {
    const { semantic } = await analyse(data);
    const phrases = semantic.negatives.filter((item) => item.category === 'query');
    expect(phrases.map((item) => [item.level, item.text])).toEqual([['group', 'окна пвх rehau']]);
    expect(phrases[0].evidence[0]).toMatchObject({ value: 12, threshold: 5, setting: 'minClicksForNegative' });
    expect(semantic.collectData.map((item) => item.query)).toEqual(['окна пвх veka']);
  });

  it('does not suggest a negative that would switch off the campaign’s own keywords', async () => {
    const jobs = yandex([campaign('Кадры', [group('Вакансии', [kw('вакансии водитель')], [ad('Вакансии водителей')])], { negativeKeywords: [] })], [query('вакансии водитель', stats(50, 10, 100), { campaignName: 'Кадры' })]);
    const { semantic } = await analyse(jobs);
    expect(semantic.negatives.some((item) => item.text === 'вакансии')).toBe(false);
    expect(semantic.droppedNegatives[0]).toMatchObject({ text: 'вакансии', blockedKeywords: ['вакансии водитель'] });
  });

  it('without a query report proposes the safe curated words up front', async () => {
    const noQueries = yandex([campaign('Окна', [group('Окна', [kw('окна пвх')], [ad('Окна ПВХ')])], { negativeKeywords: ['бесплатно'] })]);
    const { semantic } = await analyse(noQueries);
    const texts = semantic.negatives.map((item) => item.text);
    expect(texts).toEqual(expect.arrayContaining(['скачать', 'своими руками', 'вакансии']));
    expect(texts).not.toContain('бесплатно');
    expect(semantic.negatives.every((item) => item.source === 'curated')).toBe(true);
  });
});

describe('clusters and relevance', () => {
  it('clusters keywords by topic and intent and measures ad relevance', async () => {
    const data = yandex([
      campaign('Окна', [
        group('Купить', [kw('купить пластиковые окна'), kw('пластиковые окна цена')], [ad('Пластиковые окна от завода')]),
        group('Как', [kw('как выбрать пластиковые окна')], [ad('Двери на заказ')]),
      ]),
    ]);
    const { semantic } = await analyse(data);
    expect(semantic.clusters[0].lemmas).toEqual(['окно', 'пластиковый']);
    expect(semantic.clusters[0].intent).toBe('commercial');
    expect(semantic.clusters[0].groupKeys).toEqual(['c0g0']);
    const relevance = new Map(semantic.relevance.map((item) => [item.target.groupName, item]));
    // купить, пластиковый, окно, цена: the ad has пластиковый and окно.
    expect(relevance.get('Купить')!.relevance).toBe(0.5);
    expect(relevance.get('Как')!.relevance).toBe(0);
    expect(relevance.get('Как')!.missingLemmas).toEqual(expect.arrayContaining(['окно', 'пластиковый']));
  });
});
