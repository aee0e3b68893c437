import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { createUser } from '../../../factories';
import {
  confirmWithPasskey,
  createApplication,
  registerPasskey,
  settled,
  signInWithPassword,
} from '../../../support/console-browser';
import { useConsoleBrowserBed } from '../../../support/console-browser-bed';
import { PASSWORD } from '../../../support/oauth';

// The Settings tab's back-channel logout in Chromium (docs/console.md, "Back-channel logout";
// docs/oidc.md): a new logout URI saved through the passkey dialog, the flag and a removal
// without it, and the list of logouts in English and Chinese. LANGUAGE_SCREENSHOTS=1 also
// writes the list in both languages to docs/languages/ (docs/languages.md).
const SCREENSHOTS = process.env.LANGUAGE_SCREENSHOTS === '1';
const SCREENSHOT_DIR = join(__dirname, '..', '..', '..', '..', 'docs', 'languages');
describe('Console Settings tab in Chromium: back-channel logout', () => {
  const bed = useConsoleBrowserBed();
  const URI = 'https://rp.example/backchannel-logout';

  async function openSettings(page: Page): Promise<number> {
    await createUser(bed.t.app, {
      username: 'alice',
      email: 'alice@example.org',
      password: PASSWORD,
    });
    await signInWithPassword(page, bed.base);
    await registerPasskey(page, bed.base, 'Work laptop');
    const appId = await createApplication(page, bed.base, 'Customer Portal');
    await page.goto(`${bed.base}/console/applications/${appId}#settings`);
    await page.locator('#settings-form').waitFor();
    await page.locator('#client-id').filter({ hasText: /\S/ }).waitFor();
    return appId;
  }

  async function stored(appId: number): Promise<{ uri: string | null; required: boolean }> {
    const [row] = await bed.t.dataSource.query<{ uri: string | null; required: boolean }[]>(
      `SELECT backchannel_logout_uri AS uri, backchannel_logout_session_required AS required
       FROM applications WHERE id = $1`,
      [appId],
    );
    return row;
  }

  const saveButton = (page: Page) => page.locator('#settings-form button[type="submit"]');
  const saved = (page: Page) => page.locator('#settings-status', { hasText: 'Settings saved' });

  it('sets the logout URI with the passkey, changes the flag and removes the URI without it, and lists the logouts', async () => {
    const { context, page, problems } = await bed.openTab();
    const appId = await openSettings(page);
    await page
      .locator('#backchannel-logouts tbody', { hasText: 'No back-channel logouts yet.' })
      .waitFor();

    await page.locator('#set-backchannel-uri').fill(URI);
    await confirmWithPasskey(page, saveButton(page), saved(page));
    expect(await stored(appId)).toEqual({ uri: URI, required: false });

    // After a reload the field shows it; the flag alone needs no passkey.
    await page.reload();
    await page.locator('#settings-form').waitFor();
    // The form is filled from the API once the client id shows.
    await page.locator('#client-id').filter({ hasText: /\S/ }).waitFor();
    expect(await page.inputValue('#set-backchannel-uri')).toBe(URI);
    await page
      .locator('#settings-form')
      .getByLabel(/needs sid in logout tokens/)
      .check();
    await saveButton(page).click();
    await settled(page, saved(page));
    expect(await page.locator('#confirm-dialog').isHidden()).toBe(true);
    expect(await stored(appId)).toEqual({ uri: URI, required: true });

    // Emptying the field removes it, without a passkey.
    await page.locator('#set-backchannel-uri').fill('');
    await saveButton(page).click();
    await settled(page, saved(page));
    expect(await page.locator('#confirm-dialog').isHidden()).toBe(true);
    expect(await stored(appId)).toEqual({ uri: null, required: true });
    expect(problems).toEqual([]);
    await context.close();
  });

  /** Three logouts of alice's sessions, as the engine leaves them: one of each outcome. */
  async function queueLogouts(appId: number): Promise<void> {
    const [{ id: userId }] = await bed.t.dataSource.query<{ id: string }[]>(
      `SELECT id::text AS id FROM users WHERE username = 'alice'`,
    );
    await bed.t.dataSource.query(
      `INSERT INTO backchannel_logouts (application_id, sid, user_id, created_at,
         next_attempt_at, status, attempts, last_status_code, last_error, last_attempt_at,
         delivered_at)
       VALUES ($1, 'sid-delivered', $2, now() - interval '3 hours', now() - interval '3 hours',
               'delivered', 1, 204, NULL, now() - interval '3 hours', now() - interval '3 hours'),
              ($1, 'sid-refused', $2, now() - interval '2 hours', now() - interval '2 hours',
               'refused', 1, 400, 'HTTP 400: invalid logout token', now() - interval '2 hours', NULL),
              ($1, 'sid-pending', $2, now() - interval '1 hour', now() + interval '10 minutes',
               'pending', 2, 503, 'HTTP 503: down for maintenance', now() - interval '5 minutes', NULL)`,
      [appId, userId],
    );
  }

  const rowTexts = (page: Page) =>
    page
      .locator('#backchannel-logouts tbody tr')
      .evaluateAll((rows) =>
        rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.innerText.trim())),
      );

  it('lists the latest logouts with their outcome, attempts and last answer, in English and in Chinese', async () => {
    const english = await bed.openTab();
    const appId = await openSettings(english.page);
    await queueLogouts(appId);
    await english.page.reload();
    await english.page.locator('#backchannel-logouts tbody tr', { hasText: 'Pending' }).waitFor();
    const rows = await rowTexts(english.page);
    // Newest first: the pending one (its next attempt shown), then the refused and the delivered.
    expect(rows.map((cells) => cells.slice(1, 4))).toEqual([
      ['Pending', '2', '503\nHTTP 503: down for maintenance'],
      ['Refused by the client', '1', '400\nHTTP 400: invalid logout token'],
      ['Delivered', '1', '204'],
    ]);
    expect(rows[0][4]).not.toBe('');
    expect(rows[2][4]).toBe('');
    if (SCREENSHOTS) {
      await english.page
        .locator('section[aria-labelledby="backchannel-title"]')
        .screenshot({ path: join(SCREENSHOT_DIR, 'backchannel-logouts-en.png') });
    }
    expect(english.problems).toEqual([]);
    await english.context.close();

    const chinese = await bed.openTab({ locale: 'zh-CN' });
    await chinese.page.goto(`${bed.base}/console`);
    await chinese.page.getByLabel('用户名或邮箱').fill('alice');
    await chinese.page.getByLabel('密码').fill(PASSWORD);
    await chinese.page.getByRole('button', { name: '登录', exact: true }).click();
    await chinese.page.locator('#apps').waitFor();
    await chinese.page.goto(`${bed.base}/console/applications/${appId}#settings`);
    await chinese.page.locator('#backchannel-logouts tbody tr', { hasText: '待发送' }).waitFor();
    expect((await rowTexts(chinese.page)).map((cells) => cells[1])).toEqual([
      '待发送',
      '被客户端拒绝',
      '已送达',
    ]);
    expect(await chinese.page.locator('#backchannel-title').innerText()).toBe('后通道注销');
    if (SCREENSHOTS) {
      await chinese.page
        .locator('section[aria-labelledby="backchannel-title"]')
        .screenshot({ path: join(SCREENSHOT_DIR, 'backchannel-logouts-zh-CN.png') });
    }
    expect(chinese.problems).toEqual([]);
    await chinese.context.close();
  });
});
