import { describe, expect, it } from 'vitest';
import type { CampaignData } from '../../../contract/campaigns.js';
import { engineSettings } from '../../../server/analysis/run-audit.js';
import { gazetteerFor } from '../../../server/engines/semantic/geo/gazetteer.js';
import { defaultProjectSettings } from '../../../contract/projects.js';
import { ad, campaign, group, kw, query, stats, yandex } from '../../fixtures/analysis/builders.js';
import { analyse, lemmatizer, phraseTools } from './helpers.js';

const google = (...args: Parameters<typeof yandex>): CampaignData => ({ ...yandex(...args), platform: 'google_ads' });
/** The engine settings a project with this region text gets (the same path as a real audit). */
const region = (text: string) => engineSettings(defaultProjectSettings, null, text);

describe('geography dictionary', () => {
  it('knows a place by every spelling and form, the longer name first', async () => {
    const gazetteer = gazetteerFor(await lemmatizer());
    const { words } = await phraseTools();
    const keys = (text: string) => gazetteer.find(words(text)).map((match) => match.place.key);
    for (const text of ['цветы спб', 'цветы питер', 'доставка цветов в питере', 'цветы санкт-петербург', 'цветы в петербурге', 'питерские цветы']) expect(keys(text), text).toEqual(['spb']);
    expect(keys('цветы мск')).toEqual(['moskva']);
    expect(keys('цветы подмосковье')).toEqual(['moskovskaya-obl']);
    expect(keys('цветы екб')).toEqual(['ekaterinburg']);
    expect(keys('цветы новосиб')).toEqual(['novosibirsk']);
    expect(keys('цветы нижний новгород')).toEqual(['nn']);
    expect(keys('цветы великий новгород')).toEqual(['veliky-novgorod']);
    expect(keys('краснодарский край цветы')).toEqual(['krasnodarskiy']);
    // Not places: an ordinary adjective and a word inside another.
    expect(keys('нижнее белье')).toEqual([]);
    expect(keys('мскх')).toEqual([]);
  });

  it('ties a region text to the city and the region around it', async () => {
    const gazetteer = gazetteerFor(await lemmatizer());
    expect([...gazetteer.homeOf(['Санкт-Петербург'])].sort()).toEqual(['leningradskaya-obl', 'spb']);
    expect([...gazetteer.homeOf(['Москва'])].sort()).toEqual(['moskovskaya-obl', 'moskva']);
    expect([...gazetteer.homeOf(['Татарстан'])].sort()).toEqual(['kazan', 'tatarstan']);
    // As the project's region reaches the engine: short names survive (СПб и ЛО, МО).
    expect([...gazetteer.homeOf(engineSettings(defaultProjectSettings, null, 'СПб и ЛО').homeRegionWords!)].sort()).toEqual(['leningradskaya-obl', 'spb']);
    expect([...gazetteer.homeOf(engineSettings(defaultProjectSettings, null, 'МО').homeRegionWords!)].sort()).toEqual(['moskovskaya-obl', 'moskva']);
  });
});

describe('foreign-geography negatives', () => {
  const flowers = (groupRegion?: string) =>
    yandex(
      [campaign('Цветы', [group('Букеты', [kw('доставка цветов'), kw('купить букет')], [ad('Доставка цветов')], groupRegion ? { region: groupRegion } : {})], { negativeKeywords: [] })],
      ['цветы спб', 'цветы питер', 'букет санкт-петербург', 'доставка цветов в петербурге', 'цветы ленобласть', 'цветы москва', 'цветы мск', 'цветы подмосковье', 'цветы екб', 'цветы казань', 'цветы орел'].map((text) =>
        query(text, stats(50, 2, 100), { campaignName: 'Цветы' }),
      ),
    );
  const geo = (result: Awaited<ReturnType<typeof analyse>>) =>
    result.semantic.negatives.filter((item) => item.category === 'foreign_geo').map((item) => [item.text, item.status]).sort();

  it('a Saint Petersburg project is never told to block its own city or region, in any spelling', async () => {
    expect(geo(await analyse(flowers(), region('Санкт-Петербург и Ленинградская область')))).toEqual([
      ['екб', 'ready'], ['казань', 'ready'], ['москва', 'ready'], ['мск', 'ready'], ['орел', 'check_by_hand'], ['подмосковье', 'ready'],
    ]);
  });

  it('a Moscow project is never told to block мск, москва or подмосковье', async () => {
    expect(geo(await analyse(flowers(), region('Москва')))).toEqual([
      ['екб', 'ready'], ['казань', 'ready'], ['ленобласть', 'ready'], ['орел', 'check_by_hand'], ['петербург', 'ready'], ['питер', 'ready'], ['санкт-петербург', 'ready'], ['спб', 'ready'],
    ]);
  });

  it("a group's region is home for its campaign too", async () => {
    const texts = geo(await analyse(flowers('Казань'), region('Москва'))).map(([text]) => text);
    expect(texts).not.toContain('казань');
    expect(texts).toContain('спб');
  });

  it('without any region, places are for a person to check', async () => {
    expect(new Set(geo(await analyse(flowers())).map(([, status]) => status))).toEqual(new Set(['check_by_hand']));
  });
});

describe('language-aware curated lists', () => {
  const english = (negativeKeywords: string[], queries: string[] = []) =>
    google(
      [campaign('Flowers', [group('Bouquets', [kw('flower delivery'), kw('buy roses')], [ad('Flower delivery')])], { negativeKeywords })],
      queries.map((text) => query(text, stats(40, 3, 60), { campaignName: 'Flowers' })),
    );

  it('an English campaign gets the English list, never a Cyrillic negative, and not a word it already has', async () => {
    const { semantic } = await analyse(english(['free']));
    const texts = semantic.negatives.map((item) => item.text);
    expect(texts.filter((text) => /[а-я]/.test(text))).toEqual([]);
    expect(texts.sort()).toEqual(['careers', 'crack', 'diy', 'download', 'essay', 'jobs', 'salary', 'torrent', 'vacancies', 'wikipedia']);
  });

  it('a Russian campaign gets the Russian list, even beside an English negative', async () => {
    const { semantic } = await analyse(yandex([campaign('Цветы', [group('Букеты', [kw('доставка цветов')], [ad('Доставка цветов')])], { negativeKeywords: ['free'] })]));
    expect(semantic.negatives.map((item) => item.text).sort()).toEqual(['бесплатно', 'вакансии', 'википедия', 'зарплата', 'резюме', 'реферат', 'своими руками', 'скачать', 'торрент']);
  });

  it('English queries: free flowers is non-commercial, free delivery is a selling point', async () => {
    const { semantic } = await analyse(english([], ['free flowers', 'free flower delivery', 'florist jobs', 'how to arrange roses']));
    expect(semantic.negatives.map((item) => [item.text, item.category, item.queries.map((q) => q.query)]).sort()).toEqual([
      ['"how to"', 'informational', ['how to arrange roses']],
      ['free', 'free', ['free flowers']],
      ['jobs', 'jobs', ['florist jobs']],
    ]);
  });
});

describe('negatives that cover their queries', () => {
  const account = yandex(
    [
      campaign('Букеты', [
        group('Букеты', [kw('купить букет', { stats: stats(3000, 300, 4400, 5) }), kw('букет своими руками'), kw('доставка букетов -свадебный')], [ad('Букеты с доставкой')]),
      ], { negativeKeywords: ['вакансии'] }),
    ],
    [
      query('букеты из конфет своими руками', stats(300, 40, 1400), { campaignName: 'Букеты', groupName: 'Букеты' }),
      query('купить букет роз', stats(300, 30, 3000, 5), { campaignName: 'Букеты', groupName: 'Букеты' }),
      query('вакансии флорист букеты', stats(30, 3, 90), { campaignName: 'Букеты', groupName: 'Букеты' }),
      query('доставка свадебных букетов', stats(30, 5, 150), { campaignName: 'Букеты', groupName: 'Букеты', keyword: 'доставка букетов -свадебный' }),
    ],
  );

  it('a dropped negative leaves no query uncovered: another word of the query, on its group, with the reason', async () => {
    const { semantic, money } = await analyse(account);
    const dropped = semantic.droppedNegatives.find((item) => item.text === 'своими руками')!;
    expect(dropped.blockedKeywords).toEqual(['букет своими руками']);
    const alternative = semantic.negatives.find((item) => item.id === dropped.alternativeIds?.[0])!;
    expect(alternative).toMatchObject({ text: 'конфет', level: 'group', status: 'ready', category: 'informational', cost: 1400 });
    expect(alternative.reason).toContain('отключило бы свои ключевые фразы: «букет своими руками»');
    expect(alternative.reason).toContain('«конфет»');
    expect(semantic.nonTargetQueries?.cost).toBe(1400);
    expect(money.causes.find((cause) => cause.cause === 'non_target_queries')?.period).toBe(1400);
  });

  it('a query an existing negative blocks gets nothing new, and the audit names that negative', async () => {
    const { semantic } = await analyse(account);
    expect(semantic.negatives.map((item) => item.text)).not.toContain('вакансии');
    expect(semantic.negatives.map((item) => item.text)).not.toContain('свадебный');
    expect(semantic.coveredQueries?.map((item) => [item.query, item.negative, item.level])).toEqual([
      ['вакансии флорист букеты', 'вакансии', 'campaign'],
      ['доставка свадебных букетов', 'свадебный', 'keyword'],
    ]);
  });

  it('falls back to the query as a minus-phrase on its group when every other word is the account’s own', async () => {
    const data = yandex(
      [campaign('Букеты', [group('Букеты', [kw('купить букет'), kw('букет своими руками'), kw('букет из конфет')], [ad('Букеты')])], { negativeKeywords: [] })],
      [
        query('букет из конфет своими руками', stats(300, 40, 1400), { campaignName: 'Букеты', groupName: 'Букеты' }),
        query('купить букет роз', stats(300, 30, 3000, 5), { campaignName: 'Букеты', groupName: 'Букеты' }),
      ],
    );
    const { semantic } = await analyse(data);
    const dropped = semantic.droppedNegatives.find((item) => item.text === 'своими руками')!;
    expect(semantic.negatives.find((item) => item.id === dropped.alternativeIds?.[0])).toMatchObject({ text: 'букет конфет своими руками', level: 'group', status: 'ready' });
  });
});
