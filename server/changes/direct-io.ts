/**
 * Reading and writing the objects of change items through the Direct API: the current values of a kind's
 * objects (batched by the `get` limits) and one `update` call of a batch (per-object results back).
 */
import type { ChangeKind, DirectValues } from '../../contract/changes.js';
import type { DirectActionResult, DirectClient } from '../direct/api/client.js';
import { batches, KIND_API } from '../engines/changes/plan.js';

interface ApiObject {
  Id: number;
  NegativeKeywords?: { Items?: string[] } | null;
  Keyword?: string;
  State?: string;
  TextAd?: Record<string, string | null> | null;
}

function valuesOf(kind: ChangeKind, object: ApiObject): DirectValues {
  if (kind === 'campaign_negatives' || kind === 'group_negatives') return { NegativeKeywords: object.NegativeKeywords?.Items ?? [] };
  if (kind === 'keyword_phrase') return { Keyword: object.Keyword ?? '' };
  if (kind === 'keyword_state') return { State: object.State ?? null };
  const textAd = object.TextAd ?? {};
  return { Title: textAd.Title ?? null, Title2: textAd.Title2 ?? null, Text: textAd.Text ?? null, Href: textAd.Href ?? null, DisplayUrlPath: textAd.DisplayUrlPath ?? null };
}

/** The objects' current values by id; an id Direct no longer returns (deleted, archived) is absent. */
export async function readCurrent(client: DirectClient, kind: ChangeKind, ids: readonly string[]): Promise<Map<string, DirectValues>> {
  const api = KIND_API[kind];
  const found = new Map<string, DirectValues>();
  for (const piece of batches(ids, api.perGet)) {
    const objects = await client.get<ApiObject>(api.service, { SelectionCriteria: { Ids: piece.map(Number) }, ...api.getFields });
    for (const object of objects) found.set(String(object.Id), valuesOf(kind, object));
  }
  return found;
}

/** One object of an update request carrying `values` (an empty negative list is written as null: cleared). */
function updateObject(kind: ChangeKind, id: string, values: DirectValues): Record<string, unknown> {
  if (kind === 'campaign_negatives' || kind === 'group_negatives') {
    const list = Array.isArray(values.NegativeKeywords) ? values.NegativeKeywords : [];
    return { Id: Number(id), NegativeKeywords: list.length > 0 ? { Items: list } : null };
  }
  if (kind === 'keyword_phrase') return { Id: Number(id), Keyword: values.Keyword };
  return { Id: Number(id), TextAd: values };
}

/** Writes one batch (at most the method's objects per call); the results come back in the batch's order. */
export async function writeBatch(client: DirectClient, kind: ChangeKind, writes: readonly { id: string; values: DirectValues }[]): Promise<DirectActionResult[]> {
  if (kind === 'keyword_state') return writeStates(client, writes);
  const api = KIND_API[kind];
  return client.write(api.service, 'update', { [api.objects]: writes.map((write) => updateObject(kind, write.id, write.values)) });
}

/** Keywords paused (`keywords.suspend`) or resumed (`keywords.resume`, an undo), the results put back in the batch's order. */
async function writeStates(client: DirectClient, writes: readonly { id: string; values: DirectValues }[]): Promise<DirectActionResult[]> {
  const results: DirectActionResult[] = new Array<DirectActionResult>(writes.length);
  for (const method of ['suspend', 'resume'] as const) {
    const positions = writes.map((write, i) => ((write.values.State === 'SUSPENDED') === (method === 'suspend') ? i : -1)).filter((i) => i >= 0);
    if (positions.length === 0) continue;
    const answers = await client.write('keywords', method, { SelectionCriteria: { Ids: positions.map((i) => Number(writes[i]!.id)) } });
    positions.forEach((position, n) => (results[position] = answers[n]!));
  }
  return results;
}

/** Yandex's words for a failed object («Code: Message. Details»), or null when it succeeded. */
export function errorText(result: DirectActionResult | undefined): string | null {
  if (!result) return 'Директ не вернул результат для объекта';
  if (!result.Errors || result.Errors.length === 0) return null;
  return result.Errors.map((error) => [error.Message, error.Details].filter(Boolean).join('. ')).join('; ');
}
