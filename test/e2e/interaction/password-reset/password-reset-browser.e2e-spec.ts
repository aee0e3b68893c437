import type { Browser } from 'playwright-core';
import { DEFAULT_LOCALE, translator } from '../../../../src/common/i18n/i18n';
import { CODE_TTL_SECONDS } from '../../../../src/modules/interaction/one-time-codes/one-time-codes.service';
import { launchChromium } from '../../../support/chromium';
import {
  authorizeParams,
  authorizePath,
  exchangeCode,
  oauthSetup,
  pkce,
  REDIRECT_URI,
} from '../../../support/oauth';
import { codeOf, linkOf } from '../../../support/smtp-server';
import { useMailboxBed } from '../../../support/mailbox-bed';

/** The reset page's line, the same whether or not an account uses the address. */
const CODE_SENT_NOTICE = translator(DEFAULT_LOCALE).t('passwordReset.codeSent', {
  minutes: CODE_TTL_SECONDS / 60,
});

// A forgotten password in a real browser: Debian's Chromium driven by playwright-core, without
// JavaScript (the pages need none), the email read from a real SMTP server on loopback, as in
// oauth-browser.e2e-spec.ts; never skipped.

describe('Password reset in Chromium', () => {
  // The emailed link names PUBLIC_BASE_URL, which must be this service.
  const bed = useMailboxBed({ publicBaseUrl: true });
  let chromium: Browser;

  beforeAll(async () => {
    chromium = await launchChromium();
  });
  afterAll(async () => {
    await chromium?.close();
  });

  it('login page, forgot password, the emailed link, a new password, consent, a code that redeems', async () => {
    const { application } = await oauthSetup(bed.t.app, { authMethod: 'none' });
    const { verifier, challenge } = pkce();
    const context = await chromium.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    let callback: URL | undefined;
    await page.route(`${REDIRECT_URI}**`, async (route) => {
      callback = new URL(route.request().url());
      await route.fulfill({ status: 200, contentType: 'text/plain', body: 'client callback' });
    });
    const submit = (): Promise<unknown> =>
      Promise.all([page.waitForLoadState(), page.locator('form button[type="submit"]').click()]);

    await page.goto(
      bed.base +
        authorizePath(
          authorizeParams({ clientId: application.clientId, challenge, state: 'reset-state' }),
        ),
    );
    expect(new URL(page.url()).pathname).toBe('/oauth2/login');
    await Promise.all([page.waitForLoadState(), page.click('text=Forgot your password?')]);
    expect(new URL(page.url()).pathname).toBe('/oauth2/forgot-password');
    await page.fill('input[name="email"]', 'alice@example.org');
    await submit();
    expect(new URL(page.url()).pathname).toBe('/oauth2/reset-password');
    expect(await page.textContent('body')).toContain(CODE_SENT_NOTICE);

    const mail = await bed.mailbox.next('alice@example.org');
    await page.goto(linkOf(mail).href);
    expect(await page.inputValue('input[name="code"]')).toBe(codeOf(mail));
    await page.fill('input[name="password"]', 'a brand new passphrase for alice');
    await page.fill('input[name="password_repeat"]', 'a brand new passphrase for alice');
    await submit();

    expect(new URL(page.url()).pathname).toBe('/oauth2/consent');
    expect(await page.textContent('body')).toContain('Demo App');
    await page.click('button[name="decision"][value="approve"]');
    await page.waitForURL(`${REDIRECT_URI}**`);
    expect(callback?.searchParams.get('state')).toBe('reset-state');
    const code = callback?.searchParams.get('code');
    expect(code).toEqual(expect.any(String));
    await exchangeCode(bed.t.app, application.clientId, code!, verifier);
    expect((await bed.mailbox.next('alice@example.org')).subject).toMatch(/was changed$/);
    await context.close();
  });
});
