import { SignJWT, jwtVerify, errors } from 'jose';
import type { AppConfig } from '../config.js';

export interface AccessClaims {
  userId: string;
  organizationId: string;
}

/** Exactly one algorithm is accepted, so a token can never pick a weaker one (or `none`). */
const ALGORITHM = 'HS256';

export function createAccessTokens(config: Pick<AppConfig, 'jwtSecret' | 'jwtAudience' | 'jwtIssuer' | 'accessTokenTtlSeconds'>) {
  return {
    async sign(claims: AccessClaims, now = new Date()): Promise<string> {
      const issuedAt = Math.floor(now.getTime() / 1000);
      return new SignJWT({ org: claims.organizationId, typ: 'access' })
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(claims.userId)
        .setIssuer(config.jwtIssuer)
        .setAudience(config.jwtAudience)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + config.accessTokenTtlSeconds)
        .sign(config.jwtSecret);
    },
    /** Returns the claims of a valid, unexpired access token, or null for anything else. */
    async verify(token: string): Promise<AccessClaims | null> {
      try {
        const { payload } = await jwtVerify(token, config.jwtSecret, {
          algorithms: [ALGORITHM],
          audience: config.jwtAudience,
          issuer: config.jwtIssuer,
          requiredClaims: ['exp', 'sub'],
        });
        if (payload.typ !== 'access' || typeof payload.org !== 'string' || !payload.sub) return null;
        return { userId: payload.sub, organizationId: payload.org };
      } catch (error) {
        if (error instanceof errors.JOSEError) return null;
        throw error;
      }
    },
  };
}

export type AccessTokens = ReturnType<typeof createAccessTokens>;
