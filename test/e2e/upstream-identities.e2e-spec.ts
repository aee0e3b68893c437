import { UpstreamProvidersService } from '../../src/modules/upstreams/providers/upstream-providers.service';
import {
  UpstreamIdentitiesService,
  type UpstreamAccount,
} from '../../src/modules/upstreams/identities/upstream-identities.service';
import { createUser } from '../factories';
import {
  authorizeInteractively,
  browser,
  oauthSetup,
  pkce,
  REDIRECT_URI,
  tokenRequest,
} from '../utils/oauth';
import { createTestApp, TestApp } from '../utils/test-app';

function account(overrides: Partial<UpstreamAccount['profile']> = {}, subject = '583231') {
  return {
    providerId: 'github',
    subject,
    profile: {
      username: 'octocat',
      email: 'octocat@github.example',
      emailVerified: true,
      avatar: 'https://avatars.example/u/583231',
      providerData: { login: 'octocat' },
      ...overrides,
    },
  };
}

describe('Upstream identities (issue 11 items 3 and 6)', () => {
  let t: TestApp;
  let identities: UpstreamIdentitiesService;
  beforeAll(async () => {
    t = await createTestApp();
    identities = t.app.get(UpstreamIdentitiesService);
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  describe('signIn', () => {
    it('creates a user for an unknown identity, then signs the same identity in to it', async () => {
      const first = await identities.signIn(account());
      expect(first.kind).toBe('created');
      if (first.kind === 'email_taken') throw new Error('unexpected');
      expect(first.user).toMatchObject({
        username: 'octocat',
        email: 'octocat@github.example',
        emailVerified: true,
        passwordHash: null,
      });
      const emails = await t.dataSource.query(
        'SELECT email, verified, "primary" FROM user_emails WHERE user_id = $1',
        [first.user.id],
      );
      expect(emails).toEqual([{ email: 'octocat@github.example', verified: true, primary: true }]);

      const again = await identities.signIn(account({ username: 'octo-renamed' }));
      expect(again.kind).toBe('existing');
      if (again.kind === 'email_taken') throw new Error('unexpected');
      expect(again.user.id).toBe(first.user.id);
      expect(again.identity.profile.username).toBe('octo-renamed');
    });

    it('keeps an unverified email unverified', async () => {
      const outcome = await identities.signIn(account({ emailVerified: false }));
      if (outcome.kind === 'email_taken') throw new Error('unexpected');
      expect(outcome.user.emailVerified).toBe(false);
    });

    it('derives a unique username when the upstream one is taken or unusable', async () => {
      await createUser(t.app, { username: 'octocat', email: 'someone@example.org' });
      const taken = await identities.signIn(account({ email: null }));
      if (taken.kind === 'email_taken') throw new Error('unexpected');
      expect(taken.user.username).toBe('octocat-2');
      expect(taken.user.email).toBe('');

      const cjk = await identities.signIn(account({ username: '微信用户', email: null }, 'o6_b'));
      if (cjk.kind === 'email_taken') throw new Error('unexpected');
      expect(cjk.user.username).toBe('github-user');
    });

    it('never links to an existing account by a matching verified email', async () => {
      const alice = await createUser(t.app, { username: 'alice', email: 'octocat@github.example' });
      expect(await identities.signIn(account())).toEqual({ kind: 'email_taken' });
      const [{ count }] = await t.dataSource.query(
        'SELECT count(*)::int AS count FROM upstream_identities',
      );
      expect(count).toBe(0);
      // An unverified match proves nothing: a new account without that email.
      const unverified = await identities.signIn(account({ emailVerified: false }));
      if (unverified.kind === 'email_taken') throw new Error('unexpected');
      expect(unverified.kind).toBe('created');
      expect(unverified.user.id).not.toBe(alice.id);
      expect(unverified.user.email).toBe('');
    });
  });

  describe('bind', () => {
    it('binds to a signed-in user and refuses an identity another user holds', async () => {
      const alice = await createUser(t.app, { username: 'alice', email: 'alice@example.org' });
      const bob = await createUser(t.app, { username: 'bob', email: 'bob@example.org' });
      expect((await identities.bind(alice.id, account())).kind).toBe('bound');
      expect((await identities.bind(alice.id, account())).kind).toBe('bound');
      expect(await identities.bind(bob.id, account())).toEqual({ kind: 'taken' });
    });
  });

  it('userinfo lists each bound identity with the fields integrations declare, typed', async () => {
    const setup = await oauthSetup(t.app, { username: 'alice' });
    const { verifier, challenge } = pkce();
    const { code } = await authorizeInteractively(browser(t.app), {
      clientId: setup.application.clientId,
      challenge,
      scope: 'read',
      username: 'alice',
    });
    const token = await tokenRequest(t.app, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: setup.application.clientId,
      code_verifier: verifier,
    });
    // github is configured (its display name is upstream_name); wechat's configuration is gone.
    await t.app.get(UpstreamProvidersService).create({
      id: 'github',
      displayName: 'GitHub',
      kind: 'github',
      clientId: 'gh-client',
      clientSecret: 'gh-secret',
      settings: {},
    });
    await identities.bind(setup.user.id, account());
    await identities.bind(setup.user.id, {
      providerId: 'wechat',
      subject: 'o6_bmjrPTlm6_2sgVt7hMZOPfL2M',
      profile: {
        username: 'Alice W',
        // Unverified: shown as what the provider said, never the user's own email.
        email: 'alice.w@wechat.example',
        emailVerified: false,
        avatar: null,
        providerData: { unionid: 'o6_bmasdasdsad6_2sgVt7hMZOPfL' },
      },
    });
    // A snapshot of another shape (jsonb written by hand or an older version): types still hold.
    await identities.bind(setup.user.id, account({}, '99'));
    await t.dataSource.query(
      `UPDATE upstream_identities SET profile = '{"username": 7, "providerData": [1]}' WHERE subject = '99'`,
    );
    const res = await t
      .http()
      .get('/api/oauth2/userinfo')
      .set('Authorization', `Bearer ${token.body.access_token as string}`);
    expect(res.status).toBe(200);
    expect(res.body.email).toBe('alice@example.org');
    expect(res.body.upstreams).toEqual([
      {
        id: 1,
        upstream_id: null,
        upstream_name: 'GitHub',
        upstream_type: 'github',
        upstream_icon: null,
        upstream_user_id: '583231',
        upstream_username: 'octocat',
        upstream_email: 'octocat@github.example',
        upstream_avatar: 'https://avatars.example/u/583231',
        provider_data: { login: 'octocat' },
        username: 'octocat',
      },
      {
        id: 2,
        upstream_id: null,
        upstream_name: null,
        upstream_type: 'wechat',
        upstream_icon: null,
        upstream_user_id: 'o6_bmjrPTlm6_2sgVt7hMZOPfL2M',
        upstream_username: 'Alice W',
        upstream_email: 'alice.w@wechat.example',
        upstream_avatar: null,
        provider_data: { unionid: 'o6_bmasdasdsad6_2sgVt7hMZOPfL' },
        username: 'Alice W',
      },
      {
        id: 3,
        upstream_id: null,
        upstream_name: 'GitHub',
        upstream_type: 'github',
        upstream_icon: null,
        upstream_user_id: '99',
        upstream_username: null,
        upstream_email: null,
        upstream_avatar: null,
        provider_data: {},
        username: null,
      },
    ]);
  });
});
