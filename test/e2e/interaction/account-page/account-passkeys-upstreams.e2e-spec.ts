import { UpstreamIdentitiesService } from '../../../../src/modules/upstreams/identities/upstream-identities.service';
import { createUser } from '../../../factories';
import { accountBrowser } from '../../../support/account';
import { consoleClient, consoleSession, sessionCookieFrom } from '../../../support/console';
import { newAuthenticator, registerPasskey } from '../../../support/passkeys';
import { ISSUER, PASSWORD } from '../../../support/oauth';
import { visitUpstream } from '../../../support/upstream-standins/browser';
import { useUpstreamBed } from '../../../support/upstream-bed';

/**
 * The passkeys and connected accounts of the account page: listed by the server, changed by its
 * script through the console API (docs/accounts.md). The script itself runs in
 * account-browser.e2e-spec.ts.
 */
describe('Account page: passkeys and connected accounts', () => {
  const bed = useUpstreamBed({
    account: { sub: 'corp-42', email: 'alice@corp.example', email_verified: true },
  });
  let userId: string;
  beforeEach(async () => {
    userId = (
      await createUser(bed.t.app, {
        username: 'alice',
        email: 'alice@example.org',
        password: PASSWORD,
      })
    ).id;
    await bed.addProvider('corp', 'Corp SSO');
    await bed.addProvider('other', 'Other ID');
  });

  it('lists the passkeys with their times; their controls wait for the script', async () => {
    const passkey = await registerPasskey(await consoleSession(bed.t, userId), newAuthenticator(), {
      name: 'Phone <1>',
    });
    const page = await (await accountBrowser(bed.t.app)).get('/account');
    const row = new RegExp(`<tr data-passkey-id="${passkey.id}"[^>]*>([\\s\\S]*?)</tr>`).exec(
      page.text,
    );
    expect(row?.[0]).toContain('data-passkey-name="Phone &lt;1&gt;"');
    expect(row?.[1]).toContain('<td>Phone &lt;1&gt;</td>');
    expect(row?.[1]).toContain(`datetime="${passkey.createdAt}"`);
    expect(row?.[1]).toContain('never');
    expect(row?.[1]).toMatch(/data-remove-passkey\s+hidden/);
    expect(page.text).toContain('<div class="scripted" hidden><form id="add-passkey">');
    expect(page.text).toContain('Adding or removing a passkey needs JavaScript.');
  });

  it('lists the connected accounts and offers the providers not connected yet', async () => {
    await bed.t.app.get(UpstreamIdentitiesService).bind(userId, {
      providerId: 'corp',
      subject: 'corp-42',
      profile: {
        username: 'alice.corp',
        email: null,
        emailVerified: false,
        avatar: null,
        providerData: {},
      },
    });
    const page = await (await accountBrowser(bed.t.app)).get('/account');
    const row =
      /<tr data-upstream-id="(\d+)" data-upstream-provider="Corp SSO">([\s\S]*?)<\/tr>/.exec(
        page.text,
      );
    expect(row?.[2]).toContain('<td>Corp SSO</td>');
    expect(row?.[2]).toContain('<td>alice.corp</td>');
    expect(row?.[2]).toMatch(/data-disconnect\s+hidden/);
    expect(page.text).toContain('data-connect="other"');
    expect(page.text).not.toContain('data-connect="corp"');
  });

  it('serves its script, which uses the console module, and nothing else from its folder', async () => {
    const script = await bed.t.http().get('/account/assets/account.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
    expect(script.text).toContain("from '/console/assets/core.js'");
    expect((await bed.t.http().get('/console/assets/core.js')).status).toBe(200);
    expect((await bed.t.http().get('/account/assets/account.page.ts')).status).toBe(404);
    expect((await bed.t.http().get('/account/assets/..%2Faccount-emails.ts')).status).toBe(404);
  });

  it('connects a provider through the console API and returns to the account page', async () => {
    const agent = await accountBrowser(bed.t.app);
    // What the script does: the console's CSRF token, then the bind (fresh password sign-in).
    const session = await agent.get('/api/console/session');
    const start = await agent
      .post('/api/console/account/upstreams/corp/bind?returnTo=account')
      .set('X-CSRF-Token', session.body.csrfToken);
    expect(start.status).toBe(200);
    const back = await agent.get(await visitUpstream(start.body.location, ISSUER));
    expect(back.status).toBe(302);
    expect(back.headers.location).toBe('/account?done=upstream_connected');
    const page = await agent.get(back.headers.location);
    expect(page.text).toContain('The account was connected.');
    expect(page.text).toContain('data-upstream-provider="Corp SSO"');
    // Another value is refused before anything starts; none keeps the console's page.
    const bad = await agent
      .post('/api/console/account/upstreams/other/bind?returnTo=https://evil.example')
      .set('X-CSRF-Token', session.body.csrfToken);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('invalid_query');
  });

  it('keeps the console page as the default return of a binding', async () => {
    const res = await bed.t
      .http()
      .post('/api/console/session')
      .send({ login: 'alice', password: PASSWORD });
    const client = consoleClient(bed.t, userId, sessionCookieFrom(res)!);
    const start = await client.request('post', '/api/console/account/upstreams/corp/bind');
    expect(start.status).toBe(200);
    const attempt = (start.headers['set-cookie'] as unknown as string[])
      .map((line) => line.split(';')[0])
      .find((pair) => pair.startsWith('idsvc_upstream='));
    const back = await bed.t
      .http()
      .get(await visitUpstream(start.body.location, ISSUER))
      .set('Cookie', `${client.cookie}; ${attempt}`);
    expect(back.headers.location).toBe('/console/account');
  });
});
