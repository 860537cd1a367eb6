/// <reference lib="dom" />
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeYookassa, type FakeYookassa } from '../fakes/yookassa-fake.js';
import { launchBrowser, newContext } from './helpers/browser.js';
import { exactNumber, headerBalance, login, submitRegistration, verifyEmailFromMail } from './helpers/flows.js';
import { startMailbox } from './helpers/mailbox.js';
import { startServer, type RunningServer } from './helpers/server.js';
import { TEST_SELLER } from '../server/helpers/seller.js';

const ADMIN = { email: 'admin@e2e.test', password: 'AdminPass123' };
const OWNER = { email: 'owner@pay.e2e.test', password: 'OwnerPass123', first: 'Ольга', last: 'Смирнова' };
const MEMBER = { email: 'member@pay.e2e.test', password: 'MemberPass123', first: 'Максим', last: 'Кузнецов' };

describe('buying tokens and team balances in Chromium', () => {
  let server: RunningServer;
  let mailbox: Awaited<ReturnType<typeof startMailbox>>;
  let kassa: FakeYookassa;
  let browser: Browser;
  let owner: Page;
  let member: Page;

  beforeAll(async () => {
    mailbox = await startMailbox();
    kassa = await startFakeYookassa();
    server = await startServer({
      SMTP_URL: mailbox.url,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      YOOKASSA_SHOP_ID: kassa.shopId,
      YOOKASSA_SECRET_KEY: kassa.secretKey,
      YOOKASSA_API_URL: kassa.url,
      // Invoices are issued only with real-looking seller requisites (never the placeholders).
      SELLER_REQUISITES_JSON: JSON.stringify(TEST_SELLER),
    });
    browser = await launchBrowser();
    owner = await (await newContext(browser, server.url)).newPage();
    member = await (await newContext(browser, server.url)).newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await kassa?.close();
    await mailbox?.close();
  });

  async function register(page: Page, who: typeof OWNER, organization: { create: string } | { join: string }) {
    await submitRegistration(page, who, organization);
    await verifyEmailFromMail(page, mailbox, who);
  }

  const balanceShows = (page: Page, value: number) => page.getByTestId('balance-value').filter({ hasText: exactNumber(value) }).waitFor();

  it('an owner buys a package by invoice, gets the PDF; the admin marks it paid; the owner’s header shows the credit', async () => {
    await register(owner, OWNER, { create: 'Диваны Комфорт' });
    await balanceShows(owner, 100);

    await owner.getByTestId('balance-value').click();
    await owner.waitForURL('**/tokens');
    const team = owner.getByTestId('package-team');
    await expect(team.innerText()).resolves.toMatch(/2\s000 токенов[\s\S]*3\s490\s₽/);
    await team.getByRole('button', { name: 'Счёт для юрлица' }).click();
    const form = owner.getByRole('form', { name: 'Счёт на оплату' });
    await form.getByLabel('Название организации').fill('ООО «Диваны Комфорт»');
    await form.getByLabel('ИНН').fill('7701234560');
    await form.getByLabel('КПП (для организаций)').fill('770101001');
    await form.getByLabel('Юридический адрес').fill('101000, г. Москва, ул. Мясницкая, д. 1');
    const downloaded = owner.waitForEvent('download');
    await form.getByRole('button', { name: 'Выставить счёт' }).click();
    const pdf = await readFile((await (await downloaded).path())!);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.toString('latin1')).toContain('3490.00 RUB for 2000 tokens');
    const row = owner.getByTestId('payment-row').first();
    await row.filter({ hasText: 'Ожидает оплаты' }).waitFor();
    expect(await headerBalance(owner)).toBe(100);

    const admin = await (await newContext(browser, server.url)).newPage();
    await login(admin, ADMIN);
    await admin.goto('/admin');
    await admin.getByRole('link', { name: 'Счета' }).click();
    await admin.waitForURL('**/admin/invoices');
    const invoice = admin.getByTestId('admin-invoice-row').filter({ hasText: 'ООО «Диваны Комфорт»' });
    await invoice.getByRole('button', { name: 'Оплачен' }).click();
    await admin.getByRole('alertdialog').getByRole('button', { name: 'Оплачен' }).click();
    await admin.getByText(/оплачен\. Зачислено пользователю owner@pay\.e2e\.test: 2\s000 токенов/).waitFor();
    await admin.context().close();

    // One refresh on the owner's side: the header, the ledger, the payment and a notification.
    await owner.reload();
    await balanceShows(owner, 2100);
    await owner.getByTestId('payment-row').first().filter({ hasText: 'Оплачен' }).waitFor();
    await owner.getByRole('table').filter({ hasText: 'Покупка токенов' }).waitFor();
    await owner.getByTestId('notification-badge').waitFor();
    await owner.getByRole('button', { name: /Уведомления/ }).click();
    await owner.getByText(/\+2\s000 токенов\. Оплата счёта/).waitFor();
  });

  it('the owner moves tokens to a member, who sees them in the header and a notification', async () => {
    const invitationCode = await owner.evaluate(async () => {
      const res = await fetch('/api/v1/organizations/invitation-code', { headers: { authorization: `Bearer ${localStorage.getItem('access_token')}` } });
      return ((await res.json()) as { invitation_code: string }).invitation_code;
    });
    await register(member, MEMBER, { join: invitationCode });
    await balanceShows(member, 100);

    await owner.goto('/organization');
    const row = owner.getByRole('list', { name: 'Участники организации' }).getByRole('listitem').filter({ hasText: MEMBER.email });
    await row.getByText('Баланс: 100 токенов').waitFor();
    await row.getByRole('button', { name: 'Токены: Максим Кузнецов' }).click();
    const dialog = owner.getByRole('dialog', { name: 'Токены: Максим Кузнецов' });
    await dialog.getByLabel('Количество токенов').fill('300');
    await dialog.getByRole('button', { name: 'Перевести' }).click();
    await row.getByText('Баланс: 400 токенов').waitFor();
    await balanceShows(owner, 1800);

    await member.reload();
    await balanceShows(member, 400);
    await member.getByRole('button', { name: /Уведомления/ }).click();
    await member.getByText('+300 токенов. От владельца Ольга Смирнова.').waitFor();
  });

  it('pays by card through YooKassa: confirmation page, back to /tokens, credited once', async () => {
    await owner.goto('/tokens');
    await owner.getByTestId('package-start').getByRole('button', { name: 'Оплатить картой' }).click();
    await owner.waitForURL(/\/checkout\//);
    await owner.getByRole('button', { name: 'Оплатить' }).click();
    await owner.waitForURL('**/tokens');
    await balanceShows(owner, 2300);
    await owner.getByText('Оплата прошла: токены зачислены').waitFor();
    await owner.getByTestId('payment-row').first().filter({ hasText: 'Картой' }).filter({ hasText: 'Оплачен' }).waitFor();
    // YooKassa's notification arriving afterwards changes nothing.
    const payment = [...kassa.payments.values()].at(-1)!;
    const res = await fetch(`${server.url}/api/v1/tokens/payments/yookassa-notification`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(kassa.notification('payment.succeeded', payment)),
    });
    expect(res.status).toBe(200);
    await owner.reload();
    await balanceShows(owner, 2300);
  });
});
