import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Yandex ID on 127.0.0.1, speaking the documented authorization-code flow with PKCE:
 * - `GET /authorize?response_type=code&client_id&redirect_uri&state&code_challenge&code_challenge_method=S256`
 *   plays the person consenting as `login`: it redirects (302) to `redirect_uri?code=…&state=…`, or with
 *   `error=access_denied` once `denyNext()` was called;
 * - `POST /token` (form-encoded): `grant_type=authorization_code` checks the client's id and secret, that the
 *   code is one it issued and not used, and that `code_verifier` hashes to the code's challenge;
 *   `grant_type=refresh_token` renews; errors are 400 `{error, error_description}`;
 * - `GET /info?format=json` with `Authorization: OAuth <token>` answers `{login, id}`.
 */
export interface FakeYandexId {
  url: string;
  clientId: string;
  clientSecret: string;
  /** The account the next consent is given as. */
  login: string;
  /** Seconds an issued access token lives. */
  expiresIn: number;
  /** Every call of /token, as its form fields. */
  tokenRequests: Record<string, string>[];
  /** Access tokens issued, newest last, with the login each belongs to. */
  issued: { accessToken: string; refreshToken: string; login: string }[];
  /** The next /authorize answers as if the person refused. */
  denyNext(): void;
  /** Refresh tokens Yandex no longer accepts (revoked by the person). */
  revokeRefreshTokens(): void;
  close(): Promise<void>;
}

export async function startFakeYandexId(options: { clientId?: string; clientSecret?: string; login?: string; expiresIn?: number } = {}): Promise<FakeYandexId> {
  const codes = new Map<string, { challenge: string; login: string; redirectUri: string }>();
  const refreshTokens = new Map<string, string>();
  const accessTokens = new Map<string, string>();
  let deny = false;

  const fake: Omit<FakeYandexId, 'url' | 'close'> = {
    clientId: options.clientId ?? 'test-client-id',
    clientSecret: options.clientSecret ?? 'test-client-secret',
    login: options.login ?? 'flower-shop',
    expiresIn: options.expiresIn ?? 31_536_000,
    tokenRequests: [],
    issued: [],
    denyNext: () => void (deny = true),
    revokeRefreshTokens: () => refreshTokens.clear(),
  };

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const issue = (res: ServerResponse, login: string) => {
    const accessToken = `y0_${randomBytes(24).toString('base64url')}`;
    const refreshToken = `1:${randomBytes(24).toString('base64url')}`;
    accessTokens.set(accessToken, login);
    refreshTokens.set(refreshToken, login);
    fake.issued.push({ accessToken, refreshToken, login });
    json(res, 200, { token_type: 'bearer', access_token: accessToken, refresh_token: refreshToken, expires_in: fake.expiresIn });
  };
  const readForm = async (req: IncomingMessage) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    return Object.fromEntries(new URLSearchParams(text));
  };

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'GET' && url.pathname === '/authorize') {
      const q = url.searchParams;
      if (q.get('response_type') !== 'code' || q.get('client_id') !== fake.clientId || q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge')) {
        return json(res, 400, { error: 'invalid_request' });
      }
      const back = new URL(q.get('redirect_uri') ?? '');
      back.searchParams.set('state', q.get('state') ?? '');
      if (deny) {
        deny = false;
        back.searchParams.set('error', 'access_denied');
      } else {
        const code = String(Math.floor(1_000_000 + Math.random() * 8_999_999));
        codes.set(code, { challenge: q.get('code_challenge')!, login: fake.login, redirectUri: q.get('redirect_uri')! });
        back.searchParams.set('code', code);
      }
      res.writeHead(302, { location: back.toString() });
      return res.end();
    }
    if (req.method === 'POST' && url.pathname === '/token') {
      const form = await readForm(req);
      fake.tokenRequests.push(form);
      if (form.client_id !== fake.clientId || form.client_secret !== fake.clientSecret) return json(res, 401, { error: 'invalid_client', error_description: 'Client not found' });
      if (form.grant_type === 'authorization_code') {
        const issuedCode = codes.get(form.code ?? '');
        codes.delete(form.code ?? '');
        if (!issuedCode) return json(res, 400, { error: 'bad_verification_code', error_description: 'Invalid code' });
        const challenge = createHash('sha256').update(form.code_verifier ?? '').digest('base64url');
        if (challenge !== issuedCode.challenge) return json(res, 400, { error: 'invalid_grant', error_description: 'Code verifier is not valid' });
        return issue(res, issuedCode.login);
      }
      if (form.grant_type === 'refresh_token') {
        const login = refreshTokens.get(form.refresh_token ?? '');
        if (!login) return json(res, 400, { error: 'invalid_grant', error_description: 'Invalid refresh token' });
        refreshTokens.delete(form.refresh_token!);
        return issue(res, login);
      }
      return json(res, 400, { error: 'unsupported_grant_type' });
    }
    if (req.method === 'GET' && url.pathname === '/info') {
      const token = /^OAuth (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const login = token ? accessTokens.get(token) : undefined;
      if (!login) return json(res, 401, { error: 'unauthorized' });
      return json(res, 200, { id: '1130000012345678', login });
    }
    json(res, 404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
