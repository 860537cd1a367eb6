import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { vi } from 'vitest';
import type { OutgoingMail } from '../../../server/email/mailer.js';
import { call } from '../helpers/app.js';

// Not in the common-password list the server refuses (server/auth/common-passwords.ts; «Secret123» is in it).
export const PASSWORD = 'Kosmolab427';

export const uniqueEmail = (prefix = 'user') => `${prefix}-${randomBytes(4).toString('hex')}@example.test`;

export function registration(overrides: Record<string, unknown> = {}) {
  return {
    first_name: 'Анна',
    last_name: 'Смирнова',
    email: uniqueEmail(),
    password: PASSWORD,
    organization_name: 'Рога и копыта',
    ...overrides,
  };
}

/**
 * Registers through the API (202, no session: issue 27) and logs in as the new user, as a person
 * does; returns the login's body (user, organization, tokens). Fails the test on anything else.
 */
export async function register(app: FastifyInstance, overrides: Record<string, unknown> = {}) {
  const body = registration(overrides);
  const res = await call(app, 'POST', '/api/v1/auth/register', { body });
  if (res.status !== 202) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  const login = await call(app, 'POST', '/api/v1/auth/login', { body: { email: body.email, password: body.password } });
  if (login.status !== 200) throw new Error(`login after register failed: ${login.status} ${JSON.stringify(login.body)}`);
  return { ...login.body, password: body.password as string, email: body.email as string };
}

/** Mails leave after the answer: waits (polling, no fixed sleep) for the first one to this address. */
export async function mailTo(outbox: OutgoingMail[], to: string, subject: RegExp): Promise<OutgoingMail> {
  return vi.waitFor(
    () => {
      const mail = outbox.find((m) => m.to === to && subject.test(m.subject));
      if (!mail) throw new Error(`no mail to ${to}`);
      return mail;
    },
    { timeout: 5000, interval: 20 },
  );
}

/** The `token` query parameter of the first link to `path` in a text. */
export function tokenFromLink(text: string, path: string): string {
  const match = text.match(new RegExp(`https?://\\S*${path.replace(/[/?]/g, '\\$&')}\\?token=([A-Za-z0-9_%-]+)`));
  if (!match) throw new Error(`no link to ${path} in:\n${text}`);
  return decodeURIComponent(match[1]!);
}
