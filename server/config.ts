import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ipaddr from 'ipaddr.js';
import { paymentsConfigFromEnv, type PaymentsConfig } from './config/payments.js';
import { StartupError } from './startup-error.js';
import type { RequestLogPolicy } from './lib/logger.js';
import { loadPricingTable } from './config/pricing-table.js';

/** Everything the server reads from the environment, parsed once. */
export interface AppConfig {
  env: 'production' | 'development' | 'test';
  port: number;
  host: string;
  /** Public address used in links inside emails, e.g. http://localhost:8080 */
  publicUrl: string;
  dataDir: string;
  /** External PostgreSQL; when absent the embedded server in dataDir is used. */
  databaseUrl?: string;
  jwtSecret: Uint8Array;
  jwtAudience: string;
  jwtIssuer: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** Absolute lifetime of a refresh-token family, however often it is rotated. */
  refreshFamilyTtlSeconds: number;
  /**
   * Verified sessions kept in memory per process (server/auth/session-cache.ts): at most `maxEntries`
   * tokens, each for at most `ttlSeconds` (a safety net: revocations reach the cache at once by
   * LISTEN/NOTIFY). `SESSION_CACHE_TTL_SECONDS=0` turns the cache off.
   */
  sessionCache: { ttlSeconds: number; maxEntries: number };
  emailTokenTtlSeconds: number;
  smtpUrl?: string;
  mailFrom: string;
  /** Rate-limit counters in this Redis instead of PostgreSQL. */
  redisUrl?: string;
  /** Prefix of the rate-limit keys in Redis (several deployments may share one Redis). */
  rateLimitNamespace: string;
  welcomeCredit: number;
  /** Serve the built PWA from this folder (production). */
  webRoot?: string;
  rateLimit: { max: number; timeWindowMs: number };
  /** Tries of `current_password` on POST /auth/new-password per account and window (ASVS: no unlimited guessing with a stolen session). */
  currentPasswordRateLimit: { max: number; timeWindowMs: number };
  /** Registrations per client address (`REGISTER_RATE_LIMIT_MAX` per `REGISTER_RATE_LIMIT_WINDOW_MS`). */
  registerRateLimit: { max: number; timeWindowMs: number };
  /** Failed logins per account (the email), whatever the address they come from. */
  loginAccountRateLimit: { max: number; timeWindowMs: number };
  /**
   * Which peers may set the client address through `X-Forwarded-For` (`TRUST_PROXY`): `false` trusts
   * nobody (the socket's address is the client's), a number trusts that many proxy hops, a list trusts
   * those addresses/CIDR ranges (and proxy-addr's names `loopback`, `linklocal`, `uniquelocal`).
   */
  trustProxy: TrustProxySetting;
  /** Run job workers inside the API process (default) or only in `npm run worker`. */
  inProcessWorkers: boolean;
  /**
   * Uploaded campaign files on their way to the import (server/projects/upload.ts): the folder they are
   * streamed to (`UPLOAD_TEMP_DIR`, default the system's temporary folder), and how many bytes of uploads
   * this process may have there at once, over all users (`UPLOADS_IN_FLIGHT_MB`, default 2048: five
   * uploads of the 400 MB maximum). An upload that does not fit is refused with 503 before it is written.
   */
  uploads: { tempDir: string; maxBytesInFlight: number };
  /** Key for encrypting ad-platform OAuth tokens at rest (32 bytes). */
  secretsKey: Uint8Array;
  yandexDirectApiUrl: string;
  /** The Direct API sandbox, used when a user ticks «Песочница API» (tests point both at a local fake). */
  yandexDirectSandboxApiUrl: string;
  /** «Подключить Яндекс Директ» through Yandex ID (OAuth); null: not configured, the pasted token only. */
  yandexOAuth: YandexOAuthConfig | null;
  /** The Telegram bot alerts are sent by (`TELEGRAM_BOT_TOKEN`); null: no Telegram channel. */
  telegram: TelegramConfig | null;
  logLevel: string;
  /** Which answers the request log keeps: one in `sampleEvery` at info, every error and every answer slower than `slowMs` (server/lib/logger.ts). */
  requestLog: RequestLogPolicy;
  /**
   * Let the landing-page fetcher open loopback/private/link-local addresses (`ALLOW_PRIVATE_PAGE_HOSTS=true`).
   * Off by default: user-supplied URLs must not reach the server's own network (SSRF). Tests turn it on.
   */
  allowPrivateHosts: boolean;
  /** The language model of the AI plan (an OpenAI-compatible chat-completions API); null: not configured. */
  llm: LlmConfig | null;
  /** Token packages, YooKassa (card payments) and the seller's requisites for invoices. */
  payments: PaymentsConfig;
}

export type TrustProxySetting = false | number | string[];

const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * `TRUST_PROXY`: unset, empty, `false` or `0` → trust nobody; a whole number → that many proxy hops;
 * otherwise a comma-separated list of addresses or CIDR ranges. `true` (trust anyone) is refused: the
 * server listens on every interface, so anyone could then choose their own address and escape the limits.
 */
export function trustProxyFromEnv(value: string | undefined): TrustProxySetting {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'false' || text === '0') return false;
  if (text === 'true') throw new Error('TRUST_PROXY=true would let any client forge its address with X-Forwarded-For: give the number of proxies in front of the server (e.g. 1) or their addresses (e.g. 10.0.0.5,10.1.0.0/16)');
  if (/^\d+$/.test(text)) return Number.parseInt(text, 10);
  const entries = text.split(',').map((entry) => entry.trim()).filter(Boolean);
  for (const entry of entries) {
    if (PROXY_RANGE_NAMES.has(entry) || ipaddr.isValid(entry) || ipaddr.isValidCIDR(entry)) continue;
    throw new Error(`TRUST_PROXY: "${entry}" is neither an IP address nor a CIDR range (e.g. 10.0.0.0/8), nor loopback/linklocal/uniquelocal`);
  }
  return entries;
}

/** Where the AI plan asks for its answer: `LLM_API_URL`, `LLM_API_KEY`, `LLM_MODEL`, `LLM_TIMEOUT_MS`. */
export interface LlmConfig {
  /** Base of an OpenAI-compatible API, e.g. `http://host:8000/v1` (`/chat/completions` is appended). */
  apiUrl: string;
  /** Sent as `Authorization: Bearer …` when set (local servers often need none). */
  apiKey: string | null;
  model: string;
  /** One request to the model may take this long before the run fails (and is refunded). */
  timeoutMs: number;
}

/**
 * The LLM settings, or null when `LLM_API_URL` is not set. A URL without a model (or a malformed one)
 * stops the server at start-up: a half-configured model would fail every paid run.
 */
/** A Yandex ID application with the `direct:api` right (oauth.yandex.ru), for connecting by OAuth. */
export interface YandexOAuthConfig {
  clientId: string;
  clientSecret: string;
  /** Where Yandex ID sends the person back: the PWA's /connections/yandex/callback (the app's «Redirect URI»). */
  redirectUrl: string;
  /** Yandex ID's base, https://oauth.yandex.ru (tests point it at a local fake). */
  oauthUrl: string;
  /** Where the connected account's login is read, https://login.yandex.ru (tests: the same fake). */
  loginUrl: string;
}

export interface TelegramConfig {
  token: string;
  /** The bot's @name without the @, for the t.me link (`TELEGRAM_BOT_USERNAME`). */
  username: string | null;
  /** Bot API base, `https://api.telegram.org` unless `TELEGRAM_API_URL` (tests point it at a local fake). */
  apiUrl: string;
}

export function telegramConfigFromEnv(env: NodeJS.ProcessEnv): TelegramConfig | null {
  const token = env.TELEGRAM_BOT_TOKEN?.trim();
  if (!token) return null;
  return { token, username: env.TELEGRAM_BOT_USERNAME?.trim().replace(/^@/, '') || null, apiUrl: env.TELEGRAM_API_URL?.trim() || 'https://api.telegram.org' };
}

export function yandexOAuthConfigFromEnv(env: NodeJS.ProcessEnv, publicUrl: string): YandexOAuthConfig | null {
  const clientId = env.YANDEX_OAUTH_CLIENT_ID?.trim();
  const clientSecret = env.YANDEX_OAUTH_CLIENT_SECRET?.trim();
  if (!clientId && !clientSecret) return null;
  if (!clientId || !clientSecret) throw new Error('YANDEX_OAUTH_CLIENT_ID and YANDEX_OAUTH_CLIENT_SECRET are set together');
  const base = (value: string | undefined, fallback: string) => (value?.trim() || fallback).replace(/\/+$/, '');
  return {
    clientId,
    clientSecret,
    redirectUrl: env.YANDEX_OAUTH_REDIRECT_URL?.trim() || `${publicUrl.replace(/\/+$/, '')}/connections/yandex/callback`,
    oauthUrl: base(env.YANDEX_OAUTH_URL, 'https://oauth.yandex.ru'),
    loginUrl: base(env.YANDEX_LOGIN_URL, 'https://login.yandex.ru'),
  };
}

export function llmConfigFromEnv(env: NodeJS.ProcessEnv): LlmConfig | null {
  const apiUrl = env.LLM_API_URL?.trim();
  if (!apiUrl) return null;
  let parsed: URL;
  try {
    parsed = new URL(apiUrl);
  } catch {
    throw new Error(`LLM_API_URL is not a URL: "${apiUrl}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('LLM_API_URL must be an http:// or https:// address');
  const model = env.LLM_MODEL?.trim();
  if (!model) throw new Error('LLM_MODEL must name the model when LLM_API_URL is set');
  const timeoutMs = intFromEnv(env.LLM_TIMEOUT_MS, 120_000);
  if (timeoutMs <= 0) throw new Error('LLM_TIMEOUT_MS must be a positive number of milliseconds');
  return { apiUrl: apiUrl.replace(/\/+$/, ''), apiKey: env.LLM_API_KEY?.trim() || null, model, timeoutMs };
}

function positiveMegabytes(value: string | undefined, fallback: number, name: string): number {
  const megabytes = intFromEnv(value, fallback);
  if (megabytes <= 0) throw new Error(`${name} must be a positive number of megabytes, got "${value}"`);
  return megabytes * 1024 * 1024;
}

function intFromEnv(value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number.parseInt(value, 10);
  if (!Number.isFinite(parsed)) throw new Error(`Expected an integer, got "${value}"`);
  return parsed;
}

/**
 * A secret that must survive restarts: taken from the environment when set, otherwise generated
 * once (256 random bits) and kept in the data folder with owner-only permissions.
 */
function persistentSecret(dataDir: string, fileName: string, fromEnv: string | undefined): Uint8Array {
  if (fromEnv) {
    const bytes = Buffer.from(fromEnv, fromEnv.length === 64 && /^[0-9a-f]+$/i.test(fromEnv) ? 'hex' : 'utf8');
    if (bytes.length < 32) throw new Error(`${fileName}: the configured secret must be at least 256 bits`);
    return new Uint8Array(bytes);
  }
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, fileName);
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600 });
  return new Uint8Array(Buffer.from(readFileSync(file, 'utf8').trim(), 'hex'));
}

/** A malformed price override stops the start with what is wrong and an example, not a stack trace. */
function checkPricingOverride(json: string | undefined): void {
  try {
    loadPricingTable(json);
  } catch (error) {
    throw new StartupError((error as Error).message, 'fix or unset PRICING_JSON; it overrides the default prices, e.g. PRICING_JSON=\'{"perCampaign":3,"aiPlan":15}\' (see server/config/pricing-table.ts for every key)');
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<AppConfig> = {}): AppConfig {
  checkPricingOverride(env.PRICING_JSON);
  const mode = (env.NODE_ENV === 'production' || env.NODE_ENV === 'test' ? env.NODE_ENV : 'development') as AppConfig['env'];
  const dataDir = path.resolve(overrides.dataDir ?? env.DATA_DIR ?? './data');
  const port = intFromEnv(env.PORT, 8080);
  return {
    env: mode,
    port,
    host: env.HOST ?? '0.0.0.0',
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${port}`,
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    jwtSecret: overrides.jwtSecret ?? persistentSecret(dataDir, 'jwt-secret', env.JWT_SECRET),
    jwtAudience: env.JWT_AUDIENCE ?? 'reklama-lab',
    jwtIssuer: env.JWT_ISSUER ?? 'reklama-lab-api',
    accessTokenTtlSeconds: intFromEnv(env.ACCESS_TOKEN_TTL_SECONDS, 15 * 60),
    refreshTokenTtlSeconds: intFromEnv(env.REFRESH_TOKEN_TTL_SECONDS, 30 * 24 * 3600),
    refreshFamilyTtlSeconds: intFromEnv(env.REFRESH_FAMILY_TTL_SECONDS, 90 * 24 * 3600),
    sessionCache: { ttlSeconds: intFromEnv(env.SESSION_CACHE_TTL_SECONDS, 60), maxEntries: intFromEnv(env.SESSION_CACHE_MAX_ENTRIES, 10_000) },
    emailTokenTtlSeconds: intFromEnv(env.EMAIL_TOKEN_TTL_SECONDS, 60 * 60),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? 'Reklama Lab <no-reply@reklama-lab.local>',
    redisUrl: env.REDIS_URL || undefined,
    rateLimitNamespace: env.RATE_LIMIT_NAMESPACE ?? 'reklama-lab:rate-limit:',
    welcomeCredit: intFromEnv(env.WELCOME_CREDIT, 100),
    webRoot: env.WEB_ROOT,
    rateLimit: { max: intFromEnv(env.AUTH_RATE_LIMIT_MAX, 10), timeWindowMs: intFromEnv(env.AUTH_RATE_LIMIT_WINDOW_MS, 60_000) },
    currentPasswordRateLimit: { max: intFromEnv(env.CURRENT_PASSWORD_RATE_LIMIT_MAX, 5), timeWindowMs: intFromEnv(env.CURRENT_PASSWORD_RATE_LIMIT_WINDOW_MS, 15 * 60_000) },
    registerRateLimit: { max: intFromEnv(env.REGISTER_RATE_LIMIT_MAX, 5), timeWindowMs: intFromEnv(env.REGISTER_RATE_LIMIT_WINDOW_MS, 60 * 60_000) },
    loginAccountRateLimit: { max: intFromEnv(env.LOGIN_ACCOUNT_RATE_LIMIT_MAX, 10), timeWindowMs: intFromEnv(env.LOGIN_ACCOUNT_RATE_LIMIT_WINDOW_MS, 15 * 60_000) },
    trustProxy: trustProxyFromEnv(env.TRUST_PROXY),
    inProcessWorkers: env.IN_PROCESS_WORKERS !== 'false',
    uploads: { tempDir: path.resolve(env.UPLOAD_TEMP_DIR || os.tmpdir()), maxBytesInFlight: positiveMegabytes(env.UPLOADS_IN_FLIGHT_MB, 2048, 'UPLOADS_IN_FLIGHT_MB') },
    secretsKey: overrides.secretsKey ?? persistentSecret(dataDir, 'secrets-key', env.SECRETS_KEY),
    yandexDirectApiUrl: env.YANDEX_DIRECT_API_URL ?? 'https://api.direct.yandex.com/json/v5',
    yandexDirectSandboxApiUrl: env.YANDEX_DIRECT_SANDBOX_API_URL ?? 'https://api-sandbox.direct.yandex.com/json/v5',
    logLevel: env.LOG_LEVEL ?? (mode === 'test' ? 'silent' : 'info'),
    requestLog: { sampleEvery: intFromEnv(env.REQUEST_LOG_SAMPLE, 100), slowMs: intFromEnv(env.SLOW_REQUEST_MS, 1000) },
    allowPrivateHosts: env.ALLOW_PRIVATE_PAGE_HOSTS === 'true',
    llm: llmConfigFromEnv(env),
    payments: paymentsConfigFromEnv(env),
    yandexOAuth: yandexOAuthConfigFromEnv(env, env.PUBLIC_URL ?? `http://localhost:${port}`),
    telegram: telegramConfigFromEnv(env),
    ...overrides,
  };
}
