import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../packages/server/src/testing/auth-flows.fixtures.js';
import { type OidcIssuer, startOidcIssuer } from '../packages/server/src/testing/oidc.fixtures.js';
import { browserSkipReason } from './support/chromium.js';
import { dashboard, registerAndSignIn, signIn } from './support/console-account.js';
import { openConsolePage, shot, type Theme, type Viewport } from './support/console-page.js';
import { type ConsoleSession, startConsoleSession } from './support/console-server.js';
import { toast, visible } from './support/console-waits.js';

// A person turns on two-factor authentication in Settings › Account (QR code, key, first code), signs out, and
// signing in asks for the authenticator's code before the console opens. Another signs in with "Continue with
// Acme", an OpenID Connect provider the operator configured (a local oidc-provider here). Screenshots at 1280 and
// 375 px, light and dark.

const skip = browserSkipReason();
const grace = { username: 'grace', email: 'grace@example.com', password: 'Cobol!1959x' };
const LOOKS: ReadonlyArray<readonly [Viewport, Theme, string]> = [
  ['desktop', 'light', 'desktop'],
  ['desktop', 'dark', 'desktop-dark'],
  ['phone', 'light', 'phone'],
  ['phone', 'dark', 'phone-dark'],
];

describe.skipIf(skip)('two-factor authentication and OpenID Connect sign-in in Chromium', () => {
  let session: ConsoleSession;
  let issuer: OidcIssuer;
  beforeAll(async () => {
    issuer = await startOidcIssuer();
    session = await startConsoleSession('sqlite', {
      oauthProviders: [
        {
          kind: 'oidc',
          id: 'custom:acme',
          name: 'Acme',
          clientId: 'console',
          clientSecret: 'console-secret',
          url: issuer.issuer,
        },
      ],
    });
    issuer.register([
      { clientId: 'console', clientSecret: 'console-secret', redirectUri: `${session.server.url}/auth/v1/callback` },
    ]);
  });
  afterAll(async () => {
    await session?.close();
    await issuer?.close();
  });

  it('turns two-factor authentication on in Settings, then asks for the code at sign-in', async () => {
    const { page, context } = await openConsolePage(session, 'desktop');
    await registerAndSignIn(page, grace);
    await page.goto('/settings?tab=account');
    await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    await visible(page.getByAltText('QR code for your authenticator app'));
    const secret = (await page.getByTestId('totp-secret').textContent()) ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await shot(page, 'mfa-setup-desktop');
    await page.getByLabel('6-digit code').fill('000000');
    await page.getByRole('button', { name: 'Verify and turn on' }).click();
    await visible(page.getByText('Invalid TOTP code entered'));
    await page.getByLabel('6-digit code').fill(totpCode(secret));
    await page.getByRole('button', { name: 'Verify and turn on' }).click();
    await toast(page, 'Two-factor authentication is on');
    await visible(page.getByRole('button', { name: 'Turn off' }));
    await shot(page, 'mfa-on-desktop');
    await context.close();

    // Each look shows the code step; the last signs in with the next code (the first one was used).
    for (const [index, [viewport, theme, suffix]] of LOOKS.entries()) {
      const opened = await openConsolePage(session, viewport, theme);
      await signIn(opened.page, grace);
      await visible(opened.page.getByRole('heading', { name: 'Two-factor authentication' }));
      await shot(opened.page, `mfa-challenge-${suffix}`);
      if (index === LOOKS.length - 1) {
        await opened.page.getByLabel('Authentication code').fill('123');
        await opened.page.getByRole('button', { name: 'Verify' }).click();
        await visible(opened.page.getByText('Enter the 6-digit code from your authenticator app'));
        await opened.page.getByLabel('Authentication code').fill(totpCode(secret, 1));
        await opened.page.getByRole('button', { name: 'Verify' }).click();
        await dashboard(opened.page);
        // The guard holds: a reload stays signed in at aal2.
        await opened.page.reload();
        await dashboard(opened.page);
      } else {
        // Until the code is entered the console stays closed.
        await opened.page.goto('/tables');
        await visible(opened.page.getByRole('heading', { name: 'Two-factor authentication' }));
      }
      await opened.context.close();
    }
  });

  it('signs in with the configured OpenID Connect provider', async () => {
    for (const [viewport, theme, suffix] of LOOKS.slice(1)) {
      const opened = await openConsolePage(session, viewport, theme);
      await opened.page.goto('/auth');
      await visible(opened.page.getByRole('button', { name: 'Continue with Acme' }));
      await shot(opened.page, `auth-providers-${suffix}`);
      await opened.context.close();
    }
    issuer.signInAs({ sub: 'ada-acme', email: 'ada@acme.test', email_verified: true, name: 'Ada Lovelace' });
    const { page, context } = await openConsolePage(session, 'desktop');
    await page.goto('/auth');
    await visible(page.getByRole('button', { name: 'Continue with Acme' }));
    await shot(page, 'auth-providers-desktop');
    await page.getByRole('button', { name: 'Continue with Acme' }).click();
    await dashboard(page);
    await page.goto('/settings?tab=account');
    await visible(page.getByText('Two-factor authentication'));
    const me = await page.evaluate(async () => {
      const key = Object.keys(localStorage).find((k) => /^sb-.*-auth-token$/.test(k));
      return JSON.parse(localStorage.getItem(key ?? '') ?? '{}').user;
    });
    expect(me).toMatchObject({ email: 'ada@acme.test', app_metadata: { provider: 'custom:acme' } });
    await context.close();
  });
});
