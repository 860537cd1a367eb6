import type { TokenPackage } from '../../contract/payments.js';
import { isValidInn, isValidKpp } from '../../contract/tax-ids.js';
import { formatCountOf } from '../../contract/format.js';
import { StartupError } from '../startup-error.js';

/** YooKassa's payments API (`YOOKASSA_SHOP_ID`, `YOOKASSA_SECRET_KEY`, `YOOKASSA_API_URL`). */
export interface YookassaConfig {
  shopId: string;
  secretKey: string;
  /** Base of the API, `https://api.yookassa.ru/v3` (tests point it at a local fake). */
  apiUrl: string;
}

/** The seller as the invoice names it (`SELLER_REQUISITES_JSON` overrides any of these). */
export interface SellerRequisites {
  name: string;
  inn: string;
  kpp: string;
  ogrn: string;
  address: string;
  bank: string;
  bik: string;
  /** Расчётный счёт. */
  account: string;
  /** Корреспондентский счёт. */
  correspondentAccount: string;
  /** The VAT line of the invoice, e.g. «Без НДС (УСН)» or «В том числе НДС 20 %». */
  vatNote: string;
  /** Who signs: «Генеральный директор Иванов И. И.». */
  signer: string;
  /** Days the invoice stays payable. */
  payWithinDays: number;
  /** Whom buyers write to (an email, a chat), shown where no way to pay fits them. */
  contact: string;
}

export interface PaymentsConfig {
  packages: TokenPackage[];
  /** Null: card payments are not offered (the option is hidden, POST /tokens/payments answers 503). */
  yookassa: YookassaConfig | null;
  seller: SellerRequisites;
}

/** Sane defaults: bigger packages cost less per token. */
export const DEFAULT_PACKAGES: TokenPackage[] = [
  { id: 'start', name: 'Старт', tokens: 500, price_rub: 990 },
  { id: 'team', name: 'Команда', tokens: 2_000, price_rub: 3_490 },
  { id: 'agency', name: 'Агентство', tokens: 10_000, price_rub: 14_900 },
];

/** The Russian name of a package TOKEN_PACKAGES_JSON lists without one: the default's, else «500 токенов». */
const defaultPackageName = (id: string, tokens: number) => DEFAULT_PACKAGES.find((item) => item.id === id)?.name ?? formatCountOf(tokens, ['токен', 'токена', 'токенов']);

/**
 * Placeholders, from src/legal/requisites.html: the bank details there are as conditional as the rest.
 * Invoices are not issued while any of these is still a placeholder (`sellerPlaceholders`): a company
 * would pay to an account that does not exist. SELLER_REQUISITES_JSON sets the real ones.
 */
export const DEFAULT_SELLER: SellerRequisites = {
  name: 'ООО «Реклама Лаб»',
  inn: '7799123450',
  kpp: '779901001',
  ogrn: '1237700000000',
  address: '123112, г. Москва, Пресненская набережная, д. 0, офис 000',
  bank: 'АО «Банк»',
  bik: '044525000',
  account: '40702810000000000000',
  correspondentAccount: '30101810000000000000',
  vatNote: 'Без НДС (упрощённая система налогообложения)',
  signer: 'Генеральный директор',
  payWithinDays: 5,
  contact: 'support@reklama-lab.example',
};

/** The fields an invoice's payment order depends on: a placeholder in any of them stops the invoices. */
const PAYMENT_FIELDS = ['name', 'inn', 'kpp', 'ogrn', 'address', 'bank', 'bik', 'account', 'correspondentAccount'] as const;
// Shapes of the placeholders, should a deployment copy one and change another field: «д. 0», «офис 000», a bank called «Банк», runs of zeros.
const PLACEHOLDER_SHAPES: Partial<Record<keyof SellerRequisites, RegExp>> = {
  address: /(^|[\s,])(д\.|дом)\s*0+(?!\d)|офис\s*0+(?!\d)/i,
  bank: /^\s*(АО|ПАО|ООО)?\s*«?Банк»?\s*$/i,
  bik: /000$/,
  account: /0{12}$/,
  correspondentAccount: /0{12}$/,
  ogrn: /0{8}$/,
};

/**
 * The seller's fields that are still placeholders or malformed (empty: invoices can be issued). A
 * company has a КПП, an entrepreneur (12-digit ИНН) none.
 */
export function sellerPlaceholders(seller: SellerRequisites): (keyof SellerRequisites)[] {
  return PAYMENT_FIELDS.filter((field) => {
    const value = String(seller[field] ?? '').trim();
    if (field === 'kpp') return seller.inn.length === 10 ? !isValidKpp(value) || value === DEFAULT_SELLER.kpp : value !== '';
    if (!value) return true;
    // The name is the product's own and may well stay; the numbers and the bank may not.
    if (field !== 'name' && value === DEFAULT_SELLER[field]) return true;
    if (field === 'inn') return !isValidInn(value);
    return PLACEHOLDER_SHAPES[field]?.test(value) ?? false;
  });
}

function parseJson(name: string, value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    throw new Error(`${name} is not valid JSON`);
  }
}

/** `TOKEN_PACKAGES_JSON`: `[{"id":"start","tokens":500,"price_rub":990}, …]`; a malformed list stops the server at start-up. */
export function packagesFromEnv(value: string | undefined): TokenPackage[] {
  if (!value?.trim()) return DEFAULT_PACKAGES;
  const parsed = parseJson('TOKEN_PACKAGES_JSON', value);
  if (!Array.isArray(parsed) || parsed.length === 0) throw new Error('TOKEN_PACKAGES_JSON must be a non-empty array of {id, tokens, price_rub}');
  const ids = new Set<string>();
  return parsed.map((item: unknown, index) => {
    const entry = item as Partial<TokenPackage>;
    const ok =
      typeof entry?.id === 'string' && /^[a-z0-9_-]{1,50}$/.test(entry.id) &&
      (entry.name === undefined || (typeof entry.name === 'string' && entry.name.trim().length > 0 && entry.name.length <= 50)) &&
      Number.isInteger(entry.tokens) && entry.tokens! > 0 &&
      Number.isInteger(entry.price_rub) && entry.price_rub! > 0;
    if (!ok) throw new Error(`TOKEN_PACKAGES_JSON[${index}]: expected {id: "a-z0-9_-", name?: Russian name up to 50 characters, tokens: positive integer, price_rub: positive integer}`);
    if (ids.has(entry.id!)) throw new Error(`TOKEN_PACKAGES_JSON: package id "${entry.id}" is listed twice`);
    ids.add(entry.id!);
    return { id: entry.id!, name: entry.name?.trim() ?? defaultPackageName(entry.id!, entry.tokens!), tokens: entry.tokens!, price_rub: entry.price_rub! };
  });
}

/** Both YooKassa credentials or neither: half a configuration would fail every payment. */
export function yookassaFromEnv(env: NodeJS.ProcessEnv): YookassaConfig | null {
  const shopId = env.YOOKASSA_SHOP_ID?.trim();
  const secretKey = env.YOOKASSA_SECRET_KEY?.trim();
  if (!shopId && !secretKey) return null;
  if (!shopId || !secretKey) throw new Error('YOOKASSA_SHOP_ID and YOOKASSA_SECRET_KEY must be set together');
  const apiUrl = (env.YOOKASSA_API_URL?.trim() || 'https://api.yookassa.ru/v3').replace(/\/+$/, '');
  if (!/^https?:\/\//.test(apiUrl)) throw new Error('YOOKASSA_API_URL must be an http:// or https:// address');
  return { shopId, secretKey, apiUrl };
}

export function sellerFromEnv(value: string | undefined): SellerRequisites {
  if (!value?.trim()) return DEFAULT_SELLER;
  const parsed = parseJson('SELLER_REQUISITES_JSON', value);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('SELLER_REQUISITES_JSON must be an object');
  return { ...DEFAULT_SELLER, ...(parsed as Partial<SellerRequisites>) };
}

/** A malformed payments setting stops the start with what is wrong and what to do, not a stack trace. */
export function paymentsConfigFromEnv(env: NodeJS.ProcessEnv): PaymentsConfig {
  const step = <T>(read: () => T, hint: string): T => {
    try {
      return read();
    } catch (error) {
      throw new StartupError((error as Error).message, hint);
    }
  };
  return {
    packages: step(() => packagesFromEnv(env.TOKEN_PACKAGES_JSON), 'fix or unset TOKEN_PACKAGES_JSON, e.g. TOKEN_PACKAGES_JSON=\'[{"id":"start","tokens":500,"price_rub":990}]\''),
    yookassa: step(() => yookassaFromEnv(env), 'set both YOOKASSA_SHOP_ID and YOOKASSA_SECRET_KEY (from the YooKassa dashboard), or neither to offer invoices only'),
    seller: step(() => sellerFromEnv(env.SELLER_REQUISITES_JSON), 'fix or unset SELLER_REQUISITES_JSON: an object with any of name, inn, kpp, ogrn, address, bank, bik, account, correspondentAccount, vatNote, signer, payWithinDays, contact'),
  };
}
