import type { Page } from 'playwright-core';
import { visible } from './console-waits.js';

// A person's account as the console's auth page handles it: register, sign in, and the token the page holds.

/** Person is who a browser test acts as. */
export interface Person {
  username: string;
  email: string;
  password: string;
}

/** register fills and submits the Register tab on /auth; it does not wait for the outcome. */
export async function register(page: Page, who: Person): Promise<void> {
  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Register' }).click();
  await page.getByLabel('Username').fill(who.username);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByLabel('Confirm Password').fill(who.password);
  // The terms are asked only when the operator set some (Settings → Instance).
  const terms = page.getByRole('checkbox', { name: /terms/i });
  if (await terms.count()) await terms.check();
  await page.getByRole('button', { name: 'Create account' }).click();
}

/** registerAndSignIn registers a new account and waits for the dashboard it lands on (onboarding done). */
export async function registerAndSignIn(page: Page, who: Person): Promise<void> {
  await register(page, who);
  await dashboard(page);
}

/** signIn fills and submits the Login tab on /auth; it does not wait for the outcome. */
export async function signIn(page: Page, who: Pick<Person, 'email' | 'password'>): Promise<void> {
  await page.goto('/auth');
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** signInToDashboard signs in and waits for the dashboard (onboarding done). */
export async function signInToDashboard(page: Page, who: Pick<Person, 'email' | 'password'>): Promise<void> {
  await signIn(page, who);
  await dashboard(page);
}

/** dashboard waits for the dashboard's heading. */
export function dashboard(page: Page): Promise<void> {
  return visible(page.getByRole('heading', { level: 1, name: 'Dashboard' }));
}

/** accessToken reads the signed-in person's token from supabase-js's storage in the page. */
export function accessToken(page: Page): Promise<string> {
  return page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => /^sb-.*-auth-token$/.test(k));
    const stored = key ? JSON.parse(localStorage.getItem(key) ?? '{}') : {};
    return String(stored.access_token ?? '');
  });
}
