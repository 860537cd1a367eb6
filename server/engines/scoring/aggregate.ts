/**
 * Findings as an auditor writes them. A check that fires on several keywords, ads or groups of one
 * campaign is reported once, at the campaign: «Нет UTM-меток: 1 000 объявлений», with the money of all
 * of them, the worst examples in the explanation and every entity as an item (worst, most money,
 * first). Where it fires on one entity of the campaign only, the finding stays about that entity.
 *
 * Per campaign, not per group: a check that fires in most groups (no UTM tags, no callouts, duplicates)
 * would still be one card per group, thousands on a big account; each item names its group, so the
 * list can still be read group by group.
 *
 * Not aggregated: the per-keyword money decisions («Остановить фразу», «Снизить ставку»): each is a
 * decision about one phrase with its own money, CPA and threshold, and they are few (a keyword needs
 * `minClicksForKeywordAction` clicks and a cost over the CPA rule); and the campaign-level checks.
 *
 * Scores are unchanged by the aggregation: an aggregated finding takes its weight from each entity it
 * covers (`penaltyOnItems`), exactly as the separate findings did (see rollup.ts).
 */
import type { EntityRef, Evidence, Finding, FindingItem } from '../../../contract/analysis-results.js';
import { formatCount, formatRub, pluralRu } from '../../../contract/format.js';

type Noun = 'keyword' | 'ad' | 'group';

const nounForms: Record<Noun, [string, string, string]> = {
  keyword: ['фраза', 'фразы', 'фраз'],
  ad: ['объявление', 'объявления', 'объявлений'],
  group: ['группа', 'группы', 'групп'],
};

/** «Фраз: 12» — the label of an aggregated finding's count. */
const countLabels: Record<Noun, string> = { keyword: 'Фраз', ad: 'Объявлений', group: 'Групп' };

interface AggregationRule {
  noun: Noun;
  /** What the entities have in common, after «В кампании «…» 12 фраз». */
  says: string;
  /** The fix for all of them, when the per-entity fix names one entity. */
  fix?: string;
}

const lengthFix =
  'Сократите поля до лимита площадки: для каждого объявления предложено сокращение (его можно принять или поправить), а где обрезать без потери смысла нельзя — «переписать вручную».';

/** Checks reported once per campaign when they fire on several of its entities. */
export const aggregationRules: Readonly<Record<string, AggregationRule>> = {
  'keyword.too_broad': { noun: 'keyword', says: 'из одного слова в широком соответствии: по ним показываются любые запросы с этим словом' },
  'keyword.duplicate': { noun: 'keyword', says: 'повторяют другие фразы на тех же площадках и в тех же регионах: копии спорят за одни и те же запросы', fix: 'Удалите эти копии: у каждой указано, какую фразу оставить (с лучшими результатами), — перенесите в неё минус-слова копии.' },
  'keyword.conflicting_operators': { noun: 'keyword', says: 'с ошибкой в операторах или с минус-словом, которое противоречит самой фразе' },
  'keyword.non_commercial': { noun: 'keyword', says: 'с некоммерческим интентом (бесплатно, скачать, своими руками, вакансии, б/у…): по ним приходят не покупатели', fix: 'Остановите эти фразы; их нецелевые слова, которых ещё нет в минус-словах кампании, добавьте туда (где слово уже есть, это сказано у фразы).' },
  'group.catch_all': { noun: 'group', says: 'с фразами трёх и более несвязанных тем', fix: 'Разделите каждую группу по темам и напишите объявление для каждой темы.' },
  'keyword.group_intersection': { noun: 'keyword', says: '— у каждой есть более точные фразы в других группах, чьи запросы она перехватывает' },
  'keyword.action_raise_bid': { noun: 'keyword', says: 'с ценой конверсии заметно ниже ориентира (цели проекта или CPA аккаунта на той же площадке): по ним можно получить больше конверсий', fix: 'Повышайте ставки по этим фразам шагами не больше 20 % и через 1–2 недели сверяйте цену конверсии: у каждой фразы указана цена клика, при которой конверсия стоит ориентир.' },
  'stats.low_ctr': { noun: 'keyword', says: 'с CTR на поиске ниже порога: объявления не отвечают на запросы' },
  'stats.expensive_clicks': { noun: 'keyword', says: 'с ценой клика намного выше медианы аккаунта на той же площадке', fix: 'Снизьте ставки по этим фразам или проверьте, окупаются ли они.' },
  'ad.headline_too_long': { noun: 'ad', says: 'с заголовком длиннее лимита площадки', fix: lengthFix },
  'ad.text_too_long': { noun: 'ad', says: 'с текстом длиннее лимита площадки', fix: lengthFix },
  'ad.word_too_long': { noun: 'ad', says: 'со словом длиннее лимита площадки', fix: 'Замените длинные слова более короткими или разбейте их.' },
  'ad.display_url_too_long': { noun: 'ad', says: 'с отображаемой ссылкой (путём) длиннее лимита', fix: lengthFix },
  'ad.sitelink_too_long': { noun: 'ad', says: 'с быстрой ссылкой длиннее лимита', fix: lengthFix },
  'ad.callout_too_long': { noun: 'ad', says: 'с уточнением длиннее лимита', fix: lengthFix },
  'ad.rsa_asset_count': { noun: 'ad', says: 'с неверным числом заголовков или описаний' },
  'ad.keyword_not_in_headline': { noun: 'ad', says: 'без единого слова ключевых фраз своей группы в первом заголовке', fix: 'Впишите в первый заголовок каждого объявления основную фразу его группы.' },
  'ad.no_sitelinks': { noun: 'ad', says: 'без быстрых ссылок' },
  'ad.no_callouts': { noun: 'ad', says: 'без уточнений' },
  'ad.no_display_url': { noun: 'ad', says: 'без отображаемой ссылки (пути)' },
  'ad.no_utm': { noun: 'ad', says: 'со ссылкой без UTM-меток', fix: 'Добавьте UTM-метки в ссылки: исправленная ссылка предложена для каждого объявления.' },
  'ad.same_text_many_groups': { noun: 'ad', says: 'с тем же текстом, что и в других группах' },
  'group.low_relevance': { noun: 'group', says: 'с объявлениями, в которых мало слов из ключевых фраз группы' },
  // moderation and serving (checks/moderation.ts, serving.ts, shared-negatives.ts); rejections stay one finding each: each has Yandex's own reason
  'ad.moderation_stuck': { noun: 'ad', says: 'на модерации и без единого показа за период', fix: 'Проверьте эти объявления в Директе: если они всё ещё «На модерации», напишите в поддержку; узнайте, не ждут ли они документов для своей тематики.' },
  'ad.draft_not_sent': { noun: 'ad', says: '— черновики, которые не отправили на модерацию: они не показываются', fix: 'Отправьте черновики на модерацию или удалите ненужные.' },
  'ad.no_image_networks': { noun: 'ad', says: 'без изображения, хотя кампания показывается в сетях', fix: 'Добавьте изображения к этим объявлениям (горизонтальное 16:9 от 1080×607 и квадратное от 450×450).' },
  'keyword.rarely_served': { noun: 'keyword', says: 'со статусом «Мало показов»: по ним почти нет запросов', fix: 'Сделайте эти фразы шире (уберите лишние слова и операторы) или объедините их с близкими фразами групп.' },
  'keyword.rejected': { noun: 'keyword', says: 'отклонены модерацией и не показываются' },
  'negatives.shared_set_conflict': { noun: 'keyword', says: 'содержат минус-фразу из набора минус-фраз своей группы: набор и фраза говорят противоположное', fix: 'Для каждой фразы решите, нужны ли запросы с этим словом: если нет — остановите фразу, если нужны — уберите слово из набора или отключите набор у группы.' },
  'settings.geo_outside_home': { noun: 'group', says: 'показываются в регионах вне региона проекта', fix: 'Оставьте в регионах этих групп регион проекта или заведите для других регионов отдельные группы со своими объявлениями; у каждой группы указаны её лишние регионы.' },
  'settings.autotargeting_waste': { noun: 'group', says: 'с автотаргетингом, который тратит без отдачи', fix: 'Посмотрите запросы автотаргетинга этих групп в отчёте по поисковым запросам, добавьте нецелевые в минус-слова и оставьте в автотаргетинге только целевые запросы; где запросов с заявками нет — выключите его.' },
  'settings.geo_competing_groups': { noun: 'group', says: 'показываются по тем же фразам, что и группы с более узкими регионами, и перехватывают их показы', fix: 'Исключите из регионов этих групп регионы соответствующих региональных групп (минус-регионы): у каждой указаны общие фразы и регион.' },
  'settings.autotargeting_all_categories': { noun: 'group', says: 'с автотаргетингом на всех категориях запросов', fix: 'Оставьте в автотаргетинге этих групп целевые запросы; остальные категории включайте по одной, если отчёт по запросам покажет заявки.' },
};

/**
 * Does this finding take its weight from each of its items (the check fired on each of them), rather
 * than from its target? Findings whose items only list what the problem affects (a campaign without
 * negatives lists its exposed keywords; a campaign spending without conversions, its keywords) keep
 * their penalty on the campaign.
 */
export function penaltyOnItems(finding: Finding): boolean {
  return finding.items !== undefined && finding.checkId in aggregationRules;
}

/** How many of `noun` an aggregated finding covers, in Russian: «12 фраз». */
export function countOf(count: number, noun: Noun): string {
  return `${formatCount(count)} ${pluralRu(count, nounForms[noun])}`;
}

/** Names in the explanation of an aggregated finding. */
const EXAMPLES_IN_TEXT = 3;

const round2 = (value: number) => Math.round(value * 100) / 100;

/** «окна пвх» (группа «Окна»): how an item is named in a sentence. */
function itemName(target: EntityRef): string {
  if (target.level === 'group') return `«${target.groupName ?? target.label ?? target.key}»`;
  return `«${target.label || target.key}»${target.groupName ? ` (группа «${target.groupName}»)` : ''}`;
}

/** Items sorted worst first: most money, then the account's order (stable sort). */
export function sortItems(items: FindingItem[]): FindingItem[] {
  if (!items.some((item) => item.moneyPerMonth)) return items;
  return items.sort((a, b) => (b.moneyPerMonth ?? 0) - (a.moneyPerMonth ?? 0));
}

/** «Например: «а», «б», «в» и ещё 9.», money first when the items are priced. */
export function examplesSentence(items: readonly FindingItem[]): string {
  const priced = items.some((item) => (item.moneyPerMonth ?? 0) > 0);
  const named = items.slice(0, EXAMPLES_IN_TEXT).map((item) => `${itemName(item.target)}${priced && item.moneyPerMonth ? ` — ${formatRub(item.moneyPerMonth)} в месяц` : ''}`);
  const rest = items.length - named.length;
  return `${priced ? 'Больше всего денег' : 'Например'}: ${named.join(', ')}${rest > 0 ? ` и ещё ${formatCount(rest)}` : ''}.`;
}

/** Money of an aggregated finding: the sum of its items' (absent when none is priced). */
export function sumItemMoney(items: readonly FindingItem[]): { money?: number; moneyPerMonth?: number } {
  if (!items.some((item) => item.money !== undefined)) return {};
  let money = 0;
  let moneyPerMonth = 0;
  for (const item of items) {
    money += item.money ?? 0;
    moneyPerMonth += item.moneyPerMonth ?? 0;
  }
  return { money: round2(money), moneyPerMonth: round2(moneyPerMonth) };
}

/** One item per entity: several findings of a check on one ad (two fields over the limit) merge. */
function itemOf(entity: Finding | readonly Finding[]): FindingItem {
  if (!Array.isArray(entity)) {
    const finding = entity as Finding;
    const single: FindingItem = { target: finding.target, evidence: finding.evidence };
    if (finding.money !== undefined) {
      single.money = finding.money;
      single.moneyPerMonth = finding.moneyPerMonth;
    }
    if (finding.suggestionIds) single.suggestionIds = finding.suggestionIds;
    return single;
  }
  const findings = entity as readonly Finding[];
  const item: FindingItem = { target: findings[0].target, evidence: findings.flatMap((finding) => finding.evidence) };
  if (findings.some((finding) => finding.money !== undefined)) {
    item.money = round2(findings.reduce((sum, finding) => sum + (finding.money ?? 0), 0));
    item.moneyPerMonth = round2(findings.reduce((sum, finding) => sum + (finding.moneyPerMonth ?? 0), 0));
  }
  const suggestionIds = findings.flatMap((finding) => finding.suggestionIds ?? []);
  if (suggestionIds.length > 0) item.suggestionIds = suggestionIds;
  return item;
}

/**
 * The aggregated finding's evidence: how many entities, their money, and the worst item's own numbers
 * with the thresholds that fired («CTR на поиске у «окна»»), so the rule stays visible.
 */
function aggregatedEvidence(rule: AggregationRule, items: readonly FindingItem[], money: number | undefined): Evidence[] {
  const evidence: Evidence[] = [{ label: countLabels[rule.noun], value: items.length, unit: 'count' }];
  if (money !== undefined) evidence.push({ label: 'Сумма за период', value: money, unit: 'rub' });
  const worst = items[0];
  const worstName = worst.target.level === 'group' ? worst.target.groupName ?? worst.target.label : worst.target.label;
  for (const entry of worst.evidence) {
    evidence.push(entry.label === 'Период, дней' ? entry : { ...entry, label: `${entry.label} у «${worstName ?? worst.target.key}»` });
  }
  return evidence;
}

/**
 * Where the checks put their findings (`ScoringContext.findings`). A finding that can only end up as an
 * item of an aggregated finding — its check aggregates, and another entity of its campaign already has
 * one — is kept as the item needs it (target, evidence, money, suggestions): its explanation, fix and
 * id are dropped at once. A million-keyword account makes about a million per-entity findings, and their
 * texts were most of the scoring stage's memory. The first entity of each check and campaign keeps its
 * findings whole: with no second entity they pass through as they are, and the aggregated finding takes
 * its title, fix and period from them. `aggregateFindings(collector.list, …)` gives the same result as
 * from the full findings.
 */
export class FindingCollector {
  private collected: Finding[] = [];
  /** checkId → campaign → the key of the first entity it fired on. */
  private readonly firstEntity = new Map<string, Map<number, string>>();

  constructor(private readonly campaigns: ReadonlyMap<number, EntityRef>) {}

  /** The findings collected so far. */
  get list(): readonly Finding[] {
    return this.collected;
  }

  get length(): number {
    return this.collected.length;
  }

  /** The finding pushed last (as much of it as is kept: money and evidence always are). */
  last(): Finding | undefined {
    return this.collected[this.collected.length - 1];
  }

  push(finding: Finding): void {
    this.collected.push(this.kept(finding));
  }

  /** The findings collected, handed over once: the collector lets go of them (aggregation replaces most with items). */
  take(): Finding[] {
    const taken = this.collected;
    this.collected = [];
    return taken;
  }

  private kept(finding: Finding): Finding {
    const campaignIndex = finding.target.campaignIndex;
    if (!(finding.checkId in aggregationRules) || campaignIndex === undefined || !this.campaigns.has(campaignIndex)) return finding;
    let ofCheck = this.firstEntity.get(finding.checkId);
    if (!ofCheck) this.firstEntity.set(finding.checkId, (ofCheck = new Map()));
    const first = ofCheck.get(campaignIndex);
    if (first === undefined) ofCheck.set(campaignIndex, finding.target.key);
    if (first === undefined || first === finding.target.key) return finding;
    // What `itemOf` reads, nothing more.
    const item = { checkId: finding.checkId, target: finding.target, evidence: finding.evidence } as Finding;
    if (finding.money !== undefined) {
      item.money = finding.money;
      item.moneyPerMonth = finding.moneyPerMonth;
    }
    if (finding.suggestionIds) item.suggestionIds = finding.suggestionIds;
    return item;
  }
}

/**
 * Turns the checks' per-entity findings into the findings of the result: the checks of
 * `aggregationRules` that fired on two or more entities of a campaign become one finding at the
 * campaign; everything else passes through. Order: each aggregated finding takes the place of the first
 * finding it replaces (the engine sorts the result afterwards anyway).
 */
/** The findings of one aggregating check in one campaign: entity key → that entity's finding, or findings when it has several. */
class Bucket {
  readonly entities = new Map<string, Finding | Finding[]>();

  constructor(
    readonly checkId: string,
    readonly campaignIndex: number,
  ) {}
}

export function aggregateFindings(findings: readonly Finding[], campaigns: ReadonlyMap<number, EntityRef>): Finding[] {
  // checkId → campaign → its bucket (entities in insertion order = the account's order). Mostly one
  // finding per entity: no array for it.
  const buckets = new Map<string, Map<number, Bucket>>();
  const slots: (Finding | Bucket | null)[] = [];
  for (const finding of findings) {
    const rule = aggregationRules[finding.checkId];
    const campaignIndex = finding.target.campaignIndex;
    if (!rule || campaignIndex === undefined || !campaigns.has(campaignIndex)) {
      slots.push(finding);
      continue;
    }
    let ofCheck = buckets.get(finding.checkId);
    if (!ofCheck) buckets.set(finding.checkId, (ofCheck = new Map()));
    let bucket = ofCheck.get(campaignIndex);
    if (!bucket) {
      bucket = new Bucket(finding.checkId, campaignIndex);
      ofCheck.set(campaignIndex, bucket);
      slots.push(bucket);
    }
    const known = bucket.entities.get(finding.target.key);
    if (known === undefined) bucket.entities.set(finding.target.key, finding);
    else if (Array.isArray(known)) known.push(finding);
    else bucket.entities.set(finding.target.key, [known, finding]);
  }
  buckets.clear();

  const result: Finding[] = [];
  for (let index = 0; index < slots.length; index++) {
    const slot = slots[index]!;
    if (!(slot instanceof Bucket)) {
      result.push(slot);
      continue;
    }
    if (slot.entities.size < 2) {
      for (const entity of slot.entities.values()) result.push(...(Array.isArray(entity) ? entity : [entity]));
      continue;
    }
    result.push(aggregatedFinding(slot.checkId, campaigns.get(slot.campaignIndex)!, [...slot.entities.values()]));
    // Its findings are items now: let them go before the next bucket is turned into items.
    slots[index] = null;
  }
  return result;
}

function aggregatedFinding(checkId: string, campaign: EntityRef, perEntity: (Finding | Finding[])[]): Finding {
  const rule = aggregationRules[checkId];
  const first = Array.isArray(perEntity[0]) ? perEntity[0][0] : perEntity[0];
  const items = sortItems(perEntity.map(itemOf));
  const { money, moneyPerMonth } = sumItemMoney(items);
  const counted = countOf(items.length, rule.noun);
  const finding: Finding = {
    id: `${checkId}:${campaign.key}`,
    checkId,
    family: first.family,
    severity: first.severity,
    weight: first.weight,
    title: `${first.title}: ${counted}`,
    explanation: `В кампании «${campaign.campaignName ?? campaign.label}» ${counted} ${rule.says}.${moneyPerMonth ? ` Вместе ${formatRub(moneyPerMonth)} в месяц.` : ''} ${examplesSentence(items)}`,
    fix: rule.fix ?? first.fix,
    target: campaign,
    evidence: aggregatedEvidence(rule, items, money),
    count: items.length,
    items,
  };
  if (first.period) finding.period = first.period;
  if (money !== undefined) {
    finding.money = money;
    finding.moneyPerMonth = moneyPerMonth;
  }
  return finding;
}
