/**
 * Curated non-commercial intents, by category. A query holding one of these is rarely a buyer, so the
 * word goes in as a campaign-level negative (one word per entry), except the ambiguous ones (отзывы…),
 * which a person checks: for some businesses they sell.
 *
 * Entries are matched by lemma, so one entry covers every form (скачать: скачать, скачай, скачивание
 * is a different lemma and has its own entry).
 */
import type { NegativeCategory } from '../../../src/contract/analysis-results.js';

export interface LexiconEntry {
  /** The negative as it would be written (a word or a short phrase). */
  text: string;
  category: Exclude<NegativeCategory, 'query' | 'competitors'>;
  /** Safe to propose up front when there is no query report to check against. */
  preventive?: boolean;
}

const entries = (category: LexiconEntry['category'], texts: string[], preventive: string[] = []): LexiconEntry[] =>
  texts.map((text) => ({ text, category, ...(preventive.includes(text) ? { preventive: true } : {}) }));

export const nonCommercialLexicon: LexiconEntry[] = [
  ...entries('free', ['бесплатно', 'даром', 'халява', 'скачать', 'скачивание', 'торрент', 'torrent', 'download', 'free', 'кряк', 'crack', 'взлом'], ['бесплатно', 'скачать', 'торрент']),
  ...entries('informational', ['своими руками', 'как сделать', 'что такое', 'реферат', 'википедия', 'wiki', 'вики', 'определение', 'самостоятельно', 'чертеж', 'схема', 'инструкция', 'гост'], ['своими руками', 'реферат', 'википедия']),
  ...entries('jobs', ['вакансии', 'работа', 'зарплата', 'резюме', 'подработка', 'стажировка', 'требуется', 'устроиться'], ['вакансии', 'резюме', 'зарплата']),
  ...entries('used', ['б/у', 'бу', 'подержанный', 'авито', 'avito', 'юла', 'барахолка', 'комиссионка']),
  ...entries('foreign_geo', [
    'киев', 'минск', 'алматы', 'астана', 'ташкент', 'баку', 'ереван', 'тбилиси', 'бишкек', 'кишинев',
    'украина', 'беларусь', 'казахстан', 'узбекистан', 'армения', 'грузия',
    'москва', 'спб', 'петербург', 'питер', 'новосибирск', 'екатеринбург', 'казань', 'краснодар', 'ростов',
    'самара', 'омск', 'челябинск', 'уфа', 'воронеж', 'пермь', 'волгоград', 'красноярск', 'сочи',
  ]),
  ...entries('ambiguous', ['отзывы', 'форум', 'рейтинг', 'сравнение', 'обзор', 'фото', 'видео', 'картинки']),
];

/** Words that make a query commercial (someone is about to buy). */
export const commercialMarkers = new Set([
  'купить', 'цена', 'стоимость', 'заказать', 'заказ', 'недорого', 'недорогой', 'дешево', 'дешевый', 'магазин', 'интернет', 'доставка',
  'продажа', 'прайс', 'акция', 'скидка', 'распродажа', 'оптом', 'опт', 'розница', 'установка', 'ремонт', 'услуга', 'аренда', 'прокат',
  'сколько', 'стоить', 'price', 'buy', 'shop', 'order',
]);

/** Words that make a query informational. */
export const informationalMarkers = new Set(['как', 'что', 'почему', 'зачем', 'своими', 'самостоятельно', 'инструкция', 'схема', 'реферат', 'определение', 'how', 'what', 'why']);

/** Words of navigational queries (looking for a site or a brand's page). */
export const navigationalMarkers = new Set(['сайт', 'официальный', 'телефон', 'адрес', 'контакт', 'вход', 'личный', 'кабинет', 'login', 'site']);
