import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newContext } from './browser.js';
import { login } from './flows.js';
import { startServer, type RunningServer } from './server.js';

/** The admin account the server creates on its first start (ADMIN_EMAIL, ADMIN_PASSWORD). */
export const E2E_ADMIN = { email: 'admin@e2e.test', password: 'AdminPass123' };

export interface AdminSessionOptions {
  /** More environment for the server (an LLM's address, say). */
  env?: Record<string, string>;
  admin?: { email: string; password: string };
  /** The browser window; a desktop one unless given. */
  viewport?: { width: number; height: number };
}

export interface AdminSession {
  server: RunningServer;
  browser: Browser;
  /** A page of a fresh context, signed in as the admin, on the projects list. */
  page: Page;
  /** Closes the browser and stops the server. */
  close: () => Promise<void>;
}

/**
 * The production build on a fresh database with an admin account, Chromium, and a page signed in as that
 * admin: what most browser tests start from. When a step fails, what was already started is stopped.
 */
export async function startAdminSession(options: AdminSessionOptions = {}): Promise<AdminSession> {
  const admin = options.admin ?? E2E_ADMIN;
  const server = await startServer({ ...options.env, ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password });
  let browser: Browser | undefined;
  const close = async () => {
    try {
      await browser?.close();
    } finally {
      await server.stop();
    }
  };
  try {
    browser = await launchBrowser();
    const page = await (await newContext(browser, server.url, options.viewport)).newPage();
    await login(page, admin);
    return { server, browser, page, close };
  } catch (error) {
    await close();
    throw error;
  }
}
