import type { Page } from 'playwright-core';
import { afterEach } from 'vitest';
import type { RunningServer } from './server.js';

/**
 * After a failed test, prints what a person would look at first: where each page is, what its
 * header and alerts say, and the end of the server's own log (warnings and errors). A test that
 * fails once in CI can then be explained from the log instead of guessed at.
 */
export function describeFailures(server: () => RunningServer | undefined, pages: () => Record<string, Page | undefined>): void {
  afterEach(async (context) => {
    if (context.task.result?.state !== 'fail') return;
    const lines: string[] = [`Failed: ${context.task.name}`];
    for (const [name, page] of Object.entries(pages())) {
      if (!page || page.isClosed()) continue;
      const header = await page.locator('header').first().innerText({ timeout: 1_000 }).catch(() => '(no header)');
      const alerts = await page.getByRole('alert').allInnerTexts().catch(() => []);
      const tokens = await page.evaluate(() => ({ access: Boolean(localStorage.getItem('access_token')), refresh: Boolean(localStorage.getItem('refresh_token')) })).catch(() => null);
      lines.push(`${name}: ${page.url()} | header: ${header.replace(/\s+/g, ' ')} | alerts: ${alerts.join(' / ') || 'none'} | tokens: ${JSON.stringify(tokens)}`);
    }
    lines.push('Server log (last 4 000 characters):', server()?.output().slice(-4_000) || '(empty)');
    console.error(lines.join('\n'));
  });
}
