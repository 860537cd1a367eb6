/**
 * Reklama Lab's own CSV template for campaign import: its file name and its documented columns, in the order
 * the downloadable file has them. One source for the server (which writes the file and reads it back,
 * server/projects/importers/template.ts) and for step 2 of project creation (which explains it).
 *
 * The file is UTF-8 with a BOM (so Excel shows Cyrillic), `;`-separated, one row per keyword and/or ad;
 * titles may come in any order, case and spaces do not matter.
 */

export const IMPORT_TEMPLATE_FILE_NAME = 'reklama-lab-shablon-kampaniy.csv';

export interface TemplateColumnDoc {
  title: string;
  required?: boolean;
  description: string;
}

export const importTemplateColumns = [
  { title: 'Кампания', required: true, description: 'Название кампании; строки с одинаковым названием собираются в одну кампанию.' },
  { title: 'Тип кампании', description: 'Например «поиск» или «сети».' },
  { title: 'Бюджет в день', description: 'Число, в рублях.' },
  { title: 'Минус-слова кампании', description: 'Через пробел с «-» (-бесплатно -б/у), через запятую или через ||.' },
  { title: 'Группа', required: true, description: 'Название группы объявлений внутри кампании.' },
  { title: 'Регион', description: 'Регион показа группы.' },
  { title: 'Минус-слова группы', description: 'Как минус-слова кампании.' },
  {
    title: 'Фраза',
    description: 'Ключевая фраза с операторами площадки и минус-словами (купить диван -бесплатно, "диван кровать", [купить диван]); пусто, если строка описывает только объявление.',
  },
  { title: 'Тип соответствия', description: 'Широкое, фразовое или точное (или broad, phrase, exact); пусто — по операторам фразы.' },
  { title: 'Ставка', description: 'Цена клика, в рублях.' },
  { title: 'Статус фразы', description: 'Как в кабинете, например «Активна».' },
  { title: 'Заголовок 1', description: 'Заголовки объявления; можно добавить столбцы до «Заголовок 15».' },
  { title: 'Заголовок 2', description: 'Второй заголовок объявления.' },
  { title: 'Заголовок 3', description: 'Третий заголовок (адаптивные объявления Google Ads).' },
  { title: 'Текст 1', description: 'Текст объявления; можно добавить «Текст 3» и «Текст 4».' },
  { title: 'Текст 2', description: 'Второй текст объявления.' },
  { title: 'Ссылка', description: 'Адрес посадочной страницы.' },
  { title: 'Отображаемая ссылка', description: 'Путь в объявлении (для Google Ads — Path 1/Path 2 через «/»).' },
  { title: 'Заголовки быстрых ссылок', description: 'Через ||, по порядку.' },
  { title: 'Описания быстрых ссылок', description: 'Через ||, в том же порядке, что и заголовки.' },
  { title: 'Адреса быстрых ссылок', description: 'Через ||, в том же порядке, что и заголовки.' },
  { title: 'Уточнения', description: 'Через ||.' },
  { title: 'Статус объявления', description: 'Как в кабинете, например «Активно».' },
  { title: 'Показы', description: 'Статистика фразы (или объявления, если фразы в строке нет) за период.' },
  { title: 'Клики', description: 'Статистика за период.' },
  { title: 'Расход', description: 'Статистика за период, в рублях.' },
  { title: 'Конверсии', description: 'Статистика за период.' },
] as const satisfies readonly TemplateColumnDoc[];

export type TemplateColumn = (typeof importTemplateColumns)[number]['title'];

/** How rows combine, shown under the column list. */
export const importTemplateNotes = [
  'Одна строка — одна фраза и/или одно объявление группы.',
  'Одинаковое объявление, повторённое в нескольких строках группы, сохраняется один раз.',
  'Несколько значений в одной ячейке разделяются ||.',
] as const;
