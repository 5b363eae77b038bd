import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Config } from '../../packages/server/src/config.js';
import type { DialectName } from '../../packages/server/src/db/dialect/dialect.js';
import { startTestServer, type TestServer } from '../../packages/server/src/testing/test-server.js';
import { launchChromium } from './chromium.js';

/** CONSOLE_DIR is the built console the e2e server serves. */
export const CONSOLE_DIR = path.resolve(import.meta.dirname, '../../packages/console/dist');
/** SCREENSHOT_DIR is where the browser tests save what a person would see. */
export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, '../screenshots');

/** Viewports the console must look finished at. */
export const viewports = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 375, height: 740 },
} as const;

/** ConsoleSession is a Basalt server serving the built console, and a browser pointed at it. */
export interface ConsoleSession {
  server: TestServer;
  browser: Browser;
  /** newPage opens a fresh browser context (empty local storage) at a viewport. */
  newPage(viewport?: keyof typeof viewports): Promise<{ context: BrowserContext; page: Page }>;
  close(): Promise<void>;
}

/**
 * startConsoleSession starts a server on a fresh database (SQLite unless asked) with the console, and Chromium;
 * overrides change the server's configuration.
 */
export async function startConsoleSession(
  dialect: DialectName = 'sqlite',
  overrides: Partial<Config> = {},
): Promise<ConsoleSession> {
  // The server serves a copy: another run's build replaces dist/ (new hashed chunks) while this one is running.
  const consoleDir = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-console-'));
  await fs.cp(CONSOLE_DIR, consoleDir, { recursive: true });
  const server = await startTestServer(dialect, { ...overrides, consoleDir });
  const browser = await launchChromium();
  return {
    server,
    browser,
    async newPage(viewport = 'desktop') {
      const context = await browser.newContext({ baseURL: server.url, viewport: viewports[viewport] });
      const page = await context.newPage();
      return { context, page };
    },
    async close() {
      await browser.close();
      await server.close();
      await fs.rm(consoleDir, { recursive: true, force: true });
    },
  };
}

/** screenshot saves the page as e2e/screenshots/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}
