import { SignJWT, jwtVerify, errors } from 'jose';
import type { AppConfig } from '../config.js';

export interface AccessClaims {
  userId: string;
  organizationId: string;
  /**
   * The refresh-token family (the login session) the token belongs to, claim `sid`. Logout revokes
   * the family, and the access tokens of a revoked family stop working at once.
   */
  sessionId?: string;
}

/** What a verified access token says: its claims and when it expires (`exp`, in seconds). */
export interface VerifiedAccessClaims extends AccessClaims {
  expiresAt: number;
}

/** Exactly one algorithm is accepted, so a token can never pick a weaker one (or `none`). */
const ALGORITHM = 'HS256';

export function createAccessTokens(config: Pick<AppConfig, 'jwtSecret' | 'jwtAudience' | 'jwtIssuer' | 'accessTokenTtlSeconds'>) {
  return {
    async sign(claims: AccessClaims, now = new Date()): Promise<string> {
      const issuedAt = Math.floor(now.getTime() / 1000);
      const payload: Record<string, string> = { org: claims.organizationId, typ: 'access' };
      if (claims.sessionId) payload.sid = claims.sessionId;
      return new SignJWT(payload)
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(claims.userId)
        .setIssuer(config.jwtIssuer)
        .setAudience(config.jwtAudience)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + config.accessTokenTtlSeconds)
        .sign(config.jwtSecret);
    },
    /** Returns the claims of a valid, unexpired access token, or null for anything else. */
    async verify(token: string): Promise<VerifiedAccessClaims | null> {
      try {
        const { payload } = await jwtVerify(token, config.jwtSecret, {
          algorithms: [ALGORITHM],
          audience: config.jwtAudience,
          issuer: config.jwtIssuer,
          requiredClaims: ['exp', 'sub'],
        });
        if (payload.typ !== 'access' || typeof payload.org !== 'string' || !payload.sub || typeof payload.exp !== 'number') return null;
        const claims: VerifiedAccessClaims = { userId: payload.sub, organizationId: payload.org, expiresAt: payload.exp };
        if (typeof payload.sid === 'string') claims.sessionId = payload.sid;
        return claims;
      } catch (error) {
        if (error instanceof errors.JOSEError) return null;
        throw error;
      }
    },
  };
}

