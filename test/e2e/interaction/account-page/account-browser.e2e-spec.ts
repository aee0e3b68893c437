import { createServer } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createUser } from '../../../factories';
import {
  authorizeInteractively,
  browser,
  exchangeCode,
  oauthSetup,
  PASSWORD,
  pkce,
  tokenRequest,
} from '../../../support/oauth';
import { createTestApp, TestApp } from '../../../support/test-app';
import { launchChromium } from '../../../support/chromium';

// The account page in Debian's Chromium driven by playwright-core: the forms without JavaScript,
// the passkey controls with it (a virtual authenticator of the Chrome DevTools Protocol).
// Chromium is required, never skipped (scripts/test-prerequisites.sh installs it).

/** A port that is free now: PUBLIC_BASE_URL (the WebAuthn origin) must name it before boot. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

describe('Account page in Chromium', () => {
  let t: TestApp;
  let base: string;
  let chromium: Browser;

  beforeAll(async () => {
    const port = await freePort();
    // localhost, not 127.0.0.1: Chromium refuses an IP literal as a WebAuthn relying-party id.
    base = `http://localhost:${port}`;
    t = await createTestApp({ env: { PUBLIC_BASE_URL: base }, port });
    chromium = await launchChromium(['--host-resolver-rules=MAP localhost 127.0.0.1']);
  });
  afterAll(async () => {
    await chromium?.close();
    await t?.close();
  });
  beforeEach(() => t.truncate());

  /** Script errors and CSP violations of a page, collected. */
  function watch(page: Page): string[] {
    const problems: string[] = [];
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    return problems;
  }

  async function signIn(page: Page): Promise<void> {
    await page.goto(`${base}/account`);
    expect(new URL(page.url()).pathname).toBe('/account/login');
    await page.getByLabel('Username or email').fill('alice');
    await page.getByLabel('Password').fill(PASSWORD);
    await Promise.all([page.waitForURL(`${base}/account`), page.click('button[type="submit"]')]);
  }

  it('without JavaScript: signs in, shows the authorized application, revokes it; the client is refused', async () => {
    const { application } = await oauthSetup(t.app);
    const { verifier, challenge } = pkce();
    const { code } = await authorizeInteractively(browser(t.app), {
      clientId: application.clientId,
      challenge,
    });
    const tokens = await exchangeCode(t.app, application.clientId, code, verifier);

    const context = await chromium.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const problems = watch(page);
    await signIn(page);
    const row = page.locator('#applications tr[data-application-id]');
    await expect(row.textContent()).resolves.toContain('Demo App');
    await expect(page.locator('#sign-ins tbody tr').count()).resolves.toBe(2);
    await page.screenshot({ path: '/tmp/account-page.png', fullPage: true });

    await Promise.all([
      page.waitForURL(`${base}/account?done=revoked`),
      row.getByRole('button', { name: 'Revoke' }).click(),
    ]);
    await expect(page.locator('.alert.ok').textContent()).resolves.toContain('access was revoked');
    expect(await page.locator('#applications tr[data-application-id]').count()).toBe(0);
    const refused = await tokenRequest(t.app, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: application.clientId,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_grant');

    // The profile form works without JavaScript too; then sign out.
    await page.getByLabel('Nickname').fill('Ally');
    await Promise.all([
      page.waitForURL(`${base}/account?done=profile`),
      page.getByRole('button', { name: 'Save profile' }).click(),
    ]);
    await expect(page.getByLabel('Nickname').inputValue()).resolves.toBe('Ally');
    await Promise.all([
      page.waitForURL(`${base}/account/login`),
      page.getByRole('button', { name: 'Sign out' }).click(),
    ]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('with JavaScript: adds a first passkey after a password sign-in, then removes it with itself', async () => {
    await createUser(t.app, { username: 'alice', email: 'alice@example.org', password: PASSWORD });
    const context: BrowserContext = await chromium.newContext();
    const page = await context.newPage();
    const problems = watch(page);
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    await signIn(page);
    // The script reveals the controls only it can drive.
    await page.getByLabel('Name of a new passkey').fill('Laptop');
    await Promise.all([
      page.waitForURL(`${base}/account?done=passkey_added`),
      page.getByRole('button', { name: 'Add passkey' }).click(),
    ]);
    const row = page.locator('#passkeys tr[data-passkey-id]');
    await expect(row.locator('td').first().textContent()).resolves.toBe('Laptop');
    const [stored] = await t.dataSource.query('SELECT name FROM passkey_credentials');
    expect(stored.name).toBe('Laptop');

    await row.getByRole('button', { name: 'Remove' }).click();
    await page.locator('#confirm-dialog').waitFor();
    await Promise.all([
      page.waitForURL(`${base}/account?done=passkey_removed`),
      page.locator('#confirm-go').click(),
    ]);
    expect(await page.locator('#passkeys tr[data-passkey-id]').count()).toBe(0);
    expect(await t.dataSource.query('SELECT id FROM passkey_credentials')).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('with JavaScript: a session that ended meanwhile sends the page to its own sign-in page', async () => {
    await createUser(t.app, { username: 'alice', email: 'alice@example.org', password: PASSWORD });
    const context = await chromium.newContext();
    const page = await context.newPage();
    const problems = watch(page);
    await signIn(page);
    await page.getByLabel('Name of a new passkey').waitFor();
    // Signed out elsewhere: the console API answers 401 and core.js follows body[data-sign-in].
    await t.dataSource.query('DELETE FROM oauth_sessions');
    await page.getByLabel('Name of a new passkey').fill('Laptop');
    await Promise.all([
      page.waitForURL(`${base}/account/login`),
      page.getByRole('button', { name: 'Add passkey' }).click(),
    ]);
    // The 401 itself is the only error the console shows.
    expect(problems.filter((text) => !text.includes('401'))).toEqual([]);
    await context.close();
  });
});
