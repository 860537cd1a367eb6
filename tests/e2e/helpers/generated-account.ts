/**
 * A Yandex Direct account of a few thousand keywords written as the three files a user uploads: the
 * campaign export (Commander's tab-separated CSV), the keyword statistics report and the search-query
 * report, both with their period line. Deterministic: the same sizes give the same files.
 *
 * Every tenth keyword spends more than twice the target CPA (1 500 ₽) without converting (a keyword to
 * stop: money the audit prices), never the group's first one, which the search queries below were shown
 * for (so the two causes of the money story stay apart); every group has search
 * queries of job seekers, of people wanting it free and of do-it-yourselfers with enough clicks and no
 * conversions (automatic negatives of the categories «Работа и вакансии», «Бесплатное и скачивание»,
 * «Информационные и „своими руками“»), and one query that converts.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface GeneratedAccount {
  files: string[];
  campaigns: string[];
  keywords: number;
}

const HEADER = [
  'Доп. объявление группы', 'Тип объявления', 'ID кампании', 'Название кампании', 'Минус-фразы на кампанию', 'ID группы', 'Название группы',
  'Номер группы', 'ID фразы', 'Фраза (с минус-словами)', 'ID объявления', 'Заголовок 1', 'Заголовок 2', 'Текст', 'Ссылка',
  'Отображаемая ссылка', 'Регион', 'Ставка', 'Статус объявления', 'Статус фразы',
];

const PRODUCTS = ['пластиковые окна', 'окна пвх', 'деревянные окна', 'алюминиевые окна', 'балконные рамы', 'москитные сетки', 'подоконники', 'откосы', 'жалюзи', 'рулонные шторы'];
const INTENTS = ['купить', 'заказать', 'цена', 'недорого', 'в москве', 'с установкой', 'от производителя', 'под ключ', 'в рассрочку', 'каталог'];
const PLACES = ['химки', 'мытищи', 'люберцы', 'балашиха', 'королёв'];

const money = (value: number) => value.toFixed(2).replace('.', ',');

export async function writeGeneratedAccount(folder: string, size: { campaigns: number; groupsPerCampaign: number; keywordsPerGroup: number }): Promise<GeneratedAccount> {
  const exportLines = [HEADER.join('\t')];
  const statLines = [
    'Отчёт «Статистика по фразам»',
    'Период: 01.10.2026 – 31.10.2026',
    '',
    'Дата;Кампания;№ Кампании;Группа;№ Группы;Условие показа;№ Условия показа;Показы;Клики;CTR (%);Расход (руб.);Ср. цена клика (руб.);Конверсии',
  ];
  const queryLines = ['Поисковые запросы', 'Период: 01.10.2026 - 31.10.2026', '', 'Поисковый запрос;Кампания;Группа;Условие показа;Показы;Клики;Расход (руб.);Конверсии'];
  const campaigns: string[] = [];
  let keywords = 0;
  let groupId = 400_000;
  let keywordId = 2_000_000;
  let adId = 6_000_000;
  for (let c = 0; c < size.campaigns; c++) {
    const campaignId = 61_000_000 + c;
    const campaign = `Окна Лаб — Поиск — ${c + 1}`;
    campaigns.push(campaign);
    for (let g = 0; g < size.groupsPerCampaign; g++) {
      groupId += 1;
      const product = PRODUCTS[g % PRODUCTS.length]!;
      const group = `${product} ${c + 1}-${g + 1}`;
      const ad = ++adId;
      let firstPhrase = '';
      for (let k = 0; k < size.keywordsPerGroup; k++) {
        keywords += 1;
        const id = ++keywordId;
        const phrase = `${INTENTS[k % INTENTS.length]} ${product} ${PLACES[Math.floor(k / INTENTS.length) % PLACES.length]} ${g + 1}-${Math.floor(k / (INTENTS.length * PLACES.length)) + 1}`;
        if (k === 0) firstPhrase = phrase;
        const adColumns =
          k === 0
            ? [String(ad), `${product} от завода`, 'Установка за 1 день', `Закажите ${product} со скидкой до 30%. Замер бесплатно.`, `https://okna-lab.example/${g}`, `okna-${g}`]
            : ['', '', '', '', '', ''];
        exportLines.push(
          ['-', 'Текстово-графическое', String(campaignId), campaign, k === 0 && g === 0 ? '-ремонт' : '', String(groupId), group, String(g + 1), String(id), phrase, ...adColumns, 'Москва', money(20 + (k % 7) * 2.5), k === 0 ? 'Активно' : '', 'Активна'].join('\t'),
        );
        // Every tenth keyword: 40 clicks, 3 600 ₽, no conversion; the others convert at a good price.
        const wasted = k % 10 === 5;
        const clicks = wasted ? 40 : 12 + (k % 9);
        const cost = wasted ? 3600 : clicks * 25;
        const conversions = wasted ? 0 : 1 + (k % 3);
        statLines.push(
          ['01.10.2026', campaign, String(campaignId), group, String(groupId), phrase, String(id), String(clicks * 15), String(clicks), money((100 * clicks) / (clicks * 15)), money(cost), money(cost / clicks), String(conversions)].join(';'),
        );
      }
      const condition = `"${firstPhrase}"`;
      queryLines.push(
        [`${product} вакансии монтажник ${g + 1}`, campaign, group, condition, '90', '8', money(240), '0'].join(';'),
        [`${product} бесплатно ${g + 1}`, campaign, group, condition, '70', '6', money(180), '0'].join(';'),
        [`${product} своими руками ${g + 1}`, campaign, group, condition, '60', '6', money(150), '0'].join(';'),
        [`${product} купить с установкой ${g + 1}`, campaign, group, condition, '300', '20', money(600), '2'].join(';'),
      );
    }
  }
  const files = [
    { name: 'direct-export.csv', text: exportLines.join('\n') + '\n' },
    { name: 'phrase-stats.csv', text: '\ufeff' + statLines.join('\n') + '\n' },
    { name: 'search-queries.csv', text: '\ufeff' + queryLines.join('\n') + '\n' },
  ];
  const paths: string[] = [];
  for (const file of files) {
    const target = path.join(folder, file.name);
    await writeFile(target, file.text, 'utf8');
    paths.push(target);
  }
  return { files: paths, campaigns, keywords };
}
