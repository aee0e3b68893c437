import type { Browser } from 'playwright-core';
import { createApplication } from '../../../factories';
import { launchChromium } from '../../../support/chromium';
import { authorizeParams, authorizePath, pkce, REDIRECT_URI } from '../../../support/oauth';
import { codeOf, linkOf } from '../../../support/smtp-server';
import { useMailboxBed } from '../../../support/mailbox-bed';

// A person signs up in a real browser without JavaScript: Debian's Chromium driven by
// playwright-core, the code read from the email the loopback SMTP server received. Chromium is
// required, never skipped (see oauth-browser.e2e-spec.ts).

describe('sign-up in Chromium', () => {
  const bed = useMailboxBed();
  let chromium: Browser;

  beforeAll(async () => {
    chromium = await launchChromium();
  });
  afterAll(async () => {
    await chromium?.close();
  });

  it('creates an account from the login page and the emailed link, then the client gets a code that redeems', async () => {
    const { application } = await createApplication(bed.t.app, {
      name: 'Demo App',
      authMethod: 'none',
      redirectUris: [REDIRECT_URI],
      signUpEnabled: true,
    });
    const { verifier, challenge } = pkce();
    const context = await chromium.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    // Stand in for the client's callback: capture where the browser is sent.
    let callback: URL | undefined;
    await page.route(`${REDIRECT_URI}**`, async (route) => {
      callback = new URL(route.request().url());
      await route.fulfill({ status: 200, contentType: 'text/plain', body: 'client callback' });
    });

    await page.goto(
      bed.base +
        authorizePath(
          authorizeParams({
            clientId: application.clientId,
            challenge,
            state: 'browser-state',
            scope: 'read email',
          }),
        ),
    );
    expect(new URL(page.url()).pathname).toBe('/oauth2/login');
    await Promise.all([
      page.waitForURL('**/oauth2/signup?**'),
      page.click('text=Create an account'),
    ]);

    await page.fill('input[name="username"]', 'Olga');
    await page.fill('input[name="email"]', 'olga@example.org');
    await page.fill('input[name="password"]', 'violet kettle marching north');
    await page.screenshot({ path: '/tmp/sign-up-form.png' });
    await Promise.all([
      page.waitForURL('**/oauth2/signup/verify?**'),
      page.click('button:has-text("Create account")'),
    ]);
    expect(await page.textContent('body')).toContain('Enter the code from it');

    const mail = await bed.mailbox.next('olga@example.org');
    const link = linkOf(mail);
    // Opened in another browser, the link only says where to enter the code: no form.
    const elsewhere = await chromium.newContext({ javaScriptEnabled: false });
    const other = await elsewhere.newPage();
    await other.goto(bed.base + link.pathname + link.search);
    expect(await other.textContent('h1')).toBe('Enter the code where you started');
    expect(await other.locator('form').count()).toBe(0);
    await elsewhere.close();

    // The email's link, opened in the same browser, fills the code in; the person confirms.
    await page.goto(bed.base + link.pathname + link.search);
    expect(await page.inputValue('input[name="code"]')).toBe(codeOf(mail));
    await page.screenshot({ path: '/tmp/sign-up-code.png' });
    await Promise.all([
      page.waitForURL('**/oauth2/consent?**'),
      page.click('button:has-text("Continue")'),
    ]);

    expect(await page.textContent('body')).toContain('Demo App');
    expect(await page.textContent('body')).toContain('Olga');
    await page.click('button[name="decision"][value="approve"]');
    await page.waitForURL(`${REDIRECT_URI}**`);

    expect(callback?.searchParams.get('state')).toBe('browser-state');
    const code = callback?.searchParams.get('code');
    expect(code).toEqual(expect.any(String));
    const token = await bed.t.http().post('/api/oauth2/token').type('form').send({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: application.clientId,
      code_verifier: verifier,
    });
    expect(token.status).toBe(200);
    const me = await bed.t
      .http()
      .get('/api/oauth2/userinfo')
      .set('Authorization', `Bearer ${token.body.access_token}`);
    expect(me.body).toMatchObject({ username: 'Olga', email: 'olga@example.org' });
    await context.close();
  });
});
