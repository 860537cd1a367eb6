/// <reference lib="dom" />
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext } from './helpers/browser.js';
import { describeFailures } from './helpers/diagnostics.js';
import { login, submitRegistration, verifyEmailFromMail } from './helpers/flows.js';
import { linkFromMail, startMailbox } from './helpers/mailbox.js';
import { startServer, type RunningServer } from './helpers/server.js';

const ADMIN = { email: 'admin@e2e.test', password: 'AdminPass123' };
const OWNER = { email: 'owner@e2e.test', password: 'OwnerPass123', first: 'Ольга', last: 'Смирнова' };
const MEMBER = { email: 'member@e2e.test', password: 'MemberPass123', first: 'Максим', last: 'Кузнецов' };

describe('sign-up, verification, organizations and sessions in Chromium', () => {
  let server: RunningServer;
  let mailbox: Awaited<ReturnType<typeof startMailbox>>;
  let browser: Browser;

  beforeAll(async () => {
    mailbox = await startMailbox();
    server = await startServer({ SMTP_URL: mailbox.url, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await mailbox?.close();
  });

  async function menuItems(page: Page): Promise<string[]> {
    await page.getByRole('button', { name: /Меню пользователя/ }).click();
    const menu = page.getByRole('menu');
    // allInnerTexts does not wait: read the items once the open menu shows its last one («Выйти», for every user).
    await menu.getByRole('menuitem', { name: 'Выйти' }).waitFor();
    const items = await menu.getByRole('menuitem').allInnerTexts();
    await page.keyboard.press('Escape');
    return items.map((text) => text.trim());
  }

  let ownerContext: BrowserContext;
  let owner: Page;
  let invitationCode: string;
  describeFailures(() => server, () => ({ owner }));

  it('registers an owner, asks to check the mail, and lands on /projects after the link from the mail and a login', async () => {
    ownerContext = await newContext(browser, server.url);
    owner = await ownerContext.newPage();
    await submitRegistration(owner, OWNER, { create: 'Диваны Комфорт' });
    await owner.getByText(`Мы отправили письмо на ${OWNER.email}.`).waitFor();
    expect(await owner.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
    await verifyEmailFromMail(owner, mailbox, OWNER);
    await owner.getByText('Баланс:').waitFor();
    await owner.getByTestId('balance-value').filter({ hasText: '100' }).waitFor();
    expect(await menuItems(owner)).toContain('Организация');

    invitationCode = await owner.evaluate(async () => {
      const res = await fetch('/api/v1/organizations/invitation-code', { headers: { authorization: `Bearer ${localStorage.getItem('access_token')}` } });
      return ((await res.json()) as { invitation_code: string }).invitation_code;
    });
    expect(invitationCode).toMatch(/^[A-Z0-9]{5,20}$/);
  });

  it('lets a second user join by invitation code; a member does not see «Организация»', async () => {
    const context = await newContext(browser, server.url);
    const page = await context.newPage();
    await submitRegistration(page, MEMBER, { join: invitationCode });
    await verifyEmailFromMail(page, mailbox, MEMBER);
    const items = await menuItems(page);
    expect(items).not.toContain('Организация');
    expect(items).not.toContain('Админка');
    expect(items).toContain('Выйти');

    // Organization routes are for owners only.
    await page.goto('/organization');
    await page.waitForURL('**/projects');
    await context.close();
  });

  // Issue 27: the form does not say the address is taken; its owner gets a mail about the attempt.
  it('registering with a taken address shows the same «Проверьте почту» and mails the owner instead', async () => {
    const context = await newContext(browser, server.url);
    const page = await context.newPage();
    const before = mailbox.mails.filter((mail) => mail.to.includes(MEMBER.email)).length;
    await submitRegistration(page, { ...MEMBER, password: 'Другой-Pass-2024', first: 'Пётр' }, { create: 'Захват' });
    await page.getByText(`Мы отправили письмо на ${MEMBER.email}.`).waitFor();
    await expect.poll(() => mailbox.mails.filter((mail) => mail.to.includes(MEMBER.email)).length, { timeout: 10_000 }).toBe(before + 1);
    const mail = mailbox.mails.filter((m) => m.to.includes(MEMBER.email)).at(-1)!;
    expect(linkFromMail(mail, '/auth/reset-password')).toMatch(/\/auth\/reset-password$/);
    expect(mail.raw).not.toContain('verify-email');
    // The account is as it was: the old password still signs in.
    await login(page, MEMBER);
    await context.close();
  });

  it('logs out to /auth and logs back in', async () => {
    await owner.getByRole('button', { name: /Меню пользователя/ }).click();
    await owner.getByRole('menuitem', { name: 'Выйти' }).click();
    await owner.waitForURL('**/auth');
    expect(await owner.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
    await owner.goto('/projects');
    await owner.waitForURL('**/auth');
    await login(owner, OWNER);
  });

  it('refreshes the session once the access token has expired', async () => {
    const before = await owner.evaluate(() => localStorage.getItem('refresh_token'));
    // An access token the server no longer accepts, as after its expiry.
    await owner.evaluate(() => localStorage.setItem('access_token', 'expired.access.token'));
    await owner.reload();
    await owner.getByTestId('balance-value').filter({ hasText: '100' }).waitFor();
    expect(owner.url()).toMatch(/\/projects$/);
    const after = await owner.evaluate(() => ({ access: localStorage.getItem('access_token'), refresh: localStorage.getItem('refresh_token') }));
    expect(after.access).not.toBe('expired.access.token');
    expect(after.refresh).not.toBe(before);
  });

  it('shows «Админка» to a platform administrator', async () => {
    const context = await newContext(browser, server.url);
    const page = await context.newPage();
    await login(page, ADMIN);
    expect(await menuItems(page)).toContain('Админка');
    await page.goto('/admin');
    await page.waitForURL('**/admin');
    await context.close();
  });

  it('still shows the shell, the documents and the cached balance offline', async () => {
    // First visit online: the service worker installs and precaches the shell and the PDFs.
    await owner.goto('/projects');
    await owner.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await owner.reload();
    await owner.waitForFunction(() => Boolean(navigator.serviceWorker.controller));
    await owner.getByTestId('balance-value').filter({ hasText: '100' }).waitFor();

    // Offline at once, as a user whose network drops: the balance asked again on opening may fail on the
    // way, and the reload comes sooner than the cache's throttled writer (the app saves on page hide).
    await ownerContext.setOffline(true);
    await owner.reload();
    await owner.getByTestId('balance-value').filter({ hasText: '100' }).waitFor();
    await owner.getByText('Баланс:').waitFor();
    const pdf = await owner.evaluate(async () => {
      const res = await fetch('/policy.pdf');
      return { status: res.status, type: res.headers.get('content-type'), head: (await res.text()).slice(0, 5) };
    });
    expect(pdf.status).toBe(200);
    expect(pdf.head).toBe('%PDF-');
    await ownerContext.setOffline(false);
    await ownerContext.close();
  });
});
