import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import {
  authorizePath,
  authorizeParams,
  oauthSetup,
  PASSWORD,
  pkce,
  REDIRECT_URI,
} from '../../../support/oauth';
import { createTestApp, TestApp } from '../../../support/test-app';
import { launchChromium } from '../../../support/chromium';

// A person's login in a real browser: Debian's Chromium driven by playwright-core, no JavaScript
// needed by the pages. Chromium is required, never skipped: .ci/run installs it, and on a machine
// without it this file fails saying how to install it.

describe('OAuth login and consent in Chromium', () => {
  let t: TestApp;
  let base: string;
  let chromium: Browser;

  beforeAll(async () => {
    t = await createTestApp();
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    chromium = await launchChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await t?.close();
  });
  beforeEach(() => t.truncate());

  it('signs in, approves, lands on the client with a code that redeems for the user', async () => {
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
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
      base +
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
    await page.screenshot({ path: '/tmp/oauth-login.png' });
    await page.fill('input[name="username"]', 'alice');
    await page.fill('input[name="password"]', PASSWORD);
    await Promise.all([
      page.waitForLoadState(),
      page.locator('form button[type="submit"]').first().click(),
    ]);

    expect(new URL(page.url()).pathname).not.toBe('/oauth2/login');
    expect(await page.textContent('body')).toContain('Demo App');
    await page.screenshot({ path: '/tmp/oauth-consent.png' });
    await page.click('button[name="decision"][value="approve"]');
    await page.waitForURL(`${REDIRECT_URI}**`);

    expect(callback?.searchParams.get('state')).toBe('browser-state');
    expect(callback?.searchParams.get('iss')).toBe('http://127.0.0.1:3000');
    const code = callback?.searchParams.get('code');
    expect(code).toEqual(expect.any(String));

    const token = await t.http().post('/api/oauth2/token').type('form').send({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: application.clientId,
      code_verifier: verifier,
    });
    expect(token.status).toBe(200);
    const me = await t
      .http()
      .get('/api/oauth2/userinfo')
      .set('Authorization', `Bearer ${token.body.access_token}`);
    expect(me.status).toBe(200);
    expect(me.body.username).toBe('alice');
    await context.close();
  });

  it('shows one generic message for a wrong password and for an unknown user', async () => {
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    const context = await chromium.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const url = authorizePath(
      authorizeParams({ clientId: application.clientId, challenge: pkce().challenge }),
    );
    const messages: string[] = [];
    for (const [username, password] of [
      ['alice', 'not the password'],
      ['nobody', PASSWORD],
    ]) {
      await page.goto(base + url);
      await page.fill('input[name="username"]', username);
      await page.fill('input[name="password"]', password);
      await Promise.all([
        page.waitForLoadState(),
        page.locator('form button[type="submit"]').first().click(),
      ]);
      expect(new URL(page.url()).pathname).toBe('/oauth2/login');
      expect(await page.inputValue('input[name="password"]')).toBe('');
      messages.push((await page.textContent('.error')) ?? '');
    }
    expect(messages).toEqual([
      'The username or password is incorrect.',
      'The username or password is incorrect.',
    ]);
    await page.screenshot({ path: '/tmp/oauth-login-failed.png' });
    await context.close();
  });
});
