import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { KEY_CACHE_SECONDS } from '../../../../src/modules/signing-keys/signing-keys.service';
import { launchChromium } from '../../../support/chromium';
import { deviceSetup, poll, startDevice } from '../../../support/device';
import { catalogOf, expectPageIn } from '../../../support/languages';
import { expectStatus, PASSWORD } from '../../../support/oauth';
import { listeningApp } from '../../../support/oidc-client';
import type { TestApp } from '../../../support/test-app';

// The device page in a real browser (Debian's Chromium, locale en-US, no JavaScript: the pages
// need none): the person follows verification_uri_complete, switches to Chinese and back with
// the language links, enters the code, signs in with a password, approves; the device's next
// poll gets the tokens. LANGUAGE_SCREENSHOTS=1 also writes the code entry and confirmation
// pages in English and Chinese to docs/languages/ (docs/languages.md, docs/oauth.md).
const SCREENSHOTS = process.env.LANGUAGE_SCREENSHOTS === '1';
const SCREENSHOT_DIR = join(__dirname, '..', '..', '..', '..', 'docs', 'languages');

describe('device page in Chromium', () => {
  let t: TestApp;
  let chromium: Browser;

  beforeAll(async () => {
    ({ t } = await listeningApp());
    chromium = await launchChromium();
    if (SCREENSHOTS) mkdirSync(SCREENSHOT_DIR, { recursive: true });
  });
  afterAll(async () => {
    await chromium?.close();
    await t?.close();
  });
  beforeEach(async () => {
    await t.truncate();
    t.clock.advance((KEY_CACHE_SECONDS + 1) * 1000);
  });

  async function shoot(page: Page, name: string): Promise<void> {
    if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });
  }

  /** Follows the page's link to the other language and waits for the page in it. */
  async function switchTo(page: Page, locale: string): Promise<void> {
    await Promise.all([page.waitForLoadState(), page.click(`a[hreflang="${locale}"]`)]);
    expect(await page.getAttribute('html', 'lang')).toBe(locale);
  }

  it('enters the code, signs in with a password and approves; the device then gets its tokens', async () => {
    const en = catalogOf('en');
    const zh = catalogOf('zh-CN');
    const { application } = await deviceSetup(t.app);
    const started = await startDevice(t.app, application.clientId, 'openid profile');
    expect((await poll(t.app, application.clientId, started.device_code)).body.error).toBe(
      'authorization_pending',
    );

    const context = await chromium.newContext({ javaScriptEnabled: false, locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(started.verification_uri_complete);
    expect(new URL(page.url()).pathname).toBe('/device');
    expectPageIn(await page.content(), 'en', en.t('device.lead'));
    expect(await page.inputValue('input[name="user_code"]')).toBe(started.user_code);
    await shoot(page, 'device-code-en');
    await switchTo(page, 'zh-CN');
    expectPageIn(await page.content(), 'zh-CN', zh.t('device.lead'));
    expect(await page.inputValue('input[name="user_code"]')).toBe(started.user_code);
    await shoot(page, 'device-code-zh-CN');
    await switchTo(page, 'en');

    await Promise.all([page.waitForLoadState(), page.click('form button[type="submit"]')]);
    expect(new URL(page.url()).pathname).toBe('/oauth2/login');
    expect(await page.content()).toContain('Living Room TV');
    await page.fill('input[name="username"]', 'alice');
    await page.fill('input[name="password"]', PASSWORD);
    await Promise.all([
      page.waitForLoadState(),
      page.locator('form button[type="submit"]').first().click(),
    ]);

    expect(new URL(page.url()).pathname).toBe('/device/confirm');
    const confirm = await page.content();
    expectPageIn(confirm, 'en', en.t('device.approve'), en.t('device.deny'));
    expect(confirm).toContain(started.user_code);
    await shoot(page, 'device-confirm-en');
    await switchTo(page, 'zh-CN');
    expectPageIn(await page.content(), 'zh-CN', zh.t('device.approve'), zh.t('device.deny'));
    await shoot(page, 'device-confirm-zh-CN');
    await switchTo(page, 'en');

    await Promise.all([
      page.waitForLoadState(),
      page.click('button[name="decision"][value="approve"]'),
    ]);
    expect(await page.content()).toContain(en.t('device.approved'));
    await context.close();

    t.clock.advance(5 * 1000);
    const tokens = await poll(t.app, application.clientId, started.device_code);
    expectStatus(tokens, 200);
    expect(tokens.body).toMatchObject({ token_type: 'bearer', scope: 'openid profile' });
    expect(tokens.body.id_token).toEqual(expect.any(String));
  });
});
