import type { Locator, Page } from 'playwright-core';

// Waits on what a person sees. They are generous (15 s): two shared cores run the server, the browser and
// the tests at once.

/** VISIBLE is how long a wait for something on screen lasts. */
export const VISIBLE = { timeout: 15_000 } as const;

/** visible waits until a locator shows. */
export const visible = (locator: Locator) => locator.first().waitFor({ state: 'visible', ...VISIBLE });

/** toast waits until a toast with exactly this title shows. */
export const toast = (page: Page, title: string) => visible(page.getByText(title, { exact: true }));

/** settledDialog waits until a dialog shows and has finished its opening animation, ready for a screenshot. */
export async function settledDialog(dialog: Locator): Promise<void> {
  await visible(dialog);
  await dialog.page().waitForTimeout(300);
}

/** chartsDrawn waits until the charts in `within` are drawn (their drawing loads on first use), for a screenshot. */
export const chartsDrawn = (within: Page | Locator) => visible(within.locator('svg.recharts-surface'));
