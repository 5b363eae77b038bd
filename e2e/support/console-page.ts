import type { BrowserContext, Page } from 'playwright-core';
import { type Person, signInToDashboard } from './console-account.js';
import { type ConsoleSession, screenshot, type viewports } from './console-server.js';

// Opening and photographing console pages as a person sees them.

/** Viewport names a page opens at; Theme is the console's stored theme choice. */
export type Viewport = keyof typeof viewports;
export type Theme = 'light' | 'dark';

/** LOOKS are the viewport and theme pairs, beside desktop light, that each screen must look finished in. */
const LOOKS: ReadonlyArray<readonly [Viewport, Theme]> = [
  ['phone', 'light'],
  ['phone', 'dark'],
  ['desktop', 'dark'],
];

/**
 * openConsolePage opens a fresh browser context as a returning person has it: onboarding done, the theme
 * chosen and the clipboard allowed. The theme is stored on the first load only, so a theme chosen during a
 * test survives a reload.
 */
export async function openConsolePage(
  session: ConsoleSession,
  viewport: Viewport,
  theme: Theme = 'light',
): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await session.newPage(viewport);
  await opened.context.addInitScript((chosen) => {
    localStorage.setItem('basalt-onboarding-completed', 'true');
    if (!localStorage.getItem('basalt-theme')) localStorage.setItem('basalt-theme', chosen);
  }, theme);
  await opened.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: session.server.url });
  return opened;
}

/** shot saves a full-page screenshot from the top, so the sticky top bar sits where a person sees it. */
export async function shot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

/**
 * forEachLook signs the person in once in each of LOOKS, in a fresh context, and hands the page to visit with
 * the suffix its screenshots take ("phone", "phone-dark", "desktop-dark").
 */
export async function forEachLook(
  session: ConsoleSession,
  who: Person,
  visit: (page: Page, suffix: string) => Promise<void>,
): Promise<void> {
  for (const [viewport, theme] of LOOKS) {
    const { page, context } = await openConsolePage(session, viewport, theme);
    await signInToDashboard(page, who);
    await visit(page, `${viewport}${theme === 'dark' ? '-dark' : ''}`);
    await context.close();
  }
}
