/**
 * Russian texts of the problems the importers report. Kept together (not scattered through the parsers)
 * so the wording stays consistent; `{name}` placeholders are filled by `format`.
 */
export const importerMessages = {
  emptyFile: 'Файл пустой',
  oldXls: 'Формат XLS (Excel 97–2003) не поддерживается: сохраните файл как XLSX или CSV',
  brokenXlsx: 'Файл XLSX повреждён или обрезан: не удалось его прочитать. Сохраните его заново или выгрузите ещё раз',
  binaryFile: 'Файл не похож на таблицу: загрузите выгрузку в формате CSV или XLSX',
  unknownKind:
    'Не удалось распознать файл «{file}»: не найдена строка заголовков выгрузки Яндекс Директа, Google Ads Editor, отчёта статистики или шаблона Reklama Lab. {expected}',
  unknownColumns:
    'Не удалось распознать файл «{file}»: его столбцы не распознаны ({columns}). {expected}',
  expectedColumns:
    'Для отчёта по поисковым запросам нужны столбцы «Поисковый запрос» (Query, Search term) и «Показы», «Клики» или «Расход» (Impressions, Clicks, Cost); для отчёта статистики — «Кампания» (CampaignName, Campaign) или «Условие показа» (Criterion, Keyword) и те же показатели; для выгрузки кампаний — её столбцы без изменений',
  statsNotUnderstood:
    'Ни одна строка отчёта «{file}» не сопоставлена с кампаниями из загруженных файлов: отчёт о других кампаниях или его столбцы не поняты (распознаны: {columns}). {expected}',
  missingColumn: 'Не найден обязательный столбец {column}',
  noDataRows: 'В файле нет строк с данными под заголовком',
  tooManyProblems: 'И ещё {count} замечаний по этому файлу: показаны первые {shown}',
  badNumber: 'Не число: «{value}». Значение пропущено',
  negativeNumber: 'Отрицательное значение «{value}». Значение пропущено',
  badDate: 'Не удалось прочитать дату «{value}»',
  noGroup: 'Не указана группа объявлений: строка пропущена',
  noCampaign: 'Не указана кампания: строка пропущена',
  plusWithoutGroup: 'Строка с «+» (доп. объявление группы) идёт раньше первой строки группы: строка пропущена',
  emptyPhrase: 'Фраза состоит только из минус-слов: строка пропущена',
  unknownCriterionType: 'Неизвестный тип условия «{value}»: считаем его широким соответствием',
  negativeWithoutCampaign: 'Минус-слово без кампании: строка пропущена',
  statsNotMatched: 'Строка статистики не сопоставлена ни с одной фразой или объявлением загруженных кампаний',
  statsWithoutStructure:
    'Среди файлов нет структуры кампаний: кампании, группы и фразы собраны из отчёта статистики',
  platformMismatch: 'Файл похож на выгрузку {detected}, а проект — {expected}',
  emptyQuery: 'Пустой поисковый запрос: строка пропущена',
  unknownMatchType: 'Неизвестный тип соответствия «{value}»: считаем его широким',
  sheetSkipped: 'Лист «{sheet}» не распознан и пропущен',
  controlCharacter: 'Недопустимый управляющий символ ({code}) в ячейке: удалите его и загрузите файл ещё раз',
  moreControlCharacters: 'И ещё {count} ячеек с управляющими символами',
  // Limits of an upload (limits.ts): what was over, the limit, and what to do.
  uploadTooLarge:
    'Файлы слишком большие: в распакованном виде это {size}, а за одну загрузку можно разобрать не больше {max}. Загрузите файлы по частям или выгрузите кампании в CSV',
  xlsxTooLarge:
    'Файл XLSX в распакованном виде занимает {size}, а разобрать можно не больше {max}: похоже, файл повреждён или раздут. Сохраните выгрузку заново или разделите её на части',
  xlsxSizeMismatch: 'Файл XLSX повреждён: данных внутри больше, чем указано в его оглавлении. Сохраните файл заново или выгрузите его ещё раз',
  tooManyZipEntries: 'Файл XLSX состоит из {count} частей: это не похоже на выгрузку кампаний',
  tooManyRows: 'Слишком много строк: за одну загрузку можно разобрать не больше {max}. Разделите выгрузку на несколько файлов и загрузите их по очереди',
  cellTooLong: 'Строка {row}, столбец {column}: ячейка длиннее {max} символов (предел Excel). Проверьте, что файл сохранён правильно',
  sheetCellTooLong: 'В файле есть ячейка длиннее {max} символов (предел Excel): такой файл не разобрать. Проверьте, что он сохранён правильно',
} as const;

export function format(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
}

/** The spreadsheet letter of a 0-based column index: 0 → A, 25 → Z, 26 → AA. */
export function columnLetter(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}
