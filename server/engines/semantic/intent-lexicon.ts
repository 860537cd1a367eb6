/**
 * Curated non-commercial intents, by category and language. A query holding one of these is rarely a
 * buyer, so the word goes in as a campaign-level negative (one word per entry), except the ambiguous
 * ones (отзывы…), which a person checks: for some businesses they sell.
 *
 * Entries are matched by lemma, so one entry covers every form (скачать: скачать, скачай, скачивание
 * is a different lemma and has its own entry). Each list is for one language: a query or campaign
 * written in Latin script gets the English list, one in Cyrillic the Russian list (language.ts), never
 * the other — «бесплатно» means nothing to an English campaign.
 *
 * Other places (foreign geography) are not here: they come from the geography dictionary (geo/), which
 * knows which places the project targets.
 */
import type { NegativeCategory } from '../../../contract/analysis-results.js';
import type { ScriptLanguage } from './language.js';

export interface LexiconEntry {
  /** The negative as it would be written (a word or a short phrase). */
  text: string;
  category: Exclude<NegativeCategory, 'query' | 'competitors' | 'foreign_geo'>;
  language: ScriptLanguage;
  /** Safe to propose up front when there is no query report to check against. */
  preventive?: boolean;
  /**
   * The word alone makes a keyword non-commercial (`keyword.non_commercial`). Words that also live in
   * commercial phrases (работа: «ремонтные работы»; схема, инструкция, гост) stay negatives for
   * queries only.
   */
  keywordIntent?: boolean;
  /** Lemmas that make the phrase commercial again: «бесплатная доставка», «free shipping», «free quote». */
  unlessWith?: string[];
}

type Options = { preventive?: string[]; keywordIntent?: string[]; unlessWith?: Record<string, string[]> };

const entries = (language: ScriptLanguage, category: LexiconEntry['category'], texts: string[], options: Options = {}): LexiconEntry[] =>
  texts.map((text) => ({
    text,
    category,
    language,
    ...(options.preventive?.includes(text) ? { preventive: true } : {}),
    ...(options.keywordIntent?.includes(text) ? { keywordIntent: true } : {}),
    ...(options.unlessWith?.[text] ? { unlessWith: options.unlessWith[text] } : {}),
  }));

/** «Бесплатно» next to these is a selling point (бесплатная доставка, замер, выезд), not a freebie hunt. */
const freeButSelling = ['доставка', 'доставить', 'доставкой', 'замер', 'выезд', 'консультация', 'установка', 'примерка'];
const freeButSellingEn = ['shipping', 'delivery', 'quote', 'estimate', 'consultation', 'trial', 'return', 'installation'];

/** One entry per lemma: two entries of one lemma («вакансии», «вакансия») would be two suggestions blocking the same queries. */
export const nonCommercialLexicon: LexiconEntry[] = [
  // Russian
  ...entries('ru', 'free', ['бесплатно', 'даром', 'халява', 'скачать', 'скачивание', 'торрент', 'кряк', 'взлом'], {
    preventive: ['бесплатно', 'скачать', 'торрент'],
    keywordIntent: ['бесплатно', 'даром', 'халява', 'скачать', 'скачивание', 'торрент', 'кряк', 'взлом'],
    unlessWith: { бесплатно: freeButSelling },
  }),
  ...entries('ru', 'informational', ['своими руками', 'как сделать', 'что такое', 'реферат', 'курсовая', 'сочинение', 'википедия', 'вики', 'определение', 'самостоятельно', 'чертеж', 'схема', 'инструкция', 'гост'], {
    preventive: ['своими руками', 'реферат', 'википедия'],
    keywordIntent: ['своими руками', 'как сделать', 'что такое', 'реферат', 'курсовая', 'сочинение', 'википедия'],
  }),
  ...entries('ru', 'jobs', ['вакансии', 'работа', 'зарплата', 'резюме', 'подработка', 'стажировка', 'требуется', 'устроиться'], {
    preventive: ['вакансии', 'резюме', 'зарплата'],
    keywordIntent: ['вакансии', 'зарплата', 'резюме', 'подработка', 'стажировка'],
  }),
  ...entries('ru', 'used', ['б/у', 'бу', 'подержанный', 'авито', 'юла', 'барахолка', 'комиссионка'], {
    keywordIntent: ['б/у', 'бу', 'подержанный', 'авито', 'юла', 'барахолка'],
  }),
  ...entries('ru', 'ambiguous', ['отзывы', 'форум', 'рейтинг', 'сравнение', 'обзор', 'фото', 'видео', 'картинки']),
  // English
  ...entries('en', 'free', ['free', 'download', 'torrent', 'crack', 'keygen', 'pirate'], {
    preventive: ['free', 'download', 'torrent', 'crack'],
    keywordIntent: ['free', 'download', 'torrent', 'crack', 'keygen', 'pirate'],
    unlessWith: { free: freeButSellingEn },
  }),
  ...entries('en', 'informational', ['how to', 'diy', 'homemade', 'tutorial', 'wikipedia', 'wiki', 'definition', 'meaning', 'essay', 'pdf', 'template'], {
    preventive: ['diy', 'wikipedia', 'essay'],
    keywordIntent: ['how to', 'diy', 'homemade', 'tutorial', 'wikipedia', 'essay'],
  }),
  ...entries('en', 'jobs', ['jobs', 'careers', 'vacancies', 'hiring', 'salary', 'internship', 'resume'], {
    preventive: ['jobs', 'careers', 'salary', 'vacancies'],
    keywordIntent: ['jobs', 'careers', 'vacancies', 'hiring', 'salary', 'internship'],
  }),
  ...entries('en', 'used', ['used', 'second hand', 'secondhand', 'craigslist', 'ebay', 'pre owned'], {
    keywordIntent: ['second hand', 'secondhand', 'craigslist', 'ebay'],
  }),
  ...entries('en', 'ambiguous', ['reviews', 'forum', 'reddit', 'vs', 'comparison', 'images', 'pictures', 'video']),
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
