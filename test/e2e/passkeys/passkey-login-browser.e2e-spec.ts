import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { PASSKEY_SCRIPT_URL } from '../../../src/modules/passkeys/sign-in/passkey-script';
import {
  authorizeParams,
  authorizePath,
  exchangeCode,
  oauthSetup,
  PASSWORD,
  pkce,
  REDIRECT_URI,
} from '../../support/oauth';
import { createTestApp, TestApp } from '../../support/test-app';
import {
  addVirtualAuthenticator,
  freePort,
  launchChromium,
  type VirtualAuthenticator,
} from '../../support/chromium';

// The login page's passkey sign-in in a real browser: Debian's Chromium driven by playwright-core,
// with the DevTools Protocol's virtual authenticator standing in for a platform passkey, which
// is registered the way a person does it, on the console's account page. Chromium is required,
// never skipped (scripts/test-prerequisites.sh installs it).

const claimsOf = (idToken: string | undefined): Record<string, unknown> =>
  JSON.parse(Buffer.from(idToken!.split('.')[1], 'base64url').toString()) as Record<
    string,
    unknown
  >;

describe('OAuth login with a passkey in Chromium', () => {
  let t: TestApp;
  let base: string;
  let chromium: Browser;

  beforeAll(async () => {
    const port = await freePort();
    // localhost, not 127.0.0.1: Chromium refuses an IP literal as a WebAuthn relying-party id.
    base = `http://localhost:${port}`;
    t = await createTestApp({ env: { PUBLIC_BASE_URL: base }, port });
    // The app listens on 127.0.0.1 only; never try ::1 first.
    chromium = await launchChromium(['--host-resolver-rules=MAP localhost 127.0.0.1']);
  });
  afterAll(async () => {
    await chromium?.close();
    await t?.close();
  });
  beforeEach(() => t.truncate());

  interface Tab {
    context: BrowserContext;
    page: Page;
    authenticator: VirtualAuthenticator;
    /** Script errors and CSP violations of the page. */
    problems: string[];
    /** Where the browser was sent on the client (REDIRECT_URI is answered by the test). */
    callback: () => URL | undefined;
  }

  async function openTab(): Promise<Tab> {
    const context = await chromium.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      // The console's own pages ask for their session first: its 401 is expected.
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
        problems.push(message.text());
      }
    });
    let callback: URL | undefined;
    await page.route(`${REDIRECT_URI}**`, async (route) => {
      callback = new URL(route.request().url());
      await route.fulfill({ status: 200, contentType: 'text/plain', body: 'client callback' });
    });
    const authenticator = await addVirtualAuthenticator(context, page);
    return { context, page, authenticator, problems, callback: () => callback };
  }

  /** Signs alice in to the console with her password, adds a passkey, then signs out. */
  async function registerPasskeyOnAccountPage({ context, page }: Tab): Promise<void> {
    await page.goto(`${base}/console`);
    await page.locator('#signin').waitFor();
    await page.getByLabel('Username or email').fill('alice');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.locator('#signin-form button[type="submit"]').click();
    await page.locator('#apps').waitFor();
    await page.goto(`${base}/console/account`);
    await page.locator('#account').waitFor();
    await page.getByLabel('Name').fill('Laptop');
    await page.getByRole('button', { name: 'Add passkey' }).click();
    await page.locator('#passkeys-table tbody tr', { hasText: 'Laptop' }).waitFor();
    // Signed out; the passkey stays on the authenticator.
    await context.clearCookies();
  }

  const isOptions = (response: Response): boolean =>
    response.url().endsWith('/oauth2/login/passkey/options');

  /** The auth methods of the sessions, in alphabetical order (rows have no order). */
  const sessions = async (): Promise<string[]> =>
    (
      await t.dataSource.query<{ auth_method: string }[]>(
        'SELECT auth_method FROM oauth_sessions ORDER BY auth_method',
      )
    ).map((row) => row.auth_method);

  it('button: aborts the pending autofill request, asks with the prompt, consent, code, amr', async () => {
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    const tab = await openTab();
    const { page, authenticator } = tab;
    await registerPasskeyOnAccountPage(tab);

    // No touch yet: the conditional (autofill) request the page starts stays pending.
    const { cdp, authenticatorId } = authenticator;
    await cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId, enabled: false });
    const { verifier, challenge } = pkce();
    const conditional = page.waitForResponse(isOptions);
    const response = await page.goto(
      base +
        authorizePath(
          authorizeParams({ clientId: application.clientId, challenge, scope: 'openid read' }),
        ),
    );
    expect(new URL(page.url()).pathname).toBe('/oauth2/login');
    expect(response!.headers()['content-security-policy']).toContain(
      "script-src 'self'; connect-src 'self';",
    );
    expect(await page.getAttribute('#username', 'autocomplete')).toBe('username webauthn');
    const scripts = await page.$$eval('script', (nodes) =>
      nodes.map((node) => ({ src: node.getAttribute('src'), text: node.textContent })),
    );
    expect(scripts).toEqual([{ src: PASSKEY_SCRIPT_URL, text: '' }]);
    const conditionalCeremony = ((await (await conditional).json()) as { ceremonyId: string })
      .ceremonyId;
    // A string, evaluated in the page: the test's TypeScript has no DOM types.
    expect(await page.evaluate('PublicKeyCredential.isConditionalMediationAvailable()')).toBe(true);

    // The user touches the authenticator when the prompt asks.
    await cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId, enabled: true });
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL(/\/oauth2\/consent\?/);
    expect(await page.textContent('body')).toContain('Demo App');
    await page.click('button[name="decision"][value="approve"]');
    await page.waitForURL(`${REDIRECT_URI}**`);

    const code = tab.callback()?.searchParams.get('code');
    expect(code).toEqual(expect.any(String));
    const tokens = await exchangeCode(t.app, application.clientId, code!, verifier);
    expect(claimsOf(tokens.id_token).amr).toEqual(['hwk', 'user']);
    // The autofill request was aborted unanswered; the prompt's ceremony signed in.
    const ceremonies = await t.dataSource.query<{ id: string; used: boolean }[]>(
      "SELECT id, used_at IS NOT NULL AS used FROM passkey_ceremonies WHERE purpose = 'sign_in'",
    );
    expect(ceremonies.filter((row) => !row.used)).toEqual([
      { id: conditionalCeremony, used: false },
    ]);
    expect(ceremonies.filter((row) => row.used)).toHaveLength(1);
    expect(await sessions()).toEqual(['passkey', 'password']);
    expect(tab.problems).toEqual([]);
    await tab.context.close();
  });

  it('autofill: the conditional request signs in with no click when the passkey is chosen', async () => {
    // Chromium's virtual authenticator answers a conditional request by itself (as a person
    // picking the passkey in the username's autofill would): no button is clicked here.
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    const tab = await openTab();
    const { page } = tab;
    await registerPasskeyOnAccountPage(tab);
    const { verifier, challenge } = pkce();
    await page.goto(
      base +
        authorizePath(
          authorizeParams({ clientId: application.clientId, challenge, scope: 'openid' }),
        ),
    );
    await page.waitForURL(/\/oauth2\/consent\?/);
    expect(await sessions()).toEqual(['passkey', 'password']);
    await page.click('button[name="decision"][value="approve"]');
    await page.waitForURL(`${REDIRECT_URI}**`);
    const code = tab.callback()?.searchParams.get('code');
    const tokens = await exchangeCode(t.app, application.clientId, code!, verifier);
    expect(claimsOf(tokens.id_token).amr).toEqual(['hwk', 'user']);
    expect(tab.problems).toEqual([]);
    await tab.context.close();
  });

  it('a passkey that does not verify the user signs nobody in: the page says so', async () => {
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    const tab = await openTab();
    const { page, authenticator } = tab;
    await registerPasskeyOnAccountPage(tab);
    const { cdp, authenticatorId } = authenticator;
    await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: false });
    await page.goto(
      base +
        authorizePath(
          authorizeParams({ clientId: application.clientId, challenge: pkce().challenge }),
        ),
    );
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    // The browser refuses the request (user verification is required): the page stays.
    const said = page.locator('form.passkey-sign-in [role="alert"]');
    await said.waitFor();
    expect(await said.textContent()).toBe(
      'No passkey was used: the prompt was closed, timed out or refused. Try again.',
    );
    expect(new URL(page.url()).pathname).toBe('/oauth2/login');
    expect(await sessions()).toEqual(['password']);
    expect(tab.problems).toEqual([]);
    await tab.context.close();
  });

  it('without JavaScript the passkey form stays hidden and the password form works', async () => {
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    const context = await chromium.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(
      base +
        authorizePath(
          authorizeParams({ clientId: application.clientId, challenge: pkce().challenge }),
        ),
    );
    expect(await page.isVisible('form.passkey-sign-in')).toBe(false);
    await page.fill('input[name="username"]', 'alice');
    await page.fill('input[name="password"]', PASSWORD);
    await Promise.all([
      page.waitForURL(/\/oauth2\/consent\?/),
      page.click('form[action="/oauth2/login"] button[type="submit"]'),
    ]);
    expect(await sessions()).toEqual(['password']);
    await context.close();
  });
});
