/* Named index.ts because server/projects/import-worker.ts imports it so; it holds the function itself, not re-exports. */
import type { CampaignData, StatsPeriod } from '../../../contract/campaigns.js';
import { createDirectClient, type DirectClientOptions } from './client.js';
import { fetchAccount } from './fetch-account.js';
import type { DirectProgressListener } from './progress.js';
import type { DirectUnits } from './units.js';

/**
 * The one call the "connect Yandex Direct API" flow needs: read the account behind a token into the
 * campaign model. Throws `DirectApiError` (Russian `message`, `category`, `retryable`) when the
 * account cannot be read; a statistics report that fails only adds a warning.
 */

export interface ImportFromDirectApiOptions {
  token: string;
  clientLogin?: string;
  sandbox?: boolean;
  /** Overrides the production/sandbox address (e.g. `config.yandexDirectApiUrl`, or a local fake in tests). */
  baseUrl?: string;
  campaignIds?: (number | string)[];
  /** Statistics period; defaults to the last 30 full days (Moscow time). `null` skips statistics. */
  statsPeriod?: StatsPeriod | null;
  /** For tests: fetch/sleep and the client's tuning. */
  client?: Pick<DirectClientOptions, 'fetch' | 'sleep' | 'maxRetries' | 'pageLimit' | 'reportMaxPolls' | 'reportMaxWaitMs' | 'timeoutMs'>;
  now?: Date;
  /** Told how far the read has got after every answer that moves it (see `fetchAccount`). */
  onProgress?: DirectProgressListener;
}

export interface ImportFromDirectApiResult {
  data: CampaignData;
  /** API points spent by this import and left on the account. */
  units: DirectUnits;
  /** Russian notes about what could not be imported (e.g. statistics), shown next to the preview. */
  warnings: string[];
}

export async function importFromDirectApi(options: ImportFromDirectApiOptions): Promise<ImportFromDirectApiResult> {
  const client = createDirectClient({
    token: options.token,
    clientLogin: options.clientLogin || undefined,
    sandbox: options.sandbox,
    baseUrl: options.baseUrl,
    ...options.client,
  });
  const warnings: string[] = [];
  const statsPeriod = options.statsPeriod === null ? undefined : (options.statsPeriod ?? lastFullDays(30, options.now));
  const data = await fetchAccount(client, { clientLogin: options.clientLogin || undefined, campaignIds: options.campaignIds, statsPeriod, warnings, onProgress: options.onProgress });
  return { data, units: client.units, warnings };
}

/** The `days` days before today in Moscow (UTC+3, no DST), today excluded: statistics of today are incomplete. */
export function lastFullDays(days: number, now: Date = new Date()): StatsPeriod {
  const moscowToday = new Date(now.getTime() + 3 * 3600_000);
  moscowToday.setUTCHours(0, 0, 0, 0);
  const day = 24 * 3600_000;
  const iso = (d: Date) => d.toISOString().slice(0, 10);
  return { from: iso(new Date(moscowToday.getTime() - days * day)), to: iso(new Date(moscowToday.getTime() - day)) };
}
