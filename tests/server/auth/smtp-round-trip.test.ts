import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../../../server/email/mailer.js';
import { linkFromMail, startMailbox } from '../../e2e/helpers/mailbox.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { register, registration } from './helpers.js';

/** The mails leave through real SMTP (nodemailer) to a real SMTP server on 127.0.0.1, and the links in them work. */
describe('SMTP round trip', () => {
  let mailbox: Awaited<ReturnType<typeof startMailbox>>;
  let t: TestApp;
  beforeAll(async () => {
    mailbox = await startMailbox();
    const mailer = createMailer({ smtpUrl: mailbox.url, from: 'Reklama Lab <no-reply@reklama-lab.local>', log: pino({ level: 'silent' }) });
    t = await createTestApp({ mailer });
  });
  afterAll(async () => {
    await t.close();
    await mailbox.close();
  });

  const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

  it('registers, follows the verification link from the received mail, and is verified', async () => {
    const user = await register(t.app);
    const mail = await mailbox.waitForMail(user.email);
    expect(mail.raw).toMatch(/^Subject: /m);
    expect(mail.raw).toContain('From: Reklama Lab <no-reply@reklama-lab.local>');
    const link = linkFromMail(mail, '/auth/verify-email?token=');
    expect(link.startsWith('http://localhost:5173/auth/verify-email?token=')).toBe(true);

    const verified = await call(t.app, 'POST', '/api/v1/auth/verify-email', { body: { token: tokenOf(link) } });
    expect(verified.status).toBe(200);
    const me = await call(t.app, 'GET', '/api/v1/auth/me', { token: user.tokens.access_token });
    expect(me.body.is_verified).toBe(true);
  });

  it('asks for a reset, follows the link from the mail, sets a new password and logs in with it', async () => {
    const user = await register(t.app);
    await mailbox.waitForMail(user.email);
    const before = mailbox.mails.length;
    expect((await call(t.app, 'POST', '/api/v1/auth/reset-password', { body: { email: user.email } })).status).toBe(200);
    await expect.poll(() => mailbox.mails.length, { timeout: 5000 }).toBe(before + 1);
    const mail = mailbox.mails.at(-1)!;
    expect(mail.to).toEqual([user.email]);
    const link = linkFromMail(mail, '/auth/reset-password/confirm?token=');

    const confirmed = await call(t.app, 'POST', '/api/v1/auth/reset-password/confirm', { body: { token: tokenOf(link), password: 'FromMail2024' } });
    expect(confirmed.status).toBe(200);
    const login = await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: 'FromMail2024' } });
    expect(login.status).toBe(200);
  });

  // Issue 27: registration answers the same for an address that has an account; its owner learns of the attempt by mail.
  it('mails the owner of an existing address about a registration attempt, with links to sign in and to reset the password', async () => {
    const user = await register(t.app, { first_name: 'Ирина' });
    await mailbox.waitForMail(user.email);
    const before = mailbox.mails.length;
    const again = await call(t.app, 'POST', '/api/v1/auth/register', { body: registration({ email: user.email, first_name: 'Пётр' }) });
    expect(again.status).toBe(202);
    await expect.poll(() => mailbox.mails.length, { timeout: 5000 }).toBe(before + 1);
    const mail = mailbox.mails.at(-1)!;
    expect(mail.to).toEqual([user.email]);
    expect(mail.raw).toContain('From: Reklama Lab <no-reply@reklama-lab.local>');
    expect(linkFromMail(mail, '/auth/reset-password')).toBe('http://localhost:5173/auth/reset-password');
    expect(linkFromMail(mail, '/auth')).toBe('http://localhost:5173/auth');
    // No verification link: nothing was created for the second registration.
    expect(mail.raw).not.toContain('verify-email');
  });
});
