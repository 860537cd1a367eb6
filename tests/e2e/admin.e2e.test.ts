/// <reference lib="dom" />
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2E_ADMIN } from './helpers/admin-session.js';
import { launchBrowser, newContext } from './helpers/browser.js';
import { headerBalance, login, submitRegistration, verifyEmailFromMail } from './helpers/flows.js';
import { startMailbox } from './helpers/mailbox.js';
import { startServer, type RunningServer } from './helpers/server.js';

const USER = { email: 'client@e2e.test', password: 'ClientPass123', first: 'Пётр', last: 'Клиентов' };
const ORGANIZATION = 'Мебель Плюс';

/**
 * The operator's work in Chromium, as issue 12 describes it: a user registers; the admin finds them,
 * credits tokens with a reason (the user's header shows them after a refresh), changes their
 * organization's plan, blocks them (their session ends, the login is refused) and reads it all back
 * in the audit log; the overview draws its charts and the runs screen shows the job queues.
 */
describe('the admin area in Chromium', () => {
  let server: RunningServer;
  let mailbox: Awaited<ReturnType<typeof startMailbox>>;
  let browser: Browser;
  let userContext: BrowserContext;
  let user: Page;
  let admin: Page;

  beforeAll(async () => {
    mailbox = await startMailbox();
    server = await startServer({ SMTP_URL: mailbox.url, ADMIN_EMAIL: E2E_ADMIN.email, ADMIN_PASSWORD: E2E_ADMIN.password });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await mailbox?.close();
  });

  it('a new user registers and sees the welcome credit', async () => {
    userContext = await newContext(browser, server.url);
    user = await userContext.newPage();
    await submitRegistration(user, USER, { create: ORGANIZATION });
    await verifyEmailFromMail(user, mailbox, USER);
    await user.getByTestId('balance-value').filter({ hasText: '100' }).waitFor();
  });

  it('the admin finds the user and credits tokens with a reason; the user sees them after a refresh', async () => {
    admin = await (await newContext(browser, server.url)).newPage();
    await login(admin, E2E_ADMIN);
    await admin.goto('/admin');
    await admin.getByRole('navigation', { name: 'Разделы админки' }).getByRole('link', { name: 'Пользователи' }).click();
    await admin.waitForURL('**/admin/users');
    await admin.getByRole('searchbox', { name: 'Поиск пользователей' }).fill('клиентов');
    await admin.getByRole('button', { name: 'Найти' }).click();
    await admin.waitForURL(/q=/);
    // The header row and the one user found (the admin is filtered out).
    await expect.poll(() => admin.getByRole('table', { name: 'Пользователи' }).getByRole('row').count()).toBe(2);
    const row = admin.getByRole('table', { name: 'Пользователи' }).getByRole('row').filter({ hasText: USER.email });
    await row.getByText(`${ORGANIZATION} (владелец)`).waitFor();

    await row.getByRole('button', { name: `Начислить токены: ${USER.email}` }).click();
    const credit = admin.getByRole('form', { name: `Начисление токенов: ${USER.first} ${USER.last}` });
    await credit.getByLabel('Сколько токенов').fill('250');
    await credit.getByLabel('Причина').fill('Оплата по счёту № 17');
    await credit.getByRole('button', { name: 'Начислить' }).click();
    await admin.getByText(`Начислено 250 токенов пользователю ${USER.email}. Баланс: 350 токенов.`).waitFor();
    await row.getByRole('cell', { name: '350', exact: true }).waitFor();

    await user.reload();
    await user.getByTestId('balance-value').filter({ hasText: '350' }).waitFor();
    expect(await headerBalance(user)).toBe(350);
    await user.goto('/tokens');
    await user.getByText('Оплата по счёту № 17').first().waitFor();
  });

  it('changes the organization plan; the organization shows its members and balances', async () => {
    await admin.goto('/admin/organizations');
    await admin.getByRole('link', { name: ORGANIZATION }).click();
    await admin.getByRole('heading', { name: ORGANIZATION }).waitFor();
    const members = admin.getByRole('table', { name: 'Участники организации' });
    await members.getByRole('row').filter({ hasText: USER.email }).getByRole('cell', { name: '350', exact: true }).waitFor();
    const plan = admin.getByLabel('Тариф организации');
    await plan.selectOption('business');
    await admin.getByRole('button', { name: 'Сменить тариф' }).click();
    await admin.getByText(`Тариф организации «${ORGANIZATION}»: Бизнес`).waitFor();
    // The owner sees the new plan in the organization's settings.
    const planSeen = await user.evaluate(async () => {
      const res = await fetch('/api/v1/organizations/current', { headers: { authorization: `Bearer ${localStorage.getItem('access_token')}` } });
      return ((await res.json()) as { plan_type: string }).plan_type;
    });
    expect(planSeen).toBe('business');
  });

  it('blocks the user: their open session ends and the login is refused with a reason', async () => {
    await admin.goto(`/admin/users?q=${encodeURIComponent(USER.email)}`);
    await admin.getByRole('button', { name: `Заблокировать ${USER.email}` }).click();
    const dialog = admin.getByRole('alertdialog', { name: `Заблокировать ${USER.email}?` });
    await dialog.getByLabel('Причина (для журнала действий)').fill('Просьба владельца');
    await dialog.getByRole('button', { name: 'Заблокировать' }).click();
    await admin.getByRole('button', { name: `Разблокировать ${USER.email}` }).waitFor();

    // The user's next request is refused, their refresh too: the app sends them to the login screen.
    await user.goto('/projects');
    await user.waitForURL('**/auth');
    const form = user.getByRole('form', { name: 'Вход' });
    await form.getByLabel('Email').fill(USER.email);
    await form.getByLabel('Пароль').fill(USER.password);
    await form.getByRole('button', { name: 'Войти' }).click();
    await user.getByText('Учётная запись заблокирована администратором платформы. Обратитесь в поддержку').waitFor();
  });

  it('the audit log lists every action with who, what and the details', async () => {
    await admin.goto('/admin/audit');
    const log = admin.getByRole('table', { name: 'Журнал действий' });
    await log.getByRole('row').filter({ hasText: 'Пользователь заблокирован' }).getByText('причина: Просьба владельца').waitFor();
    await log.getByRole('row').filter({ hasText: 'Смена тарифа' }).getByText(/было: Бесплатный; стало: Бизнес/).waitFor();
    const credit = log.getByRole('row').filter({ hasText: 'Начисление токенов' });
    await credit.getByText(/сумма: 250; причина: Оплата по счёту № 17/).waitFor();
    expect(await credit.getByRole('cell', { name: E2E_ADMIN.email }).count()).toBe(1);

    await admin.getByLabel('Действие').selectOption({ label: 'Смена тарифа' });
    await admin.waitForURL(/action=organization\.plan_changed/);
    await expect.poll(() => log.getByRole('row').count()).toBe(2);
  });

  it('the overview draws its charts and the runs screen shows the job queues', async () => {
    await admin.goto('/admin');
    await admin.getByRole('img', { name: /^Регистрации по дням за 30 дн\. Всего — Регистрации: 2\.$/ }).waitFor();
    await admin.getByRole('img', { name: /^Токены по дням за 30 дн\. Всего — Начислено: 450, Потрачено: 0\.$/ }).waitFor();
    await admin.getByRole('link', { name: 'Запуски и очереди' }).click();
    await admin.getByText('Неудавшихся запусков нет.').waitFor();
    await admin.getByRole('table', { name: 'Очереди задач' }).getByRole('cell', { name: 'Аудиты' }).waitFor();
  });
});
