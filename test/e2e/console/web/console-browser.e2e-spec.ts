import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { UpstreamIdentitiesService } from '../../../../src/modules/upstreams/identities/upstream-identities.service';
import { UpstreamProvidersService } from '../../../../src/modules/upstreams/providers/upstream-providers.service';
import { createUser } from '../../../factories';
import { relate } from '../../../factories/app-users';
import { consoleWorld } from '../../../support/console';
import { insertEvent } from '../../../factories/events';
import { PASSWORD } from '../../../support/oauth';
import { useConsoleBrowserBed } from '../../../support/console-browser-bed';
import {
  confirmWithPasskey,
  ConsoleTab,
  createApplication,
  registerPasskey,
  settled,
  signInWithPassword,
} from '../../../support/console-browser';

// The console in a real browser: Debian's Chromium driven by playwright-core, with the
// Chrome DevTools Protocol's virtual authenticator standing in for a platform passkey. Chromium
// is required, never skipped (scripts/test-prerequisites.sh installs it).
// CONSOLE_SCREENSHOTS=1 also writes the screenshots of docs/console.md to docs/console/.
const SCREENSHOTS = process.env.CONSOLE_SCREENSHOTS === '1';
const SCREENSHOT_DIR = join(__dirname, '..', '..', '..', '..', 'docs', 'console');

describe('Console in Chromium', () => {
  const bed = useConsoleBrowserBed();
  beforeAll(() => {
    if (SCREENSHOTS) mkdirSync(SCREENSHOT_DIR, { recursive: true });
  });

  const openBrowser = (): Promise<ConsoleTab> => bed.openTab();

  async function shoot(page: Page, name: string): Promise<void> {
    if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });
  }

  const keyRows = (page: Page): Locator => page.locator('#keys-table tbody tr[data-key-id]');

  it('password sign-in, passkey, application, key create/rotate/revoke/delete, passkey sign-in', async () => {
    await createUser(bed.t.app, {
      username: 'alice',
      email: 'alice@example.org',
      password: PASSWORD,
      nickname: 'Alice',
    });
    const { context, page, problems } = await openBrowser();

    // The page: security headers, one module script from this origin, no inline code.
    const response = await page.goto(`${bed.base}/console`);
    const headers = response!.headers();
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['cache-control']).toBe('no-store');
    expect(headers['referrer-policy']).toBe('no-referrer');
    // One module script; the page's words come in a JSON data block, which is never executed.
    const scripts = await page.$$eval('script', (nodes) =>
      nodes.map((node) => ({ type: node.getAttribute('type'), src: node.getAttribute('src') })),
    );
    expect(scripts).toEqual([
      { type: 'application/json', src: null },
      { type: 'module', src: '/console/assets/home.js' },
    ]);
    expect(await page.locator('script[type="module"]').textContent()).toBe('');
    const inlineHandlers = await page.$$eval('*', (nodes) =>
      nodes.flatMap((node) =>
        node.getAttributeNames().filter((name: string) => name.startsWith('on')),
      ),
    );
    expect(inlineHandlers).toEqual([]);
    await page.locator('#signin').waitFor();
    await shoot(page, 'sign-in');

    await signInWithPassword(page, bed.base);
    await registerPasskey(page, bed.base, 'Work laptop');
    const appId = await createApplication(page, bed.base, 'Customer Portal');
    await seedActivity(appId);

    // Overview: the figures and the 30-day chart.
    await page.goto(`${bed.base}/console/applications/${appId}`);
    await page.locator('#auth-chart').waitFor();
    expect(await page.locator('#auth-chart rect.bar').count()).toBe(30);
    await expect(page.locator('[data-stat="totalUsers"]').textContent()).resolves.toBe('4');
    await shoot(page, 'overview');

    await page.getByRole('link', { name: 'Users' }).click();
    await page.locator('#users-table tbody tr', { hasText: 'bob' }).waitFor();
    await expect(page.locator('#users-page').textContent()).resolves.toContain('4 users');
    await shoot(page, 'users');
    // Change a group, disable a user, force one offline; the list reflects each.
    await page.getByLabel('Group of bob').selectOption('t2');
    await settled(page, page.locator('#users-status', { hasText: 'bob is now in group t2' }));
    const daveRow = page.locator('#users-table tbody tr', { hasText: 'dave@example.org' });
    await daveRow.getByRole('button', { name: 'Disable' }).click();
    await settled(page, daveRow.locator('.badge', { hasText: 'Disabled' }));
    await daveRow.getByRole('button', { name: 'Force offline' }).click();
    await settled(page, page.locator('#users-status', { hasText: 'dave is signed out' }));
    await page.getByLabel('Status').selectOption('false');
    await page.getByRole('button', { name: 'Apply' }).click();
    await settled(page, page.locator('#users-page', { hasText: '1 user' }));
    await expect(page.locator('#users-table tbody tr').textContent()).resolves.toContain('dave');

    // API access: create a key with two scopes; its plaintext is shown once.
    await page.getByRole('link', { name: 'API access' }).click();
    await page.locator('#create-key-open').click();
    await page.locator('#key-name').fill('production');
    await page.getByLabel('user:read').check();
    await page.getByLabel('stats:read').check();
    await page.locator('#create-key button[type="submit"]').click();
    await page.locator('#confirm-dialog').waitFor();
    await shoot(page, 'passkey-prompt');
    await page.locator('#confirm-go').click();
    await settled(page, page.locator('#new-key'));
    const plaintext = (await page.locator('#new-key-value').textContent()) ?? '';
    expect(plaintext).toMatch(/^svc_live_[0-9A-Za-z]{32}$/);
    await expect(page.locator('#new-key').textContent()).resolves.toContain(
      'cannot be shown again',
    );
    await keyRows(page).first().waitFor();
    await shoot(page, 'api-access');
    if (SCREENSHOTS) {
      await page.setViewportSize({ width: 390, height: 844 });
      await shoot(page, 'api-access-phone');
      await page.setViewportSize({ width: 1280, height: 860 });
    }

    const me = await bed.t.http().get('/api/v1/app/me').set('Authorization', `Bearer ${plaintext}`);
    expect(me.status).toBe(200);
    expect(me.body.apiKey.scopes).toEqual(['user:read', 'stats:read']);
    expect(me.body.app.id).toBe(appId);

    // Once: dismissed, it is gone from the page, and a reload shows only the prefix.
    await page.getByRole('button', { name: 'Done, hide it' }).click();
    await page.reload();
    await keyRows(page).first().waitFor();
    expect(await page.content()).not.toContain(plaintext);
    await expect(keyRows(page).first().textContent()).resolves.toContain(plaintext.slice(0, 12));

    // Rotate: a new key, and the old one listed in its 24-hour grace period.
    await confirmWithPasskey(
      page,
      keyRows(page).first().getByRole('button', { name: 'Rotate' }),
      page.locator('#new-key'),
    );
    const rotated = (await page.locator('#new-key-value').textContent()) ?? '';
    expect(rotated).toMatch(/^svc_live_/);
    expect(rotated).not.toBe(plaintext);
    await keyRows(page).nth(1).waitFor();
    const oldRow = keyRows(page).filter({ hasText: plaintext.slice(0, 12) });
    await expect(oldRow.locator('.status').textContent()).resolves.toContain(
      'In grace period until',
    );
    for (const key of [plaintext, rotated]) {
      const res = await bed.t.http().get('/api/v1/app/me').set('Authorization', `Bearer ${key}`);
      expect(res.status).toBe(200);
    }
    // Both were just used: the list's last-used column shows it (the rotation recipe, docs/contract/api-keys.md#rotating-a-key-without-downtime).
    await page.getByRole('button', { name: 'Done, hide it' }).click();
    await page.reload();
    await keyRows(page).nth(1).waitFor();
    for (const row of await keyRows(page).all()) {
      expect(await row.locator('td:nth-child(4) time').count()).toBe(1);
    }
    await shoot(page, 'api-access-rotated');

    // Revoke the old key at once, then delete it.
    await confirmWithPasskey(
      page,
      oldRow.getByRole('button', { name: 'Revoke' }),
      oldRow.locator('.status', { hasText: 'Revoked' }),
    );
    const revoked = await bed.t
      .http()
      .get('/api/v1/app/me')
      .set('Authorization', `Bearer ${plaintext}`);
    expect(revoked.status).toBe(401);
    await confirmWithPasskey(
      page,
      oldRow.getByRole('button', { name: 'Delete' }),
      page.locator('#keys-status', { hasText: 'deleted' }),
    );
    await keyRows(page).nth(1).waitFor({ state: 'detached' });
    await expect(keyRows(page).first().textContent()).resolves.toContain(rotated.slice(0, 12));

    // Every key operation is in the audit log; the events feed shows the seeded authorizations.
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.locator('#audit-table tbody tr', { hasText: 'key.delete' }).waitFor();
    const actions = await page.locator('#audit-table tbody td:nth-child(3)').allTextContents();
    expect(actions).toEqual(
      expect.arrayContaining(['key.create', 'key.rotate', 'key.revoke', 'key.delete']),
    );
    await shoot(page, 'audit-log');
    await page.getByRole('link', { name: 'Events' }).click();
    await page
      .locator('#events-table tbody tr', { hasText: 'authorization_granted' })
      .first()
      .waitFor();
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.locator('#settings-form').waitFor();
    expect(await page.inputValue('#set-name')).toBe('Customer Portal');
    await page.locator('#settings-form').getByLabel('Description').fill('The customer portal');
    await page.getByRole('checkbox', { name: /Create an account/ }).check();
    await page.getByRole('checkbox', { name: /pushed authorization requests/ }).check();
    expect(await page.inputValue('#set-id-token-alg')).toBe('RS256');
    await page.getByLabel('ID token signing algorithm').selectOption('PS256');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await settled(page, page.locator('#settings-status', { hasText: 'Settings saved' }));
    const [{ sign_up_enabled: signUp, require_par: requirePar, alg }] =
      await bed.t.dataSource.query<
        { sign_up_enabled: boolean; require_par: boolean; alg: string | null }[]
      >(
        `SELECT sign_up_enabled, require_pushed_authorization_requests AS require_par,
                id_token_signed_response_alg AS alg
         FROM applications WHERE name = 'Customer Portal'`,
      );
    expect(signUp).toBe(true);
    expect(requirePar).toBe(true);
    // The alg is no client setting that needs a passkey: saved at once, and shown again.
    expect(alg).toBe('PS256');
    expect(await page.inputValue('#set-id-token-alg')).toBe('PS256');
    // A new redirect URI changes where codes may go: saved only through the passkey dialog.
    const redirects = await page.inputValue('#set-redirects');
    await page.locator('#set-redirects').fill(`${redirects}\nhttps://portal.example/cb2`);
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.locator('#confirm-dialog').waitFor();
    const patched = page.waitForResponse((r) => r.request().method() === 'PATCH');
    await page.locator('#confirm-go').click();
    expect((await patched).status()).toBe(200);
    await settled(page, page.locator('#settings-status', { hasText: 'Settings saved' }));
    const [{ redirect_uris: saved }] = await bed.t.dataSource.query<{ redirect_uris: string[] }[]>(
      "SELECT redirect_uris FROM applications WHERE name = 'Customer Portal'",
    );
    expect(saved).toContain('https://portal.example/cb2');
    await confirmWithPasskey(
      page,
      page.getByRole('button', { name: 'Reset client secret' }),
      page.locator('#client-secret'),
    );
    expect(await page.locator('#client-secret-value').textContent()).toMatch(/^\S{20,}$/);

    // Console access: give a user of the application the admin role, then take it back.
    await page.getByRole('link', { name: 'Members' }).click();
    await page.locator('#members-table tbody tr', { hasText: 'alice' }).waitFor();
    await page.getByLabel('Username or email').fill('carol@example.org');
    await page.getByLabel('Role').selectOption('admin');
    const carolRow = page.locator('#members-table tbody tr', { hasText: 'carol' });
    await confirmWithPasskey(page, page.getByRole('button', { name: 'Give access' }), carolRow);
    await expect(carolRow.locator('td:nth-child(2)').textContent()).resolves.toBe('Admin');
    await confirmWithPasskey(
      page,
      carolRow.getByRole('button', { name: 'Remove access' }),
      page.locator('#members-status', { hasText: 'carol has no console access' }),
    );
    await expect(bed.t.dataSource.query('SELECT * FROM console_members')).resolves.toEqual([]);

    await page.goto(`${bed.base}/console/account`);
    const passkeyRow = page.locator('#passkeys-table tbody tr', { hasText: 'Work laptop' });
    await passkeyRow.getByRole('button', { name: 'Rename' }).click();
    await page.getByLabel('New name of Work laptop').fill('Office laptop');
    await page.keyboard.press('Enter');
    await settled(page, page.locator('#passkeys-table tbody tr', { hasText: 'Office laptop' }));
    await shoot(page, 'account');

    // Sign out, then sign in with the passkey (discoverable credential, no username typed).
    await page.locator('#sign-out').click();
    await page.locator('#signin').waitFor();
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.locator('#apps').waitFor();
    await page.locator('#apps-table a', { hasText: 'Customer Portal' }).waitFor();
    await shoot(page, 'applications');
    const session = await page.evaluate(() =>
      fetch('/api/console/session').then((res) => res.json()),
    );
    expect(session).toMatchObject({ authMethod: 'passkey', user: { username: 'alice' } });

    expect(problems).toEqual([]);
    await context.close();
  });

  it('a passkey without user verification confirms nothing: the key list stays the same', async () => {
    await createUser(bed.t.app, {
      username: 'alice',
      email: 'alice@example.org',
      password: PASSWORD,
    });
    const { context, page, cdp, authenticatorId } = await openBrowser();
    await signInWithPassword(page, bed.base);
    await registerPasskey(page, bed.base, 'Work laptop');
    const appId = await createApplication(page, bed.base, 'Customer Portal');
    await page.goto(`${bed.base}/console/applications/${appId}#api-access`);
    await page.locator('#keys-table tbody tr.empty').waitFor();

    await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: false });
    await page.locator('#create-key-open').click();
    await page.locator('#key-name').fill('production');
    await page.getByLabel('user:read').check();
    await page.locator('#create-key button[type="submit"]').click();
    await page.locator('#confirm-go').click();
    await page.locator('#confirm-error').waitFor();
    await expect(page.locator('#confirm-error').textContent()).resolves.toMatch(
      /not confirmed|passkey/i,
    );
    await page.locator('#confirm-cancel').click();

    expect(await page.locator('#new-key').isHidden()).toBe(true);
    await page.reload();
    await page.locator('#keys-table tbody tr.empty').waitFor();
    const keys = await bed.t.dataSource.query('SELECT id FROM api_keys WHERE application_id = $1', [
      appId,
    ]);
    expect(keys).toEqual([]);
    await context.close();
  });

  it('the account page lists a connected account, offers the others, and shows a refused disconnect', async () => {
    const alice = await createUser(bed.t.app, {
      username: 'alice',
      email: 'alice@example.org',
      password: PASSWORD,
    });
    const providers = bed.t.app.get(UpstreamProvidersService);
    for (const [id, displayName] of [
      ['gh', 'GitHub'],
      ['corp', 'Corp SSO'],
    ]) {
      await providers.create({
        id,
        displayName,
        kind: 'github',
        clientId: `client-${id}`,
        clientSecret: `secret-${id}`,
        settings: {},
      });
    }
    await bed.t.app.get(UpstreamIdentitiesService).bind(alice.id, {
      providerId: 'gh',
      subject: '4242',
      profile: {
        username: 'alice-gh',
        email: null,
        emailVerified: false,
        avatar: null,
        providerData: {},
      },
    });
    const { context, page, problems } = await openBrowser();
    await signInWithPassword(page, bed.base);
    await registerPasskey(page, bed.base, 'Work laptop');

    const row = page.locator('#upstreams-table tbody tr[data-upstream-id]');
    await row.first().waitFor();
    const cells = await row.first().locator('td').allTextContents();
    expect(cells.slice(0, 2)).toEqual(['GitHub', 'alice-gh']);
    expect(cells[2]).not.toBe('never');
    expect(await page.locator('#connect-upstreams button').allTextContents()).toEqual([
      'Connect Corp SSO',
    ]);

    // Without a password the binding is the last way to sign in: the server's refusal shows.
    const [{ password_hash: hash }] = await bed.t.dataSource.query(
      'SELECT password_hash FROM users WHERE id = $1',
      [alice.id],
    );
    await bed.t.dataSource.query('UPDATE users SET password_hash = NULL WHERE id = $1', [alice.id]);
    await row.first().getByRole('button', { name: 'Disconnect' }).click();
    await page.locator('#confirm-dialog').waitFor();
    await page.locator('#confirm-go').click();
    await page.locator('#confirm-error', { hasText: 'last way to sign in' }).waitFor();
    await page.locator('#confirm-cancel').click();
    expect(await page.locator('#upstreams-table tbody tr[data-upstream-id]').count()).toBe(1);
    expect(await bed.t.dataSource.query('SELECT id FROM upstream_identities')).toHaveLength(1);

    // With the password back, the passkey confirms the disconnect and GitHub is offered again.
    await bed.t.dataSource.query('UPDATE users SET password_hash = $2 WHERE id = $1', [
      alice.id,
      hash,
    ]);
    await confirmWithPasskey(
      page,
      row.first().getByRole('button', { name: 'Disconnect' }),
      page.locator('#upstreams-table tbody tr.empty'),
    );
    expect(await page.locator('#connect-upstreams button').allTextContents()).toEqual([
      'Connect Corp SSO',
      'Connect GitHub',
    ]);
    expect(await bed.t.dataSource.query('SELECT id FROM upstream_identities')).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a viewer sees Overview, Users and Events without controls; a t-level member sees nothing', async () => {
    const world = await consoleWorld(bed.t);
    const context = await bed.chromium.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const cookieOf = (client: { cookie: string }) => {
      const [name, value] = client.cookie.split('=');
      return { name, value, url: bed.base };
    };
    await context.addCookies([cookieOf(world.viewer)]);
    await page.goto(`${bed.base}/console/applications/${world.applicationId}#api-access`);
    // An admin tab in the URL falls back to Overview for a viewer.
    await page.locator('#tab-overview').waitFor();
    const tabs = await page.locator('.tabs a:visible').allTextContents();
    expect(tabs).toEqual(['Overview', 'Users', 'Events']);
    expect(await page.locator('#tab-api-access').isHidden()).toBe(true);
    await page.getByRole('link', { name: 'Users' }).click();
    await page.locator('#users-table tbody tr', { hasText: 'viewer@example.org' }).waitFor();
    expect(await page.locator('#users-table select, #users-table button').count()).toBe(0);

    await context.clearCookies();
    await context.addCookies([cookieOf(world.member)]);
    await page.goto(`${bed.base}/console/applications/${world.applicationId}`);
    await page.locator('#app-title', { hasText: 'Application not found' }).waitFor();
    expect(await page.locator('.tabs').isHidden()).toBe(true);
    await context.close();
  });

  it('serves every page with the security headers and the assets from /console/assets', async () => {
    for (const path of ['/console', '/console/account', '/console/applications/1']) {
      const res = await bed.t.http().get(path);
      expect(res.status).toBe(200);
      expect(res.headers['content-security-policy']).toBe(
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' https: data:; " +
          "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      );
      expect(res.headers).toMatchObject({
        'x-frame-options': 'DENY',
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
      });
      // No inline script: a <script> without src is the page's words, a JSON data block.
      expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)(?! type="application\/json")/);
      expect(res.text).not.toMatch(/\son[a-z]+=/);
      expect(res.text).not.toMatch(/<style|style=/);
    }
    const notAnId = await bed.t.http().get('/console/applications/abc');
    expect(notAnId.status).toBe(404);
    expect(notAnId.headers['x-frame-options']).toBe('DENY');

    const script = await bed.t.http().get('/console/assets/core.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    const css = await bed.t.http().get('/console/assets/style.css');
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    for (const path of ['/console/assets/nope.js', '/console/assets/..%2Fconsole-web.module.ts']) {
      const res = await bed.t.http().get(path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'not_found', message: expect.any(String) });
    }
  });

  /** Users and 30 days of authorizations, so the Overview and Users tabs have something to show. */
  async function seedActivity(appId: number): Promise<void> {
    const day = 86_400_000;
    const now = bed.t.clock.now().getTime();
    // A weekly rhythm, so the chart is not flat; each authorization goes to one of three users.
    const grants: { userIndex: number; at: Date }[] = [];
    for (let ago = 0; ago < 30; ago += 1) {
      const count = 2 + ((ago * 7) % 5) + (ago % 7 < 2 ? 0 : 3);
      for (let n = 0; n < count; n += 1) {
        grants.push({ userIndex: (ago + n) % 3, at: new Date(now - ago * day - n * 60_000) });
      }
    }
    const names = ['bob', 'carol', 'dave'];
    for (const [i, username] of names.entries()) {
      const user = await createUser(bed.t.app, {
        username,
        email: `${username}@example.org`,
        nickname: username[0].toUpperCase() + username.slice(1),
      });
      const mine = grants.filter((grant) => grant.userIndex === i);
      await relate(bed.t, appId, user.id, {
        group: ['t1', 't0', 'viewer'][i],
        authCount: mine.length,
        firstAuthAt: mine[mine.length - 1].at,
        lastAuthAt: mine[0].at,
      });
      for (const grant of mine) {
        await insertEvent(
          bed.t.dataSource,
          appId,
          'authorization_granted',
          grant.at.toISOString(),
          user.id,
        );
      }
    }
  }
});
