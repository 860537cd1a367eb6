import type { Page } from 'playwright-core';
import { linkFromMail, type ReceivedMail } from './mailbox.js';

/** Logs in through the «Вход» tab of /auth and waits for the landing page. */
export async function login(page: Page, who: { email: string; password: string }): Promise<void> {
  await page.goto('/auth');
  const form = page.getByRole('form', { name: 'Вход' });
  await form.getByLabel('Email').fill(who.email);
  await form.getByLabel('Пароль').fill(who.password);
  await form.getByRole('button', { name: 'Войти' }).click();
  await page.waitForURL('**/projects');
}

export interface NewUser {
  email: string;
  password: string;
  first: string;
  last: string;
}

/**
 * Fills and submits the «Регистрация» tab of /auth, creating an organization or joining one by its code,
 * and waits for «Проверьте почту» (a registration starts no session: issue 27).
 */
export async function submitRegistration(page: Page, who: NewUser, organization: { create: string } | { join: string }): Promise<void> {
  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Регистрация' }).click();
  const form = page.getByRole('form', { name: 'Регистрация' });
  await form.getByLabel('Имя', { exact: true }).fill(who.first);
  await form.getByLabel('Фамилия').fill(who.last);
  await form.getByLabel('Email').fill(who.email);
  await form.getByLabel('Пароль', { exact: true }).fill(who.password);
  if ('create' in organization) {
    await form.getByLabel('Название организации').fill(organization.create);
  } else {
    await form.getByRole('radio', { name: 'Присоединиться по коду' }).check();
    await form.getByLabel('Код приглашения').fill(organization.join);
  }
  await form.getByRole('checkbox').check();
  await form.getByRole('button', { name: 'Зарегистрироваться' }).click();
  await page.getByRole('heading', { name: 'Проверьте почту' }).waitFor();
}

/**
 * Opens the verification link of the mail sent to `who` (on this server), as a guest: the link verifies
 * the address without logging in, so then signs in and waits for the landing page.
 */
export async function verifyEmailFromMail(page: Page, mailbox: { waitForMail(to: string): Promise<ReceivedMail> }, who: { email: string; password: string }): Promise<void> {
  const link = linkFromMail(await mailbox.waitForMail(who.email), '/auth/verify-email?token=');
  await page.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  await page.getByText('Email подтверждён. Теперь войдите со своим email и паролем.').waitFor();
  await login(page, who);
}

export interface NewProject {
  name: string;
  site: string;
  /** The platform radio's label: 'Яндекс Директ', 'Google Ads', 'VK Ads'. */
  platform: string;
  /** Absolute paths of the export files to upload in step 2. */
  files: string[];
  /** Target cost of a conversion in roubles; the field stays empty without it. */
  targetCpa?: number;
}

/**
 * Creates a project the way a user does: step 1 (name, site, platform, target CPA), step 2 (upload, check the
 * preview, save), and waits for the project page. Returns the project's id from its address.
 */
export async function createProjectFromFiles(page: Page, project: NewProject): Promise<string> {
  await page.goto('/projects/create/step1');
  const step1 = page.getByRole('form', { name: 'Новый проект: шаг 1' });
  await step1.getByLabel('Название проекта').fill(project.name);
  await step1.getByLabel('Сайт').fill(project.site);
  await step1.getByRole('radio', { name: project.platform }).check();
  if (project.targetCpa !== undefined) await step1.getByLabel('Целевая цена конверсии, ₽ (необязательно)').fill(String(project.targetCpa));
  await step1.getByRole('button', { name: 'Далее' }).click();
  await page.waitForURL('**/projects/create/step2');

  await page.getByLabel('Файлы выгрузки').setInputFiles(project.files);
  await page.getByRole('button', { name: 'Проверить файлы' }).click();
  await page.getByRole('region', { name: 'Что будет импортировано' }).waitFor();
  await page.getByRole('button', { name: 'Сохранить проект' }).click();
  await page.waitForURL(/\/projects\/[0-9a-f-]{36}$/);
  await page.getByRole('heading', { level: 1, name: project.name }).waitFor();
  return new URL(page.url()).pathname.split('/').at(-1)!;
}

/** The header's balance as a number ('1 234' → 1234), once it is loaded. */
export async function headerBalance(page: Page): Promise<number> {
  const value = page.getByTestId('balance-value').filter({ hasText: /^\d[\d\s\u00a0]*$/ });
  return Number((await value.innerText()).replace(/\D/g, ''));
}

/** A pattern of this number as the PWA writes it (ru-RU groups digits: '1 234'), whatever the space. */
export const ruNumberPattern = (value: number) => value.toLocaleString('ru-RU').replace(/\s/g, '\\s');

/** A text that is exactly this number as the PWA writes it. */
export const exactNumber = (value: number) => new RegExp(`^${ruNumberPattern(value)}$`);

export interface StartedAnalysis {
  analysisId: string;
  /** The price the new-analysis screen showed, as text («12 токенов») and as a number. */
  costText: string;
  cost: number;
}

/** From the project page: «Новый анализ». */
export async function openNewAnalysis(page: Page, projectId: string): Promise<void> {
  await page.getByRole('link', { name: 'Новый анализ' }).click();
  await page.waitForURL(`**/projects/${projectId}/analysis/new`);
}

/** On the new-analysis screen with campaigns chosen: waits for the price, starts, and waits for the progress screen. */
export async function startAnalysis(page: Page): Promise<StartedAnalysis> {
  const costText = await page.getByTestId('analysis-cost').innerText();
  await page.getByRole('button', { name: 'Запустить анализ' }).click();
  await page.waitForURL(/\/analysis\/[0-9a-f-]{36}\/scoring-progress$/);
  const analysisId = new URL(page.url()).pathname.split('/').at(-2)!;
  return { analysisId, costText, cost: Number(costText.replace(/\D/g, '')) };
}

/**
 * On the progress screen: waits for «100 %» and returns how full the bar is drawn in the frame that first
 * shows it (1 = full), then waits for the move on to the results.
 */
export async function waitForAnalysisToFinish(page: Page, projectId: string, analysisId: string): Promise<number> {
  // Looked at every frame (no named functions inside: tsx would wrap them in a helper the page lacks).
  const firstFrameAtHundred = await page.waitForFunction(
    () => {
      const percent = document.querySelector('[data-testid="analysis-percent"]');
      const bar = document.querySelector('[role="progressbar"][aria-label="Ход анализа"]');
      const fill = bar?.firstElementChild;
      return percent?.textContent === '100 %' && bar && fill ? { drawn: fill.getBoundingClientRect().width / bar.getBoundingClientRect().width } : null;
    },
    undefined,
    { polling: 'raf' },
  );
  const { drawn: drawnAtHundred } = (await firstFrameAtHundred.jsonValue())!;
  await page.locator('[role="progressbar"][aria-label="Ход анализа"][aria-valuenow="100"]').waitFor();
  await page.waitForURL(`**/projects/${projectId}/analysis/${analysisId}/results`);
  return drawnAtHundred;
}

/**
 * From the project page: a new analysis of the campaigns chosen by default, run to completion; ends
 * on the results screen.
 */
export async function runAnalysisToCompletion(page: Page, projectId: string): Promise<StartedAnalysis> {
  await openNewAnalysis(page, projectId);
  const started = await startAnalysis(page);
  await waitForAnalysisToFinish(page, projectId, started.analysisId);
  return started;
}

/** Step 1 of «Новый проект» for Yandex Direct, submitted; waits for step 2 (where the campaigns come from). */
export async function startDirectProject(page: Page, project: { name: string; site: string }): Promise<void> {
  await page.goto('/projects/create/step1');
  const step1 = page.getByRole('form', { name: 'Новый проект: шаг 1' });
  await step1.getByLabel('Название проекта').fill(project.name);
  await step1.getByLabel('Сайт').fill(project.site);
  await step1.getByRole('radio', { name: 'Яндекс Директ' }).check();
  await step1.getByRole('button', { name: 'Далее' }).click();
  await page.waitForURL('**/projects/create/step2');
}
