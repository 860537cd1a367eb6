import type { YandexOAuthConfig } from '../config.js';

/**
 * Yandex ID's authorization-code flow (official pages «Получение токена по коду», «Обновление токена»,
 * «Информация о пользователе»):
 * - the person opens `{oauth}/authorize?response_type=code&client_id&redirect_uri&state&code_challenge&
 *   code_challenge_method=S256` and comes back to the redirect address with `code` and `state` (or `error`);
 * - `POST {oauth}/token` (form-encoded) with `grant_type=authorization_code`, the code, the client's id and
 *   secret and the PKCE `code_verifier` answers `{access_token, refresh_token, expires_in, token_type}`;
 *   `grant_type=refresh_token` renews them; an error is `{error, error_description}` with 400;
 * - `GET {login}/info?format=json` with `Authorization: OAuth <token>` names the account (`login`).
 */

export interface YandexTokens {
  accessToken: string;
  refreshToken: string | null;
  /** Seconds the access token lives from now. */
  expiresIn: number;
}

/** Yandex ID refused or could not be reached; `grantRefused` when the code or refresh token is no good. */
export class YandexIdError extends Error {
  constructor(
    message: string,
    readonly grantRefused: boolean,
  ) {
    super(message);
    this.name = 'YandexIdError';
  }
}

const REQUEST_TIMEOUT_MS = 15_000;

export function authorizeUrl(config: YandexOAuthConfig, state: string, codeChallenge: string): string {
  const url = new URL(`${config.oauthUrl}/authorize`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: config.clientId,
    redirect_uri: config.redirectUrl,
    state,
    code_challenge: codeChallenge,
    code_challenge_method: 'S256',
    // Asks which account to use even when the browser is logged in to one: an agency connects several.
    force_confirm: 'yes',
  }).toString();
  return url.toString();
}

async function tokenRequest(config: YandexOAuthConfig, grant: Record<string, string>): Promise<YandexTokens> {
  let response: Response;
  try {
    response = await fetch(`${config.oauthUrl}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...grant, client_id: config.clientId, client_secret: config.clientSecret }).toString(),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    throw new YandexIdError(`Yandex ID unreachable: ${(error as Error).message}`, false);
  }
  const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  if (!response.ok || typeof body?.access_token !== 'string') {
    // 400 invalid_grant / bad_verification_code: the code or refresh token is spent, wrong or revoked.
    const refused = response.status === 400 || response.status === 401;
    throw new YandexIdError(`Yandex ID answered ${response.status} ${String(body?.error ?? '')}`, refused);
  }
  const expiresIn = Number(body.expires_in);
  return {
    accessToken: body.access_token,
    refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : null,
    expiresIn: Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : 365 * 24 * 3600,
  };
}

export function exchangeCode(config: YandexOAuthConfig, code: string, codeVerifier: string): Promise<YandexTokens> {
  return tokenRequest(config, { grant_type: 'authorization_code', code, code_verifier: codeVerifier });
}

export function renewTokens(config: YandexOAuthConfig, refreshToken: string): Promise<YandexTokens> {
  return tokenRequest(config, { grant_type: 'refresh_token', refresh_token: refreshToken });
}

/** The Yandex login the access token belongs to. */
export async function accountLogin(config: YandexOAuthConfig, accessToken: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(`${config.loginUrl}/info?format=json`, {
      headers: { authorization: `OAuth ${accessToken}` },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    throw new YandexIdError(`Yandex login info unreachable: ${(error as Error).message}`, false);
  }
  const body = (await response.json().catch(() => null)) as { login?: unknown } | null;
  if (!response.ok || typeof body?.login !== 'string' || !body.login) throw new YandexIdError(`Yandex login info answered ${response.status}`, false);
  return body.login;
}
