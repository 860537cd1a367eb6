/**
 * `npm run screenshots`: the main screens of the production build at a 360×740 phone and a 1366×900
 * desktop, as PNG files in `screenshots/` (git-ignored), so reviewers can look without running the app.
 * Starts the built server on a fresh database (as the browser tests do), creates a project from the
 * import fixture, runs an audit, then visits every screen in both sizes. Needs `npm run build` first.
 */
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newContext } from './helpers/browser.js';
import { createProjectFromFiles, login, runAnalysisToCompletion } from './helpers/flows.js';
import { startServer } from './helpers/server.js';

const root = path.resolve(new URL('../..', import.meta.url).pathname);
const outDir = path.join(root, 'screenshots');
const ADMIN = { email: 'admin@screens.test', password: 'AdminPass123' };
const SIZES = [
  { name: 'phone', viewport: { width: 360, height: 740 } },
  { name: 'desktop', viewport: { width: 1366, height: 900 } },
] as const;

async function signedInPage(browser: Browser, url: string, viewport: { width: number; height: number }): Promise<Page> {
  const context = await newContext(browser, url, viewport);
  // The cookie question answered: the screenshots show the screens, not the banner.
  await context.addInitScript(() => window.localStorage.setItem('cookie_consent_given', 'true'));
  const page = await context.newPage();
  await login(page, ADMIN);
  return page;
}

async function shoot(page: Page, size: string, name: string, route: string): Promise<void> {
  await page.goto(route);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await page.waitForLoadState('networkidle');
  const file = path.join(outDir, `${size}-${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  console.log(`  ${path.relative(root, file)}`);
}

async function main() {
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  const server = await startServer({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
  const browser = await launchBrowser();
  try {
    const setup = await signedInPage(browser, server.url, SIZES[1].viewport);
    const projectId = await createProjectFromFiles(setup, {
      name: 'Диваны Комфорт',
      site: 'divany-komfort.example',
      platform: 'Яндекс Директ',
      files: [path.join(root, 'tests/fixtures/imports/direct-export-utf8-bom.csv')],
      targetCpa: 1500,
    });
    const { analysisId } = await runAnalysisToCompletion(setup, projectId);
    // The results screen makes the client's share link; a guest's page of it is shot below.
    await setup.getByTestId('create-share-link').click();
    const sharePath = new URL(await setup.getByTestId('share-link-url').innerText()).pathname;
    await setup.context().close();

    const screens: [string, string][] = [
      ['projects', '/projects'],
      ['board', '/board'],
      ['project', `/projects/${projectId}`],
      ['analysis-new', `/projects/${projectId}/analysis/new`],
      ['analysis-history', `/projects/${projectId}/analysis/history`],
      ['analysis-results', `/projects/${projectId}/analysis/${analysisId}/results`],
      ['analysis-suggestions', `/projects/${projectId}/analysis/${analysisId}/semantic`],
      ['analysis-plan', `/projects/${projectId}/analysis/${analysisId}/ai-plan/${analysisId}`],
      ['change-sets', `/projects/${projectId}/changes`],
      ['page-check-new', `/projects/${projectId}/page-check/new`],
      ['project-create', '/projects/create/step1'],
      ['tokens', '/tokens'],
      ['organization', '/organization'],
      ['admin', '/admin'],
      ['about', '/about'],
    ];
    for (const size of SIZES) {
      console.log(`${size.name} ${size.viewport.width}×${size.viewport.height}:`);
      const page = await signedInPage(browser, server.url, size.viewport);
      for (const [name, route] of screens) await shoot(page, size.name, name, route);
      await page.context().close();
      const guest = await (await newContext(browser, server.url, size.viewport)).newPage();
      await guest.goto('/auth');
      await guest.getByRole('form', { name: 'Вход' }).waitFor();
      await guest.screenshot({ path: path.join(outDir, `${size.name}-auth.png`), fullPage: true });
      console.log(`  screenshots/${size.name}-auth.png`);
      await shoot(guest, size.name, 'shared-report', sharePath);
      await guest.context().close();
    }
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
