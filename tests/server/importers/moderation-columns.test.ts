/**
 * Moderation and serving status from a Direct export (issue 22): the interface's words in «Статус
 * объявления», «Статус фразы», «Статус группы», and the optional moderation columns with Yandex's reason,
 * read as the API's values, so the audit says the same of a file as of an API import.
 */
import { describe, expect, it } from 'vitest';
import { importCampaignFiles } from '../../../server/projects/importers/index.js';
import { analyse } from '../analysis-engine/helpers.js';
import { campaignNamed, dataOf, groupNamed, importFixtures, textFile } from './helpers.js';

const HEADER = [
  'Доп. объявление группы', 'Название кампании', 'ID группы', 'Название группы', 'Статус группы', 'Фраза (с минус-словами)', 'Статус фразы', 'ID объявления', 'Заголовок 1', 'Текст',
  'Статус объявления', 'Причина отклонения', 'Статус модерации быстрых ссылок', 'Статус модерации изображения', 'Изображение',
];
const tsv = (header: string[], rows: string[][]) => [header, ...rows].map((row) => row.join('\t')).join('\n');

const rows = [
  ['-', 'Окна', '501', 'Окна ПВХ', '', 'окна пвх', 'Активна', '7101', 'Окна ПВХ в Перми', 'Замер бесплатно', 'Отклонено', 'Превосходная степень без подтверждения', '', '', ''],
  ['+', 'Окна', '501', 'Окна ПВХ', '', '', '', '7102', 'Окна ПВХ с установкой', 'Гарантия 10 лет', 'Идут показы', '', 'Отклонены', 'Отклонено', 'okna.jpg'],
  ['-', 'Окна', '502', 'Подоконники', 'Мало показов', 'подоконники пвх белые', 'Мало показов', '7201', 'Подоконники ПВХ', 'Любой размер', 'Черновик', '', '', '', ''],
  ['-', 'Окна', '502', 'Подоконники', 'Мало показов', 'подоконник купить', 'Отклонена', '', '', '', '', '', '', '', ''],
];

describe('moderation columns of the Direct export', () => {
  it('reads the statuses and the reason as the model\'s moderation and serving status', async () => {
    const result = await importCampaignFiles([textFile('direct.tsv', tsv(HEADER, rows))]);
    expect(result.problems).toEqual([]);
    const campaign = campaignNamed(dataOf(result), 'Окна');
    const okna = groupNamed(campaign, 'Окна ПВХ');
    expect(okna.ads.map((ad) => [ad.externalId, ad.moderation, ad.sitelinksModeration, ad.imageModeration])).toEqual([
      ['7101', { status: 'rejected', clarification: 'Превосходная степень без подтверждения' }, undefined, undefined],
      ['7102', { status: 'accepted' }, { status: 'rejected' }, { status: 'rejected' }],
    ]);
    const sills = groupNamed(campaign, 'Подоконники');
    expect(sills.servingStatus).toBe('rarely_served');
    expect(sills.ads[0]!.moderation).toEqual({ status: 'draft' });
    expect(sills.keywords.map((k) => [k.phrase, k.servingStatus, k.moderation])).toEqual([
      ['подоконники пвх белые', 'rarely_served', undefined],
      ['подоконник купить', undefined, { status: 'rejected' }],
    ]);
    // «Активна» says the keyword is on, not what moderation decided: no moderation.
    expect(okna.keywords[0]!.moderation).toBeUndefined();
  });

  it('the audit of the file names the rejection with its reason, the rejected sitelinks and image, the draft and «мало показов»', async () => {
    const { scoring } = await analyse(dataOf(await importCampaignFiles([textFile('direct.tsv', tsv(HEADER, rows))])));
    const of = (checkId: string) => scoring.findings.filter((f) => f.checkId === checkId).map((f) => f.target.label ?? f.target.groupName);
    expect(of('ad.moderation_rejected')).toEqual(['Окна ПВХ в Перми']);
    expect(scoring.findings.find((f) => f.checkId === 'ad.moderation_rejected')!.explanation).toBe(
      'Объявление «Окна ПВХ в Перми» (группа «Окна ПВХ») отклонено модерацией и не показывается. Причина, которую назвал Яндекс: «Превосходная степень без подтверждения».',
    );
    expect(of('ad.sitelinks_rejected')).toEqual(['Окна ПВХ с установкой']);
    expect(of('ad.image_rejected')).toEqual(['Окна ПВХ с установкой']);
    expect(of('ad.draft_not_sent')).toEqual(['Подоконники ПВХ']);
    expect(of('group.rarely_served')).toEqual(['Подоконники']);
    expect(of('keyword.rejected')).toEqual(['подоконник купить']);
    // The draft is the group's only ad: the group shows nothing.
    expect(of('group.no_active_ads')).toEqual(['Подоконники']);
  });

  it('the export fixture\'s image ad left as «Черновик» is a draft never sent, named by its image', async () => {
    const { scoring } = await analyse(dataOf(await importFixtures(['direct-export-utf8.tsv'])));
    expect(scoring.findings.filter((f) => f.checkId === 'ad.draft_not_sent').map((f) => f.explanation)).toEqual([
      'Графическое объявление «divan-krovat_1080x607.jpg» (группа «Диваны-кровати») — черновик в работающей кампании: его не отправили на модерацию, и оно не показывается.',
    ]);
  });

  it('a file without status columns gets none of these findings', async () => {
    const bare = HEADER.slice(0, 4).concat(['Фраза (с минус-словами)', 'ID объявления', 'Заголовок 1', 'Текст']);
    const bareRows = rows.map((row) => [...row.slice(0, 4), row[5]!, row[7]!, row[8]!, row[9]!]);
    const { scoring } = await analyse(dataOf(await importCampaignFiles([textFile('direct.tsv', tsv(bare, bareRows))])));
    const moderation = ['ad.moderation_rejected', 'ad.sitelinks_rejected', 'ad.image_rejected', 'ad.draft_not_sent', 'group.no_active_ads', 'campaign.no_active_groups', 'group.rarely_served', 'keyword.rarely_served', 'keyword.rejected', 'ad.no_image_networks'];
    expect(scoring.findings.filter((f) => moderation.includes(f.checkId)).map((f) => f.checkId)).toEqual([]);
  });
});
