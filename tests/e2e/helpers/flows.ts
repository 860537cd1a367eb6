import type { Page } from 'playwright-core';

/** Logs in through the «Вход» tab of /auth and waits for the landing page. */
export async function login(page: Page, who: { email: string; password: string }): Promise<void> {
  await page.goto('/auth');
  const form = page.getByRole('form', { name: 'Вход' });
  await form.getByLabel('Email').fill(who.email);
  await form.getByLabel('Пароль').fill(who.password);
  await form.getByRole('button', { name: 'Войти' }).click();
  await page.waitForURL('**/projects');
}

export interface NewProject {
  name: string;
  site: string;
  /** The platform radio's label: 'Яндекс Директ', 'Google Ads', 'VK Ads'. */
  platform: string;
  /** Absolute paths of the export files to upload in step 2. */
  files: string[];
}

/**
 * Creates a project the way a user does: step 1 (name, site, platform), step 2 (upload, check the
 * preview, save), and waits for the project page. Returns the project's id from its address.
 */
export async function createProjectFromFiles(page: Page, project: NewProject): Promise<string> {
  await page.goto('/projects/create/step1');
  const step1 = page.getByRole('form', { name: 'Новый проект: шаг 1' });
  await step1.getByLabel('Название проекта').fill(project.name);
  await step1.getByLabel('Сайт').fill(project.site);
  await step1.getByRole('radio', { name: project.platform }).check();
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
