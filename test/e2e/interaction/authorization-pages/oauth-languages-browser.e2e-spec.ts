import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { KEY_CACHE_SECONDS } from '../../../../src/modules/signing-keys/signing-keys.service';
import { launchChromium } from '../../../support/chromium';
import { catalogOf, expectPageIn } from '../../../support/languages';
import { oauthSetup, PASSWORD, REDIRECT_URI } from '../../../support/oauth';
import { listeningApp, type ClientConfig, type OpenIdClient } from '../../../support/oidc-client';
import type { TestApp } from '../../../support/test-app';

// The pages' language in a real browser set to English (Debian's Chromium, locale en-US): an
// openid-client relying party asks for Chinese with ui_locales, and gets Chinese login and
// consent pages without a language switcher; without ui_locales the same browser gets English.
// LANGUAGE_SCREENSHOTS=1 also writes the screenshots of docs/languages.md to docs/languages/.
const SCREENSHOTS = process.env.LANGUAGE_SCREENSHOTS === '1';
const SCREENSHOT_DIR = join(__dirname, '..', '..', '..', '..', 'docs', 'languages');

const SCOPE = 'openid profile email';

/** What the browser showed on the way, and the client's tokens at the end. */
interface Visit {
  login: string;
  consent: string;
  username: unknown;
}

describe('page languages in Chromium', () => {
  let t: TestApp;
  let base: string;
  let oc: OpenIdClient;
  let chromium: Browser;

  beforeAll(async () => {
    ({ t, base } = await listeningApp());
    oc = await import('openid-client');
    chromium = await launchChromium();
    if (SCREENSHOTS) mkdirSync(SCREENSHOT_DIR, { recursive: true });
  });
  afterAll(async () => {
    await chromium?.close();
    await t?.close();
  });
  beforeEach(async () => {
    await t.truncate();
    // The truncated signing keys leave the service's view within KEY_CACHE_SECONDS: move past it,
    // so no id_token is signed with a deleted key.
    t.clock.advance((KEY_CACHE_SECONDS + 1) * 1000);
  });

  async function shoot(page: Page, name: string): Promise<void> {
    if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });
  }

  /**
   * The client sends the browser to authorize (with `extra`); alice signs in with her password
   * and approves; the client redeems the code it is sent back. `screenshots` names the language
   * whose pages are written to docs/languages/.
   */
  async function signInThroughClient(
    extra: Record<string, string>,
    screenshots?: string,
  ): Promise<Visit> {
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    const config: ClientConfig = await oc.discovery(
      new URL(base),
      application.clientId,
      undefined,
      oc.None(),
      { execute: [oc.allowInsecureRequests, oc.enableNonRepudiationChecks] },
    );
    const verifier = oc.randomPKCECodeVerifier();
    const state = oc.randomState();
    const nonce = oc.randomNonce();
    const url = oc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: SCOPE,
      code_challenge: await oc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
      ...extra,
    });

    const context = await chromium.newContext({ javaScriptEnabled: false, locale: 'en-US' });
    const page = await context.newPage();
    // Stand in for the client's callback: capture where the browser is sent.
    let callback: URL | undefined;
    await page.route(`${REDIRECT_URI}**`, async (route) => {
      callback = new URL(route.request().url());
      await route.fulfill({ status: 200, contentType: 'text/plain', body: 'client callback' });
    });

    await page.goto(url.href);
    expect(new URL(page.url()).pathname).toBe('/oauth2/login');
    const login = await page.content();
    if (screenshots) await shoot(page, `login-${screenshots}`);
    await page.fill('input[name="username"]', 'alice');
    await page.fill('input[name="password"]', PASSWORD);
    await Promise.all([
      page.waitForLoadState(),
      page.locator('form button[type="submit"]').first().click(),
    ]);

    expect(new URL(page.url()).pathname).toBe('/oauth2/consent');
    const consent = await page.content();
    if (screenshots) await shoot(page, `consent-${screenshots}`);
    await page.click('button[name="decision"][value="approve"]');
    await page.waitForURL(`${REDIRECT_URI}**`);
    await context.close();

    const tokens = await oc.authorizationCodeGrant(config, callback!, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    return { login, consent, username: tokens.claims()?.preferred_username };
  }

  it('shows Chinese pages to an English browser when the client asks with ui_locales', async () => {
    const zh = catalogOf('zh-CN');
    const { login, consent, username } = await signInThroughClient(
      { ui_locales: 'zh-CN' },
      'zh-CN',
    );
    expectPageIn(
      login,
      'zh-CN',
      '<title>登录</title>',
      zh.t('login.usernameOrEmail'),
      zh.t('login.forgotPassword'),
    );
    expectPageIn(
      consent,
      'zh-CN',
      '<title>授权访问</title>',
      zh.t('consent.approve'),
      zh.t('consent.deny'),
    );
    // The client chose the language: neither page offers to switch it.
    for (const html of [login, consent]) expect(html).not.toContain('/oauth2/language?');
    expect(username).toBe('alice');
  });

  it('shows the English browser English pages when the client names no language', async () => {
    const en = catalogOf('en');
    const { login, consent, username } = await signInThroughClient({});
    expectPageIn(login, 'en', '<title>Sign in</title>', en.t('login.usernameOrEmail'));
    expectPageIn(consent, 'en', en.t('consent.title'), en.t('consent.approve'));
    // The browser's own language: the pages offer the others.
    for (const html of [login, consent]) expect(html).toContain('/oauth2/language?');
    expect(username).toBe('alice');
  });
});
