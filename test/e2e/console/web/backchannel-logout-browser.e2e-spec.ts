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
// without it, and the list of logouts.
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
});
