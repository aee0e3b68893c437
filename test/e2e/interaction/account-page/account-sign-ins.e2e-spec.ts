import { PurgeService } from '../../../../src/modules/maintenance/purge.service';
import { createUser } from '../../../factories';
import { accountBrowser, submitAccountLogin } from '../../../support/account';
import { consoleSession } from '../../../support/console';
import { newAuthenticator, registerPasskey } from '../../../support/passkeys';
import {
  authorizeParams,
  authorizePath,
  browser,
  ISSUER,
  login,
  oauthSetup,
  PASSWORD,
  pkce,
} from '../../../support/oauth';
import { visitUpstream } from '../../../support/upstream-standins/browser';
import { useUpstreamBed } from '../../../support/upstream-bed';

const DAY = 24 * 60 * 60_000;

/** "Recent sign-ins": every sign-in path records one, with its session (docs/accounts.md). */
describe('Account page: recent sign-ins', () => {
  const bed = useUpstreamBed();

  const signIns = (): Promise<{ user_id: string; method: string; user_agent: string }[]> =>
    bed.t.dataSource.query('SELECT user_id, method, user_agent FROM sign_ins ORDER BY id');

  it('records the OAuth login, the console (password and passkey), upstream and account sign-ins', async () => {
    const { application, user } = await oauthSetup(bed.t.app);
    // The OAuth login page.
    const oauth = browser(bed.t.app).set('User-Agent', 'Browser/1 (OAuth)');
    expect(
      (await login(oauth, { clientId: application.clientId, challenge: pkce().challenge })).status,
    ).toBe(303);
    // The console: a password, then a passkey.
    const consolePassword = await bed.t
      .http()
      .post('/api/console/session')
      .set('User-Agent', 'Browser/2 (console)')
      .send({ login: 'alice', password: PASSWORD });
    expect(consolePassword.status).toBe(200);
    const authenticator = newAuthenticator();
    await registerPasskey(await consoleSession(bed.t, user.id), authenticator);
    const options = await bed.t.http().post('/api/console/session/passkey/options').send({});
    const passkey = await bed.t
      .http()
      .post('/api/console/session/passkey')
      .set('User-Agent', 'Browser/3 (passkey)')
      .send({
        ceremonyId: options.body.ceremonyId,
        response: authenticator.getAssertion(options.body.options),
      });
    expect(passkey.status).toBe(200);
    // An upstream provider (a new account, dana).
    await bed.addProvider();
    bed.upstream.account = { sub: 'corp-7', email: 'dana@corp.example', email_verified: true };
    const viaUpstream = browser(bed.t.app).set('User-Agent', 'Browser/4 (upstream)');
    const start = await viaUpstream.get(
      authorizePath(
        authorizeParams({ clientId: application.clientId, challenge: pkce().challenge }),
      ),
    );
    const loginPage = await viaUpstream.get(start.headers.location);
    const startLink = /href="(\/api\/auth\/upstream\/corp\/start\?request=[^"]+)"/.exec(
      loginPage.text,
    )![1];
    const toProvider = await viaUpstream.get(startLink.replace(/&amp;/g, '&'));
    const back = await viaUpstream.get(await visitUpstream(toProvider.headers.location, ISSUER));
    expect(back.status).toBe(302);
    // The account page.
    const account = browser(bed.t.app).set('User-Agent', 'Browser/5 (account)');
    expect((await submitAccountLogin(account, 'alice', PASSWORD)).status).toBe(303);

    const [dana] = await bed.t.dataSource.query("SELECT id FROM users WHERE username <> 'alice'");
    expect(await signIns()).toEqual([
      { user_id: user.id, method: 'password', user_agent: 'Browser/1 (OAuth)' },
      { user_id: user.id, method: 'password', user_agent: 'Browser/2 (console)' },
      { user_id: user.id, method: 'password', user_agent: 'e2e test' },
      { user_id: user.id, method: 'passkey', user_agent: 'Browser/3 (passkey)' },
      { user_id: dana.id, method: 'upstream', user_agent: 'Browser/4 (upstream)' },
      { user_id: user.id, method: 'password', user_agent: 'Browser/5 (account)' },
    ]);
    const [sessions] = await bed.t.dataSource.query('SELECT count(*) AS n FROM oauth_sessions');
    expect(Number(sessions.n)).toBe(6);
  });

  it('shows the last 20, newest first, with method, address and a User-Agent cut to 256 characters', async () => {
    await createUser(bed.t.app, {
      username: 'alice',
      email: 'alice@example.org',
      password: PASSWORD,
    });
    await bed.t.dataSource.query(
      `INSERT INTO sign_ins (user_id, method, ip, user_agent, created_at)
       SELECT u.id, 'upstream', '203.0.113.' || n, 'Old/' || n, $1::timestamptz + n * interval '1 minute'
       FROM users u, generate_series(1, 25) n`,
      [new Date(bed.t.clock.now().getTime() - DAY)],
    );
    const agent = browser(bed.t.app).set('User-Agent', `Long/${'x'.repeat(400)}`);
    expect((await submitAccountLogin(agent, 'alice', PASSWORD)).status).toBe(303);
    const page = await agent.get('/account');
    const section = page.text.slice(page.text.indexOf('id="sign-ins"'));
    const rows = [...section.matchAll(/<tr>\s*<td><time datetime="([^"]+)">[\s\S]*?<\/tr>/g)];
    expect(rows).toHaveLength(20);
    expect(rows[0][0]).toContain('<td>Password</td>');
    expect(rows[0][0]).toContain(`Long/${'x'.repeat(251)}</td>`);
    expect(rows[0][0]).not.toContain('x'.repeat(252));
    expect(rows[1][0]).toContain('<td class="mono">203.0.113.25</td>');
    expect(rows[1][0]).toContain('<td>Connected account</td>');
    expect(rows[19][0]).toContain('203.0.113.7<');
    const times = rows.map((row) => row[1]);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('keeps sign-ins 90 days: the purge deletes older ones', async () => {
    const { id } = await createUser(bed.t.app, { username: 'alice', email: 'alice@example.org' });
    const at = (daysAgo: number) => new Date(bed.t.clock.now().getTime() - daysAgo * DAY);
    for (const [label, daysAgo] of [
      ['gone', 91],
      ['kept', 89],
    ] as const) {
      await bed.t.dataSource.query(
        `INSERT INTO sign_ins (user_id, method, user_agent, created_at) VALUES ($1, 'password', $2, $3)`,
        [id, label, at(daysAgo)],
      );
    }
    const result = await bed.t.app.get(PurgeService).runOnce();
    expect(result.deleted.signIns).toBe(1);
    expect(await signIns()).toEqual([{ user_id: id, method: 'password', user_agent: 'kept' }]);
  });

  it('starts no session whose sign-in cannot be recorded (one statement)', async () => {
    await createUser(bed.t.app, {
      username: 'alice',
      email: 'alice@example.org',
      password: PASSWORD,
    });
    await bed.t.dataSource.query(`CREATE FUNCTION refuse_sign_in() RETURNS trigger AS $$
      BEGIN RAISE EXCEPTION 'sign-in refused by the test'; END $$ LANGUAGE plpgsql`);
    await bed.t.dataSource.query(
      'CREATE TRIGGER refuse_sign_in BEFORE INSERT ON sign_ins FOR EACH ROW EXECUTE FUNCTION refuse_sign_in()',
    );
    try {
      const res = await submitAccountLogin(browser(bed.t.app), 'alice', PASSWORD);
      expect(res.status).toBe(500);
      expect(res.headers['set-cookie'] ?? []).not.toEqual(
        expect.arrayContaining([expect.stringMatching(/^idsvc_session=[^;]/)]),
      );
      expect(await bed.t.dataSource.query('SELECT id FROM oauth_sessions')).toEqual([]);
    } finally {
      await bed.t.dataSource.query('DROP TRIGGER refuse_sign_in ON sign_ins');
      await bed.t.dataSource.query('DROP FUNCTION refuse_sign_in()');
    }
    await accountBrowser(bed.t.app);
    expect(await signIns()).toHaveLength(1);
  });
});
