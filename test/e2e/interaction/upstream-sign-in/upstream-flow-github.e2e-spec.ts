import { UpstreamProvidersService } from '../../../../src/modules/upstreams/providers/upstream-providers.service';
import {
  approveFrom,
  authorizeParams,
  authorizePath,
  browser,
  exchangeCode,
  ISSUER,
  oauthSetup,
  pkce,
  type Agent,
} from '../../../support/oauth';
import { startGithubStandIn, type GithubStandIn } from '../../../support/upstream-standins/github';
import { visitUpstream } from '../../../support/upstream-standins/browser';
import { createTestApp, TestApp } from '../../../support/test-app';

/** The sign-in flow through the github kind and the GitHub stand-in on loopback. */
describe('Upstream sign-in flow with GitHub', () => {
  let t: TestApp;
  let github: GithubStandIn;
  beforeAll(async () => {
    t = await createTestApp();
    github = await startGithubStandIn();
  });
  afterAll(async () => {
    await github.close();
    await t.close();
  });
  beforeEach(() => t.truncate());

  async function start(agent: Agent): Promise<string> {
    const { application } = await oauthSetup(t.app);
    await t.app.get(UpstreamProvidersService).create({
      id: 'github',
      displayName: 'GitHub',
      kind: 'github',
      clientId: github.clientId,
      clientSecret: github.clientSecret,
      settings: github.settings,
    });
    const authorize = await agent.get(
      authorizePath(
        authorizeParams({ clientId: application.clientId, challenge: pkce().challenge }),
      ),
    );
    const page = await agent.get(authorize.headers.location);
    const href = /href="(\/api\/auth\/upstream\/github\/start\?request=[^"]+)"/.exec(page.text);
    const started = await agent.get((href?.[1] ?? '').replace(/&amp;/g, '&'));
    expect(started.status).toBe(302);
    return visitUpstream(started.headers.location, ISSUER);
  }

  it("creates the user from GitHub's login and verified primary email, and issues a code", async () => {
    github.user = {
      id: 583231,
      login: 'octocat',
      name: 'The Octocat',
      avatar_url: 'https://avatars.githubusercontent.com/u/583231',
      emails: [
        { email: 'octo@old.example', primary: false, verified: true, visibility: null },
        { email: 'octocat@github.example', primary: true, verified: true, visibility: 'public' },
      ],
    };
    const agent = browser(t.app);
    const back = await agent.get(await start(agent));
    expect(back.status).toBe(302);
    const { code } = await approveFrom(agent, back.headers.location);
    expect(code).toEqual(expect.any(String));
    const rows = await t.dataSource.query(
      `SELECT u.username, u.email, u.email_verified, i.provider_id, i.subject
       FROM upstream_identities i JOIN users u ON u.id = i.user_id`,
    );
    expect(rows).toEqual([
      {
        username: 'octocat',
        email: 'octocat@github.example',
        email_verified: true,
        provider_id: 'github',
        subject: '583231',
      },
    ]);
  });

  it('an unverified address reserves nothing: the person it belongs to still gets an account with it', async () => {
    const { application } = await oauthSetup(t.app);
    await t.app.get(UpstreamProvidersService).create({
      id: 'github',
      displayName: 'GitHub',
      kind: 'github',
      clientId: github.clientId,
      clientSecret: github.clientSecret,
      settings: github.settings,
    });
    /** Signs in through GitHub as `user`, consents; the access token and id_token claims. */
    const signIn = async (user: NonNullable<GithubStandIn['user']>) => {
      github.user = user;
      const agent = browser(t.app);
      const { verifier, challenge } = pkce();
      const authorize = await agent.get(
        authorizePath(
          authorizeParams({ clientId: application.clientId, challenge, scope: 'openid read' }),
        ),
      );
      const page = await agent.get(authorize.headers.location);
      const href = /href="(\/api\/auth\/upstream\/github\/start\?request=[^"]+)"/.exec(page.text);
      const started = await agent.get((href?.[1] ?? '').replace(/&amp;/g, '&'));
      const back = await agent.get(await visitUpstream(started.headers.location, ISSUER));
      expect({ status: back.status, text: back.status === 302 ? '' : back.text }).toEqual({
        status: 302,
        text: '',
      });
      const { code } = await approveFrom(agent, back.headers.location);
      const tokens = await exchangeCode(t.app, application.clientId, code, verifier);
      const idToken = JSON.parse(
        Buffer.from((tokens.id_token ?? '').split('.')[1], 'base64url').toString('utf8'),
      ) as Record<string, unknown>;
      const get = (path: string) =>
        t.http().get(path).set('Authorization', `Bearer ${tokens.access_token}`);
      const userinfo = await get('/api/oauth2/userinfo');
      const emails = await get('/api/oauth2/user/emails');
      expect([userinfo.status, emails.status]).toEqual([200, 200]);
      return { idToken, userinfo: userinfo.body as Record<string, unknown>, emails: emails.body };
    };

    // GitHub reports the address as the attacker's primary, unverified.
    const attacker = await signIn({
      id: 1001,
      login: 'mallory',
      name: null,
      avatar_url: 'https://avatars.example/u/1001',
      emails: [{ email: 'carol@victim.example', primary: true, verified: false, visibility: null }],
    });
    expect(attacker.userinfo.email).toBe('');
    expect(attacker.userinfo).not.toHaveProperty('email_verified');
    expect(attacker.idToken).not.toHaveProperty('email');
    expect(attacker.emails).toEqual([
      { email: 'carol@victim.example', verified: false, primary: false, visibility: 'public' },
    ]);

    // The real Carol, whose GitHub account has the address verified.
    const carol = await signIn({
      id: 2002,
      login: 'carol',
      name: 'Carol',
      avatar_url: 'https://avatars.example/u/2002',
      emails: [{ email: 'carol@victim.example', primary: true, verified: true, visibility: null }],
    });
    expect(carol.userinfo).toEqual(
      expect.objectContaining({ username: 'carol', email: 'carol@victim.example' }),
    );
    expect(carol.userinfo.id).not.toBe(attacker.userinfo.id);
    expect(carol.idToken).toEqual(
      expect.objectContaining({ email: 'carol@victim.example', email_verified: true }),
    );
    expect(carol.emails).toEqual([
      { email: 'carol@victim.example', verified: true, primary: true, visibility: 'public' },
    ]);
  });

  it('ends on a clear page when the person clicks Cancel at GitHub', async () => {
    github.user = null;
    const agent = browser(t.app);
    const res = await agent.get(await start(agent));
    expect(res.status).toBe(403);
    expect(res.text).toContain('Sign-in cancelled');
  });
});
