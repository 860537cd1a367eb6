import { describe, expect, it } from 'vitest';
import type { AdFieldFixSuggestion } from '../../../contract/analysis-results.js';
import { applyChanges, collectChanges } from '../../../server/engines/export/changes.js';
import { exportAcceptedChanges } from '../../../server/engines/export/export-changes.js';
import { shortenCopy, shortenSlug } from '../../../server/engines/scoring/copy-shortening.js';
import { yandexCountedLength, yandexLimits } from '../../../server/engines/scoring/platform-limits.js';
import { ad, campaign, group, kw, yandex } from '../../fixtures/analysis/builders.js';
import { analyse } from './helpers.js';

const directText = (text: string) => shortenCopy(text, yandexLimits.text, yandexCountedLength);

describe('shortened ad copy reads as copy', () => {
  it('the expert’s text: not «…под ваш бюджет и» but the whole clause, with its «!» (free punctuation in Direct)', () => {
    // 104 characters, 2 narrow marks → 102 counted, over 81. Word by word the old cut ended on «и».
    const text = 'Свежие цветы с доставкой по Москве за 2 часа. Соберём букет под ваш бюджет и привезём к нужному времени!';
    const result = directText(text)!;
    expect(result).toBe('Свежие цветы с доставкой по Москве за 2 часа. Соберём букет под ваш бюджет!');
    expect(yandexCountedLength(result)).toBe(73);
  });

  it('drops a whole trailing clause (after a comma or a dash) before cutting words', () => {
    expect(directText('Букеты из роз, тюльпанов и пионов — доставка по Москве круглосуточно, открытка в подарок бесплатно!')).toBe(
      'Букеты из роз, тюльпанов и пионов — доставка по Москве круглосуточно!',
    );
    expect(shortenCopy('Flower delivery in London, same day', 30)).toBe('Flower delivery in London');
  });

  it('never ends on a preposition, conjunction, particle or a determiner waiting for its noun', () => {
    expect(shortenCopy('Пластиковые окна с установкой под ключ от производителя в Москве', 56)).toBe('Пластиковые окна с установкой под ключ от производителя');
    expect(shortenCopy('Бесплатная доставка по Москве и области', 25)).toBe('Бесплатная доставка');
    expect(shortenCopy('Ремонт квартир под ключ и не только', 24)).toBe('Ремонт квартир под ключ');
    expect(shortenCopy('Fresh flowers delivered today across London with a free card and', 30)).toBe('Fresh flowers delivered today');
    expect(shortenCopy('Running shoes for everyone on sale', 30)).toBe('Running shoes for everyone');
    expect(shortenCopy('Order flowers for the', 15)).toBe('Order flowers');
  });

  it('leaves no dangling comma or dash, and keeps a final mark only when the limit allows it', () => {
    // «Окна, двери, балконы» fits 21 only without the text's final «!».
    expect(shortenCopy('Окна, двери, балконы — монтаж!', 21)).toBe('Окна, двери, балконы!');
    expect(shortenCopy('Окна, двери, балконы — монтаж!', 20)).toBe('Окна, двери, балконы');
  });

  it('asks for a rewrite by hand when no cut keeps half of the content or none fits', () => {
    // The only word that fits is «Очень длинное слово»: the meaning is in the long word.
    expect(directText('Очень длинное слово Сверхпрочныеэнергосберегающиестеклопакетыпластиковыеокнадлялюбогодомаиквартирынедорого')).toBeNull();
    expect(shortenCopy('Сверхпрочныестеклопакеты', 10)).toBeNull();
    expect(shortenCopy('Шубы из норки и соболя со скидкой', 6)).toBeNull();
  });

  it('does not touch what fits: at the limit, and Direct’s free punctuation', () => {
    const fits = 'Fast delivery of running shoes and free returns for all orders in the UK.';
    expect(shortenCopy(fits, 90)).toBe(fits);
    const punctuated = 'Окна, двери, балконы: гарантия 10 лет. Замер, доставка, монтаж! Без предоплаты. Звоните.';
    expect(punctuated.length).toBe(88);
    expect(directText(punctuated)).toBe(punctuated);
  });

  it('display links and paths keep whole words: cut at «-», never mid-word, else by hand', () => {
    expect(shortenSlug('dostavka-cvetov-moskva', 20)).toBe('dostavka-cvetov');
    expect(shortenSlug('cvety-na-zakaz-moskva', 20)).toBe('cvety-na-zakaz');
    expect(shortenSlug('dostavka-cvetov-v-moskve', 20)).toBe('dostavka-cvetov');
    expect(shortenSlug('running-shoes-for-men', 15)).toBe('running-shoes');
    expect(shortenSlug('sverhprochnyesteklopakety', 20)).toBeNull();
    expect(shortenSlug('okna-moskva', 20)).toBe('okna-moskva');
  });
});

describe('ad fixes in the audit and the export', () => {
  const data = yandex([
    campaign('Цветы', [
      group('Букеты', [kw('букеты')], [
        ad('Букеты с доставкой', {
          externalId: '21',
          texts: ['Свежие цветы с доставкой по Москве за 2 часа. Соберём букет под ваш бюджет и привезём к нужному времени!'],
          displayUrl: 'dostavka-cvetov-moskva',
        }),
      ], { externalId: '31' }),
    ], { externalId: '41' }),
    campaign('Окна', [
      group('Стеклопакеты', [kw('стеклопакеты')], [
        ad('Стеклопакеты', { externalId: '22', texts: ['Очень длинное слово Сверхпрочныеэнергосберегающиестеклопакетыпластиковыеокнадлялюбогодомаиквартирынедорого'] }),
      ], { externalId: '32' }),
    ], { externalId: '42' }),
  ]);

  it('proposes copy that reads, whole-word links, and «переписать вручную» with the numbers when nothing fits', async () => {
    const { scoring } = await analyse(data);
    const fixes = scoring.suggestions.filter((item): item is AdFieldFixSuggestion => item.kind === 'ad_field' && item.field !== 'finalUrl');
    const byId = Object.fromEntries(fixes.map((item) => [item.id, item]));
    expect(byId['ad:c0g0a0:text:0'].after).toBe('Свежие цветы с доставкой по Москве за 2 часа. Соберём букет под ваш бюджет!');
    expect(byId['ad:c0g0a0:displayUrl:0'].after).toBe('dostavka-cvetov');
    const manual = byId['ad:c1g0a0:text:0'];
    expect(manual).toMatchObject({ after: '', manual: { limit: 81, length: 106 } });
    expect(manual.reason).toContain('перепишите вручную');
    const finding = scoring.findings.find((item) => item.suggestionIds?.includes(manual.id))!;
    expect(finding.fix).toBe('Перепишите текст вручную: сейчас 106 символов, лимит 81. Обрезать его без потери смысла не получается.');
  });

  it('names the field to shorten in the accusative and the limit in the genitive («Сократите отображаемую ссылку до 20 символов», «текст до 81 символа»)', async () => {
    const { scoring } = await analyse(data);
    const fixOf = (suggestionId: string) => scoring.findings.find((item) => item.suggestionIds?.includes(suggestionId))!.fix;
    expect(fixOf('ad:c0g0a0:displayUrl:0')).toBe('Сократите отображаемую ссылку до 20 символов.');
    expect(fixOf('ad:c0g0a0:text:0')).toBe('Сократите текст до 81 символа.');
  });

  it('a manual fix reaches the export only with the value the user typed', async () => {
    const { scoring } = await analyse(data);
    const manualId = 'ad:c1g0a0:text:0';
    expect(collectChanges(scoring.suggestions, [{ id: manualId }]).adUpdates).toEqual([]);
    expect(await exportAcceptedChanges(data, scoring.suggestions, [{ id: manualId }, { id: manualId, value: '  ' }])).toMatchObject({ files: [] });

    const typed = 'Стеклопакеты для дома и квартиры недорого';
    const changes = collectChanges(scoring.suggestions, [{ id: manualId, value: typed }, { id: 'ad:c0g0a0:displayUrl:0' }]);
    const changed = applyChanges(data, changes);
    expect(changed.campaigns[1].groups[0].ads[0].texts).toEqual([typed]);
    expect(changed.campaigns[0].groups[0].ads[0].displayUrl).toBe('dostavka-cvetov');
  });
});
