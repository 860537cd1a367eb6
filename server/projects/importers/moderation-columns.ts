/**
 * Moderation and serving status as a Direct export writes them (web interface XLS/XLSX, Commander CSV):
 * the interface's own Russian words in «Статус объявления», «Статус фразы», «Статус группы», and, where
 * the file has them, separate moderation columns with Yandex's reason («Причина отклонения»). They become
 * the model's API-like values (`Ad.moderation`, `Keyword.servingStatus`, …) so the checks read a file and
 * an API import alike. No official page spells the export's status cells out; the words are the
 * interface's statuses («Отклонено», «Черновик», «На модерации», «Мало показов»), matched by their stems
 * so «Отклонена», «Отклонено модерацией» and «Объявление отклонено» all count.
 */
import type { Moderation } from '../../../contract/campaigns.js';
import { clean } from './values.js';

const MODERATION_WORDS: [RegExp, string][] = [
  [/отклон|rejected/i, 'rejected'],
  [/черновик|draft/i, 'draft'],
  [/на модерации|moderation/i, 'moderation'],
  [/предварительно принят|preaccepted/i, 'preaccepted'],
  [/принят|допущен|идут показы|accepted/i, 'accepted'],
];

/** The moderation a status cell names (with the reason cell when there is one); none when it names none. */
export function moderationOfCell(status: string | undefined, reason?: string): Moderation | undefined {
  const text = clean(status);
  if (!text) return undefined;
  const found = MODERATION_WORDS.find(([pattern]) => pattern.test(text));
  if (!found) return undefined;
  const clarification = clean(reason);
  return { status: found[1], ...(clarification ? { clarification } : {}) };
}

/** «Мало показов» in a status cell: Direct's RARELY_SERVED. */
export function servingStatusOfCell(status: string | undefined): 'rarely_served' | undefined {
  return /мало показов|rarely.served/i.test(clean(status)) ? 'rarely_served' : undefined;
}
