import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appOf, signUpEndUser } from './support/app-api.js';
import { browserSkipReason } from './support/chromium.js';
import { accessToken, registerAndSignIn, signInToDashboard } from './support/console-account.js';
import { forEachLook, openConsolePage, shot } from './support/console-page.js';
import { type ConsoleSession, startConsoleSession } from './support/console-server.js';
import { settledDialog, toast, visible } from './support/console-waits.js';

// The Users page as a developer meets it: the app's users, who signed up
// through the app, searched on the server and paged; Add User and Edit dialogs with the spec's messages; ban and
// delete; the empty texts; an administrator's Console accounts; screenshots at 1280 and 375 px, light and dark.

const skip = browserSkipReason();
const ada = { username: 'ada_l', email: 'ada@example.com', password: 'Engine!1843' };
const newcomer = { username: 'newcomer', email: 'newcomer@example.com', password: 'Engine!1844' };

describe.skipIf(skip)('the Users page in Chromium', () => {
  let session: ConsoleSession;
  beforeAll(async () => {
    session = await startConsoleSession();
  });
  afterAll(() => session?.close());

  it('lists, searches, pages, adds, edits, bans and deletes the users of the app', async () => {
    const { page, context } = await openConsolePage(session, 'desktop');
    await registerAndSignIn(page, ada);
    const app = await appOf(session, await accessToken(page));
    for (let i = 1; i <= 23; i++) {
      await signUpEndUser(session, app, `member${i}@club.example`, `member_${i}`);
    }

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Users' }));
    const table = page.getByRole('table', { name: 'Users' });
    await visible(table.getByRole('cell', { name: 'member23@club.example' }));
    expect(await table.getByRole('columnheader').allTextContents()).toEqual([
      'ID',
      'Username',
      'Email',
      'Created At',
      'Last sign-in',
      'Actions',
    ]);
    await visible(page.getByText('Page 1 of 2'));
    await shot(page, 'users-desktop');
    await page.getByRole('button', { name: 'Next page' }).click();
    await visible(page.getByText('Page 2 of 2'));
    await visible(table.getByRole('cell', { name: 'member1@club.example' }));

    // The search runs on the server, ignoring case, over usernames and emails.
    const search = page.getByRole('searchbox', { name: 'Search users' });
    await search.fill('MEMBER_1');
    await visible(page.getByText('11 users'));
    await visible(table.getByText('member_19'));
    await search.fill('nobody-like-this');
    await visible(page.getByText('No users matching your search criteria'));
    await shot(page, 'users-no-match-desktop');
    await search.fill('');
    await visible(page.getByText('23 users'));

    // Add User: the spec's messages, then a user who can sign in to the app.
    await page.getByRole('button', { name: 'Add User' }).first().click();
    const add = page.getByRole('dialog', { name: 'Add User' });
    await settledDialog(add);
    await add.getByLabel('Username').fill('gr');
    await add.getByLabel('Email').fill('not-an-email');
    await add.getByLabel('Password', { exact: true }).fill('short');
    await add.getByLabel('Confirm password').fill('other');
    await add.getByRole('button', { name: 'Add User' }).click();
    await visible(add.getByText('Username must be at least 3 characters'));
    await visible(add.getByText('Invalid email address'));
    await visible(add.getByText('Password must be at least 6 characters'));
    await visible(add.getByText("Passwords don't match"));
    await shot(page, 'users-add-errors-desktop');
    await add.getByLabel('Username').fill('grace');
    await add.getByLabel('Email').fill('grace@example.com');
    await add.getByLabel('Password', { exact: true }).fill('long enough');
    await add.getByLabel('Confirm password').fill('long enough');
    await add.getByRole('button', { name: 'Add User' }).click();
    await toast(page, 'User created');
    await visible(table.getByRole('cell', { name: 'grace@example.com' }));
    const signIn = await fetch(`${session.server.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: app.anonKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'grace@example.com', password: 'long enough' }),
    });
    expect(signIn.status).toBe(200);

    // A duplicate email is refused under its field.
    await page.getByRole('button', { name: 'Add User' }).first().click();
    await settledDialog(add);
    await add.getByLabel('Username').fill('grace2');
    await add.getByLabel('Email').fill('grace@example.com');
    await add.getByLabel('Password', { exact: true }).fill('long enough');
    await add.getByLabel('Confirm password').fill('long enough');
    await add.getByRole('button', { name: 'Add User' }).click();
    await toast(page, 'Failed to create user');
    await visible(add.getByText('A user with this email address already exists'));
    await add.getByRole('button', { name: 'Cancel' }).click();

    // Edit.
    await page.getByRole('button', { name: 'Actions for grace' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit User' });
    await settledDialog(edit);
    await edit.getByLabel('Username').fill('ab');
    await edit.getByLabel('Email').fill('x');
    await edit.getByRole('button', { name: 'Save' }).click();
    await visible(edit.getByText('Username must be at least 3 characters'));
    await visible(edit.getByText('Invalid email address'));
    await shot(page, 'users-edit-errors-desktop');
    await edit.getByLabel('Username').fill('grace_h');
    await edit.getByLabel('Email').fill('grace.h@example.com');
    await edit.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'User updated');
    await visible(table.getByRole('cell', { name: 'grace.h@example.com' }));

    // Ban, then delete with the spec's confirmation.
    await page.getByRole('button', { name: 'Actions for grace_h' }).click();
    await page.getByRole('menuitem', { name: 'Ban' }).click();
    await toast(page, 'User banned');
    await visible(table.getByText('Banned'));
    await page.getByRole('button', { name: 'Actions for grace_h' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog');
    await visible(
      confirm.getByText('Are you sure you want to delete the user "grace_h"? This action cannot be undone.'),
    );
    await shot(page, 'users-delete-confirm-desktop');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'User deleted');
    await visible(page.getByText('23 users'));

    // The first account is the instance's administrator: it also sees the console accounts.
    await page.getByRole('tab', { name: 'Console accounts' }).click();
    await visible(page.getByRole('table', { name: 'Console accounts' }).getByRole('cell', { name: ada.email }));
    expect(await page.getByRole('table', { name: 'Console accounts' }).getByText('member1@club.example').count()).toBe(
      0,
    );
    await shot(page, 'users-console-accounts-desktop');
    await context.close();
  });

  it('says "No users available" to a developer whose app has none, at every size and theme', async () => {
    const { page, context } = await openConsolePage(session, 'desktop');
    await registerAndSignIn(page, newcomer);
    await page.goto('/users');
    await visible(page.getByText('No users available'));
    // Not an administrator: no console accounts.
    expect(await page.getByRole('tab', { name: 'Console accounts' }).count()).toBe(0);
    await shot(page, 'users-empty-desktop');
    await context.close();

    await forEachLook(session, ada, async (looked, suffix) => {
      await looked.goto('/users');
      await visible(looked.getByRole('table', { name: 'Users' }).getByText('member_23'));
      await shot(looked, `users-${suffix}`);
      await looked.getByRole('button', { name: 'Add User' }).first().click();
      await settledDialog(looked.getByRole('dialog', { name: 'Add User' }));
      await shot(looked, `users-add-${suffix}`);
    });
  });

  it('keeps the signed-in state of a returning developer', async () => {
    const { page, context } = await openConsolePage(session, 'phone');
    await signInToDashboard(page, ada);
    await page.goto('/users');
    await visible(page.getByRole('heading', { level: 1, name: 'Users' }));
    await context.close();
  });
});
