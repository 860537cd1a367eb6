import type { TokenPackage } from '../../src/contract/payments.js';
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
}

export interface PaymentsConfig {
  packages: TokenPackage[];
  /** Null: card payments are not offered (the option is hidden, POST /tokens/payments answers 503). */
  yookassa: YookassaConfig | null;
  seller: SellerRequisites;
}

/** Sane defaults: bigger packages cost less per token. */
export const DEFAULT_PACKAGES: TokenPackage[] = [
  { id: 'start', tokens: 500, price_rub: 990 },
  { id: 'team', tokens: 2_000, price_rub: 3_490 },
  { id: 'agency', tokens: 10_000, price_rub: 14_900 },
];

/** Ours, from src/legal/requisites.html (the bank details are as conditional as the rest there). */
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
};

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
      Number.isInteger(entry.tokens) && entry.tokens! > 0 &&
      Number.isInteger(entry.price_rub) && entry.price_rub! > 0;
    if (!ok) throw new Error(`TOKEN_PACKAGES_JSON[${index}]: expected {id: "a-z0-9_-", tokens: positive integer, price_rub: positive integer}`);
    if (ids.has(entry.id!)) throw new Error(`TOKEN_PACKAGES_JSON: package id "${entry.id}" is listed twice`);
    ids.add(entry.id!);
    return { id: entry.id!, tokens: entry.tokens!, price_rub: entry.price_rub! };
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
    seller: step(() => sellerFromEnv(env.SELLER_REQUISITES_JSON), 'fix or unset SELLER_REQUISITES_JSON: an object with any of name, inn, kpp, ogrn, address, bank, bik, account, correspondentAccount, vatNote, signer, payWithinDays'),
  };
}
