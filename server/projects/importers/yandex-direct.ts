/**
 * The Yandex Direct campaign export (web interface and Direct Commander, CSV or XLSX).
 *
 * A row is one phrase and/or one ad of a group. «Доп. объявление группы» is `-` on a group's first row and
 * `+` on rows that add to it; a `+` row may leave the campaign and group cells blank. Groups are told apart
 * by «ID группы», else by «Номер группы» (local to the file), else by «Название группы». Ads repeated on
 * every phrase row of a group are kept once. Several values in one cell are joined with `||`.
 * The newest template repeats «Заголовок 1»/«Заголовок 2»: the first pair belongs to the classic ad, the
 * second to the combinatorial block (Заголовок 1…7, Текст 1…3).
 * In the XLSX the header sits below a campaign block («Тип кампании», «№ заказа», «Валюта»,
 * «Минус-фразы на кампанию», …), read here as label/value pairs.
 */
import type { Ad, AdKind, Campaign, Keyword, Sitelink } from '../../../contract/campaigns.js';
import { pushUnique, type StructureBuilder } from './builder.js';
import { normalizeTitle, type Dictionary } from './columns.js';
import { importerMessages } from './messages.js';
import { moderationOfCell, servingStatusOfCell } from './moderation-columns.js';
import { parseNegativeList, parseYandexPhrase } from './phrases.js';
import { readNumber, type SheetContext } from './sheet.js';
import type { Row } from './types.js';
import { clean, parseNumber, splitMulti } from './values.js';

export const yandexDirectColumns = {
  extraAd: ['Доп. объявление группы', 'Доп. объявление'],
  mobile: ['Мобильное объявление'],
  adType: ['Тип объявления'],
  groupId: ['ID группы'],
  groupName: ['Название группы'],
  groupNumber: ['Номер группы'],
  campaignType: ['Тип кампании'],
  campaignId: ['ID кампании', '№ заказа', 'Номер заказа', 'Номер кампании'],
  campaignName: ['Название кампании', 'Кампания'],
  currency: ['Валюта'],
  dailyBudget: ['Дневной бюджет'],
  keywordId: ['ID фразы'],
  phrase: ['Фраза (с минус-словами)', 'Фраза', 'Ключевая фраза'],
  adId: ['ID объявления'],
  title1: ['Заголовок 1', 'Заголовок'],
  title2: ['Заголовок 2'],
  title3: ['Заголовок 3'],
  title4: ['Заголовок 4'],
  title5: ['Заголовок 5'],
  title6: ['Заголовок 6'],
  title7: ['Заголовок 7'],
  text: ['Текст'],
  text1: ['Текст 1'],
  text2: ['Текст 2'],
  text3: ['Текст 3'],
  url: ['Ссылка'],
  displayUrl: ['Отображаемая ссылка'],
  region: ['Регион', 'Регионы показа'],
  autoBid: ['Автоставка'],
  bid: ['Ставка'],
  networkBid: ['Ставка в сетях'],
  adStatus: ['Статус объявления'],
  keywordStatus: ['Статус фразы'],
  groupStatus: ['Статус группы'],
  adModeration: ['Статус модерации объявления', 'Модерация объявления', 'Статус модерации'],
  moderationReason: ['Причина отклонения', 'Причины отклонения', 'Причина отклонения объявления'],
  sitelinksModeration: ['Статус модерации быстрых ссылок', 'Модерация быстрых ссылок'],
  imageModeration: ['Статус модерации изображения', 'Модерация изображения'],
  displayUrlModeration: ['Статус модерации отображаемой ссылки', 'Модерация отображаемой ссылки'],
  sitelinkTitles: ['Заголовки быстрых ссылок', 'Быстрые ссылки (заголовки)'],
  sitelinkDescriptions: ['Описания быстрых ссылок', 'Быстрые ссылки (описания)'],
  sitelinkUrls: ['Адреса быстрых ссылок', 'Быстрые ссылки (адреса)'],
  param1: ['Параметр 1'],
  param2: ['Параметр 2'],
  labels: ['Метки'],
  image: ['Изображение'],
  creative: ['Креатив'],
  callouts: ['Уточнения'],
  groupNegatives: ['Минус-фразы на группу', 'Минус-слова на группу', 'Минус-фразы'],
  campaignNegatives: ['Минус-фразы на кампанию', 'Минус-слова на кампанию'],
  ageLimit: ['Возрастные ограничения'],
} as const satisfies Dictionary<string>;

export type YandexDirectField = keyof typeof yandexDirectColumns;

/** Titles only this export uses: enough of them on one row means it is the header. */
const DISTINCTIVE: YandexDirectField[] = [
  'extraAd', 'groupName', 'groupId', 'groupNumber', 'keywordId', 'adId', 'sitelinkTitles', 'sitelinkUrls', 'groupNegatives', 'campaignNegatives', 'mobile', 'adType',
];

export function isYandexDirectHeader(columns: { has(field: YandexDirectField): boolean; size: number }): boolean {
  const distinctive = DISTINCTIVE.filter((field) => columns.has(field)).length;
  const content = columns.has('phrase') || columns.has('title1') || columns.has('text') || columns.has('text1');
  return content && distinctive >= 2 && columns.size >= 4;
}

/** Required columns, named for the message when one is missing. */
export function missingYandexDirectColumns(columns: { has(field: YandexDirectField): boolean }): string[] {
  const missing: string[] = [];
  if (!columns.has('groupName') && !columns.has('groupId') && !columns.has('groupNumber')) {
    missing.push('«Название группы» (или «ID группы», «Номер группы»)');
  }
  if (!columns.has('phrase') && !columns.has('title1') && !columns.has('text') && !columns.has('text1')) {
    missing.push('«Фраза (с минус-словами)» (или «Заголовок 1», «Текст»)');
  }
  return missing;
}

interface CampaignBlock {
  name?: string;
  id?: string;
  type?: string;
  currency?: string;
  dailyBudget?: number;
  negatives: string[];
}

const BLOCK_LABELS: Record<string, keyof Omit<CampaignBlock, 'negatives'> | 'negatives'> = {};
for (const [field, titles] of Object.entries({
  name: ['Название кампании', 'Кампания'],
  id: ['ID кампании', '№ заказа', 'Номер заказа', 'Номер кампании'],
  type: ['Тип кампании'],
  currency: ['Валюта'],
  dailyBudget: ['Дневной бюджет', 'Бюджет'],
  negatives: ['Минус-фразы на кампанию', 'Минус-слова на кампанию'],
})) {
  for (const title of titles) BLOCK_LABELS[normalizeTitle(title)] = field as keyof CampaignBlock;
}

/** The campaign block above the header: `label | value` pairs, `label: value` cells, or a titles row over a values row. */
export function readCampaignBlock(preamble: Row[]): CampaignBlock {
  const block: CampaignBlock = { negatives: [] };
  const set = (field: keyof CampaignBlock, value: string): void => {
    const text = clean(value);
    if (!text) return;
    if (field === 'negatives') pushUnique(block.negatives, parseNegativeList(value));
    else if (field === 'dailyBudget') {
      const parsed = parseNumber(text);
      if (parsed?.ok) block.dailyBudget = parsed.value;
    } else block[field] = text;
  };
  for (let r = 0; r < preamble.length; r++) {
    const cells = preamble[r].cells;
    const labelled = cells.map((cell) => BLOCK_LABELS[normalizeTitle(cell)]);
    const labelCount = labelled.filter(Boolean).length;
    if (labelCount >= 2 && preamble[r + 1] && preamble[r + 1].number === preamble[r].number + 1) {
      // Titles row with values right below.
      const values = preamble[r + 1].cells;
      labelled.forEach((field, index) => field && set(field, values[index] ?? ''));
      r += 1;
      continue;
    }
    for (let index = 0; index < cells.length; index++) {
      const cell = cells[index];
      const field = labelled[index];
      if (field) {
        const value = cells.slice(index + 1).find((candidate) => candidate.trim() !== '');
        if (value !== undefined) set(field, value);
        break;
      }
      const colon = cell.indexOf(':');
      if (colon > 0) {
        const inline = BLOCK_LABELS[normalizeTitle(cell.slice(0, colon))];
        if (inline) {
          set(inline, cell.slice(colon + 1));
          break;
        }
      }
    }
  }
  return block;
}

export function importYandexDirect(context: SheetContext<YandexDirectField>, builder: StructureBuilder): void {
  const { columns, log } = context;
  const block = readCampaignBlock(context.preamble);
  const comboHeadlineColumns = columns.count('title1') > 1 || columns.has('title3');
  let currentCampaign: Campaign | undefined;
  let currentGroup: ReturnType<StructureBuilder['group']> | undefined;
  let rowsSeen = 0;
  let lastCampaignName = '';
  let lastCampaignId = '';
  let lastGroup: [string, string, string] = ['', '', ''];

  const blockApplied = new Set<Campaign>();
  const applyBlock = (campaign: Campaign): void => {
    if (blockApplied.has(campaign)) return;
    blockApplied.add(campaign);
    if (block.type && !campaign.type) campaign.type = block.type.toLowerCase();
    if (block.currency && !campaign.currency) campaign.currency = block.currency;
    if (block.dailyBudget !== undefined && campaign.dailyBudget === undefined) campaign.dailyBudget = block.dailyBudget;
    pushUnique(campaign.negativeKeywords, block.negatives);
  };

  for (const row of context.rows) {
    rowsSeen += 1;
    const marker = columns.get(row, 'extraAd');
    const campaignName = clean(columns.get(row, 'campaignName'));
    const campaignId = columns.get(row, 'campaignId');
    const groupId = columns.get(row, 'groupId');
    const groupNumber = columns.get(row, 'groupNumber');
    const groupName = clean(columns.get(row, 'groupName'));
    const continuation = marker === '+' && !groupId && !groupNumber && !groupName;
    if (continuation) {
      // A further ad of the group above: with no group above (or one of another campaign) it belongs nowhere,
      // and is skipped before it could leave an empty campaign behind.
      const namesAnotherCampaign = (campaignName !== '' && campaignName !== lastCampaignName) || (campaignId !== '' && campaignId !== lastCampaignId);
      if (!currentGroup || namesAnotherCampaign) {
        log.warn(importerMessages.plusWithoutGroup, row.number, columns.title('extraAd'));
        continue;
      }
    }

    let campaign: Campaign;
    // Consecutive rows of one campaign and group are the rule: skip the lookups then.
    if ((campaignName || campaignId) && currentCampaign && campaignName === lastCampaignName && campaignId === lastCampaignId) campaign = currentCampaign;
    else if (campaignName || campaignId) campaign = builder.campaign({ name: campaignName || undefined, id: campaignId || undefined });
    else if (continuation && currentCampaign) campaign = currentCampaign;
    else campaign = builder.campaign({ name: block.name ?? context.fileBase, id: block.id });
    applyBlock(campaign);

    let group;
    if (continuation) {
      if (!currentGroup || currentCampaign !== campaign) {
        log.warn(importerMessages.plusWithoutGroup, row.number, columns.title('extraAd'));
        continue;
      }
      group = currentGroup;
    } else if (currentGroup && currentCampaign === campaign && groupId === lastGroup[0] && groupNumber === lastGroup[1] && groupName === lastGroup[2]) {
      group = currentGroup;
    } else if (groupId || groupNumber || groupName) {
      group = builder.group(campaign, { id: groupId || undefined, number: groupNumber || undefined, scope: context.file, name: groupName || undefined });
    } else {
      log.warn(importerMessages.noGroup, row.number, columns.title(columns.has('groupName') ? 'groupName' : columns.has('groupId') ? 'groupId' : 'groupNumber'));
      continue;
    }
    currentCampaign = campaign;
    currentGroup = group;
    if (!continuation) {
      lastCampaignName = campaignName;
      lastCampaignId = campaignId;
      lastGroup = [groupId, groupNumber, groupName];
    }

    readCampaignAndGroupCells(context, row, campaign, group);
    const keyword = readKeyword(context, row);
    if (keyword) builder.addKeyword(campaign, group, keyword);

    const ad = readAd(context, row, comboHeadlineColumns);
    if (ad) builder.addAd(campaign, group, ad);
  }
  if (rowsSeen === 0) log.error(importerMessages.noDataRows);
}

/** The row's campaign cells (type, currency, budget, negatives) and group cells (negatives, region, serving status), where set. */
function readCampaignAndGroupCells(context: SheetContext<YandexDirectField>, row: Row, campaign: Campaign, group: ReturnType<StructureBuilder['group']>): void {
  const { columns } = context;
  const campaignType = clean(columns.get(row, 'campaignType'));
  if (campaignType && !campaign.type) campaign.type = campaignType.toLowerCase();
  const currency = clean(columns.get(row, 'currency'));
  if (currency && !campaign.currency) campaign.currency = currency;
  if (columns.has('dailyBudget') && campaign.dailyBudget === undefined) {
    const budget = readNumber(context, row, 'dailyBudget');
    if (budget !== undefined) campaign.dailyBudget = budget;
  }
  const campaignNegatives = columns.get(row, 'campaignNegatives');
  if (campaignNegatives) pushUnique(campaign.negativeKeywords, parseNegativeList(campaignNegatives));
  const groupNegatives = columns.get(row, 'groupNegatives');
  if (groupNegatives) pushUnique(group.negativeKeywords, parseNegativeList(groupNegatives));
  const region = clean(columns.get(row, 'region'));
  if (region && !group.region) group.region = region;
  const groupServing = servingStatusOfCell(columns.get(row, 'groupStatus'));
  if (groupServing) group.servingStatus = groupServing;
}

/** The row's keyword, when it has a phrase (an empty one is said and skipped). */
function readKeyword(context: SheetContext<YandexDirectField>, row: Row): Keyword | null {
  const { columns, log } = context;
  const phraseCell = columns.get(row, 'phrase');
  if (!phraseCell) return null;
  const parsed = parseYandexPhrase(phraseCell);
  if (!parsed.phrase) {
    log.warn(importerMessages.emptyPhrase, row.number, columns.title('phrase'));
    return null;
  }
  const keyword: Keyword = { phrase: parsed.phrase, negativeWords: parsed.negativeWords, matchType: parsed.matchType };
  const keywordId = columns.get(row, 'keywordId');
  if (keywordId) keyword.externalId = keywordId;
  if (parsed.isAutotargeting) keyword.isAutotargeting = true;
  const bid = readNumber(context, row, 'bid');
  if (bid !== undefined) keyword.bid = bid;
  const networkBid = readNumber(context, row, 'networkBid');
  if (networkBid !== undefined) keyword.networkBid = networkBid;
  const status = clean(columns.get(row, 'keywordStatus'));
  if (status) keyword.status = status;
  const servingStatus = servingStatusOfCell(status);
  if (servingStatus) keyword.servingStatus = servingStatus;
  const moderation = servingStatus ? undefined : moderationOfCell(status);
  if (moderation) keyword.moderation = moderation;
  return keyword;
}

function readAd(context: SheetContext<YandexDirectField>, row: Row, hasComboBlock: boolean): Ad | null {
  const { columns } = context;
  const repeatedPair = columns.count('title1') > 1;
  const classicHeadlines = [columns.get(row, 'title1', 0), columns.get(row, 'title2', 0)].map(clean).filter(Boolean);
  const classicText = clean(columns.get(row, 'text'));
  // The combinatorial block: the second «Заголовок 1/2» of the newest template, then «Заголовок 3…7».
  const comboHeadlines = hasComboBlock
    ? [
        repeatedPair ? columns.get(row, 'title1', 1) : '',
        columns.count('title2') > 1 ? columns.get(row, 'title2', 1) : '',
        ...(['title3', 'title4', 'title5', 'title6', 'title7'] as const).map((field) => columns.get(row, field)),
      ]
        .map(clean)
        .filter(Boolean)
    : [];
  const comboTexts = (['text1', 'text2', 'text3'] as const).map((field) => clean(columns.get(row, field))).filter(Boolean);
  const image = clean(columns.get(row, 'image'));
  const creative = clean(columns.get(row, 'creative'));
  if (classicHeadlines.length === 0 && !classicText && comboHeadlines.length === 0 && comboTexts.length === 0 && !image && !creative) return null;

  const isCombinatorial = comboHeadlines.length > 0;
  let headlines = classicHeadlines;
  let texts = classicText ? [classicText] : [];
  if (isCombinatorial) {
    // Without a repeated pair, «Заголовок 1/2» open the list that «Заголовок 3…7» continue.
    headlines = repeatedPair ? comboHeadlines : [...classicHeadlines, ...comboHeadlines];
    if (comboTexts.length > 0) texts = comboTexts;
  } else if (texts.length === 0) {
    texts = comboTexts;
  }
  const ad: Ad = {
    kind: adKind(clean(columns.get(row, 'adType')), isCombinatorial, headlines.length > 0, Boolean(image || creative)),
    headlines,
    texts,
    sitelinks: readSitelinks(context, row),
    callouts: splitMulti(columns.get(row, 'callouts')).filter(Boolean),
  };
  const adId = columns.get(row, 'adId');
  if (adId) ad.externalId = adId;
  const url = clean(columns.get(row, 'url'));
  if (url) ad.finalUrl = url;
  const displayUrl = clean(columns.get(row, 'displayUrl'));
  if (displayUrl) ad.displayUrl = displayUrl;
  if (image) ad.image = image;
  const mobile = clean(columns.get(row, 'mobile')).toLowerCase();
  if (mobile === '+' || mobile === 'да' || mobile === 'yes' || mobile === 'true') ad.isMobile = true;
  const status = clean(columns.get(row, 'adStatus'));
  if (status) ad.status = status;
  readModeration(context, row, ad);
  return ad;
}

/** The ad's moderation: its own column, else the words of «Статус объявления»; its parts' columns when present. */
function readModeration({ columns }: SheetContext<YandexDirectField>, row: Row, ad: Ad): void {
  const reason = columns.get(row, 'moderationReason');
  const moderation = moderationOfCell(columns.get(row, 'adModeration'), reason) ?? moderationOfCell(columns.get(row, 'adStatus'), reason);
  if (moderation) ad.moderation = moderation;
  const sitelinks = moderationOfCell(columns.get(row, 'sitelinksModeration'));
  if (sitelinks) ad.sitelinksModeration = sitelinks;
  const image = moderationOfCell(columns.get(row, 'imageModeration'));
  if (image) ad.imageModeration = image;
  const displayUrl = moderationOfCell(columns.get(row, 'displayUrlModeration'));
  if (displayUrl) ad.displayUrlModeration = displayUrl;
}

function adKind(type: string, combinatorial: boolean, hasHeadlines: boolean, hasImage: boolean): AdKind {
  const lower = type.toLowerCase();
  if (combinatorial || lower.includes('комбинатор')) return 'combinatorial';
  if (lower.includes('графическ') && !lower.includes('текстово')) return 'image';
  if (lower.includes('текст')) return 'text';
  if (!hasHeadlines && hasImage) return 'image';
  if (lower && !hasHeadlines) return 'other';
  return 'text';
}

function readSitelinks(context: SheetContext<YandexDirectField>, row: Row): Sitelink[] {
  const { columns } = context;
  const titles = splitMulti(columns.get(row, 'sitelinkTitles'));
  if (titles.length === 0) return [];
  const descriptions = splitMulti(columns.get(row, 'sitelinkDescriptions'));
  const urls = splitMulti(columns.get(row, 'sitelinkUrls'));
  const sitelinks: Sitelink[] = [];
  titles.forEach((title, index) => {
    if (!title) return;
    const sitelink: Sitelink = { title };
    if (descriptions[index]) sitelink.description = descriptions[index];
    if (urls[index]) sitelink.url = urls[index];
    sitelinks.push(sitelink);
  });
  return sitelinks;
}
