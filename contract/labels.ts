/**
 * Russian names for the machine values the API carries (plans, the autotargeting row, HTML terms),
 * shared by every screen and by the server's texts, so no screen shows «free» or «---autotargeting».
 */
import type { Placement } from './campaigns.js';
import type { OrganizationRole } from './organizations.js';

/** Plan names the platform admin uses; an unknown name is shown as the admin wrote it. */
export const planLabels: Record<string, string> = {
  free: 'Бесплатный',
  trial: 'Пробный',
  basic: 'Базовый',
  start: 'Стартовый',
  standard: 'Стандартный',
  pro: 'Профессиональный',
  business: 'Бизнес',
  team: 'Командный',
  enterprise: 'Корпоративный',
};

export function planLabel(plan: string): string {
  return planLabels[plan.trim().toLowerCase()] ?? plan;
}

const organizationRoleLabels: Record<OrganizationRole, string> = {
  owner: 'Владелец',
  admin: 'Администратор',
  member: 'Участник',
};

/** A member's role in an organization, as the organization screens and the admin's audit log name it. */
export function roleLabel(role: string): string {
  return organizationRoleLabels[role as OrganizationRole] ?? role;
}

/** How Yandex Direct names its autotargeting row in exports and in the API. */
export const AUTOTARGETING_ROW = '---autotargeting';
export const AUTOTARGETING_LABEL = 'Автотаргетинг';

/** A keyword as a person reads it: the autotargeting row is «Автотаргетинг», not its technical name. */
export function keywordLabel(keyword: { phrase: string; isAutotargeting?: boolean }): string {
  return keyword.isAutotargeting || keyword.phrase.trim().toLowerCase() === AUTOTARGETING_ROW ? AUTOTARGETING_LABEL : keyword.phrase;
}

/**
 * Campaign types as the platforms' APIs name them (the Direct API import keeps `TEXT_CAMPAIGN` as
 * `text`); a type read from an export file is already Russian and is shown as it is (but Direct's text type, below).
 */
export const campaignTypeLabels: Record<string, string> = {
  text: 'Текстово-графическая',
  unified: 'Единая перфоманс-кампания',
  dynamic_text: 'Динамические объявления',
  smart: 'Смарт-баннеры',
  mobile_app: 'Реклама мобильных приложений',
  cpm_banner: 'Медийная',
  cpm_deals: 'Медийная (сделки)',
  cpm_frontpage: 'Медийная на главной',
  cpm_price: 'Медийная (прайсовая)',
  search: 'Поиск',
  display: 'Медийная сеть',
  shopping: 'Торговая',
  video: 'Видео',
  performance_max: 'Максимальная эффективность',
  demand_gen: 'Поиск клиентов (Demand Gen)',
};

/**
 * Direct's one type for text-and-image campaigns, on search and in networks alike: `text` from the API,
 * «Текстово-графические объявления» (or «…объявление») in exports. Its name reads like an ad format, so a
 * network campaign badged with it looked like an ad; specialists name such a campaign by where it shows.
 */
const DIRECT_TEXT_TYPE = /^(text|текстово-графическ)/;

/** Where a Direct text campaign shows, as specialists name it. */
const directPlacementLabels: Record<Placement, string> = { search: 'Поиск', networks: 'РСЯ', both: 'Поиск и РСЯ' };

/** The campaign's badge: its type, and for Direct's text type where it shows when that is known. */
export function campaignTypeLabel(type: string, placement?: Placement | null): string {
  const key = type.trim().toLowerCase().replace(/ё/g, 'е');
  if (DIRECT_TEXT_TYPE.test(key)) return placement ? directPlacementLabels[placement] : campaignTypeLabels.text;
  return campaignTypeLabels[key] ?? type;
}
