import { UpstreamProvidersService } from '../../../../src/modules/upstreams/providers/upstream-providers.service';
import {
  UpstreamIdentitiesService,
  type UpstreamAccount,
} from '../../../../src/modules/upstreams/identities/upstream-identities.service';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../../../src/database/data-source';
import { MIGRATIONS } from '../../../../src/database/migrations';
import { UnverifiedUpstreamEmails1795450000000 as UnverifiedEmails } from '../../../../src/database/migrations/1795450000000-UnverifiedUpstreamEmails';
import { createUser } from '../../../factories';
import {
  authorizeInteractively,
  browser,
  oauthSetup,
  pkce,
  REDIRECT_URI,
  tokenRequest,
} from '../../../support/oauth';
import { scratchDatabase, ScratchDatabase } from '../../../support/scratch-database';
import { createTestApp, TestApp } from '../../../support/test-app';

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

describe('Upstream identities', () => {
  let t: TestApp;
  let identities: UpstreamIdentitiesService;
  beforeAll(async () => {
    t = await createTestApp();
    identities = t.app.get(UpstreamIdentitiesService);
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());
  const emailsOf = (userId: string) =>
    t.dataSource.query(
      'SELECT email, verified, "primary" FROM user_emails WHERE user_id = $1 ORDER BY id',
      [userId],
    );

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

    it('keeps an unverified email as an unverified, non-primary entry, never as the email', async () => {
      const outcome = await identities.signIn(account({ emailVerified: false }));
      if (outcome.kind === 'email_taken') throw new Error('unexpected');
      expect(outcome.user).toMatchObject({ email: '', emailVerified: false });
      expect(await emailsOf(outcome.user.id)).toEqual([
        { email: 'octocat@github.example', verified: false, primary: false },
      ]);
      // It reserves nothing: a second unverified claim and a local account may both have it.
      const second = await identities.signIn(account({ emailVerified: false }, '999'));
      expect(second.kind).toBe('created');
      await createUser(t.app, { username: 'owner', email: 'octocat@github.example' });
    });

    it('adopts the address as primary once the same provider reports it verified', async () => {
      const first = await identities.signIn(account({ emailVerified: false }));
      if (first.kind === 'email_taken') throw new Error('unexpected');
      const later = await identities.signIn(account());
      if (later.kind === 'email_taken') throw new Error('unexpected');
      expect(later.user).toMatchObject({
        id: first.user.id,
        email: 'octocat@github.example',
        emailVerified: true,
      });
      const [row] = await t.dataSource.query(
        'SELECT email, email_verified FROM users WHERE id = $1',
        [first.user.id],
      );
      expect(row).toEqual({ email: 'octocat@github.example', email_verified: true });
      expect(await emailsOf(first.user.id)).toEqual([
        { email: 'octocat@github.example', verified: true, primary: true },
      ]);
    });

    it('does not adopt a verified address another account holds meanwhile', async () => {
      const first = await identities.signIn(account({ emailVerified: false }));
      if (first.kind === 'email_taken') throw new Error('unexpected');
      const carol = await identities.signIn({ ...account(), providerId: 'corp', subject: 'c1' });
      expect(carol.kind).toBe('created');
      const later = await identities.signIn(account());
      if (later.kind === 'email_taken') throw new Error('unexpected');
      expect(later.user).toMatchObject({ id: first.user.id, email: '', emailVerified: false });
      expect(await emailsOf(first.user.id)).toEqual([
        { email: 'octocat@github.example', verified: false, primary: false },
      ]);
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

    it('never links to an account holding the verified address as a secondary entry or an unverified primary', async () => {
      // Whoever holds the address there may not have proved it, and the provider's person has
      // not proved they hold that account: a merge would let either sign in to the other's.
      const alice = await createUser(t.app, { username: 'alice', email: 'alice@example.org' });
      await t.dataSource.query(
        `INSERT INTO user_emails (user_id, email, verified, "primary") VALUES ($1, $2, true, false)`,
        [alice.id, 'octocat@github.example'],
      );
      expect(await identities.signIn(account())).toEqual({ kind: 'email_taken' });
      await t.dataSource.query('DELETE FROM user_emails WHERE lower(email) = $1', [
        'octocat@github.example',
      ]);
      const bob = await createUser(t.app, { username: 'bob', email: 'octocat@github.example' });
      await t.dataSource.query('UPDATE users SET email_verified = false WHERE id = $1', [bob.id]);
      await t.dataSource.query('UPDATE user_emails SET verified = false WHERE user_id = $1', [
        bob.id,
      ]);
      expect(await identities.signIn(account())).toEqual({ kind: 'email_taken' });
      const [{ count }] = await t.dataSource.query(
        'SELECT count(*)::int AS count FROM upstream_identities',
      );
      expect(count).toBe(0);
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

describe('migration UnverifiedUpstreamEmails on accounts created before it', () => {
  let db: ScratchDatabase;
  let dataSource: DataSource | undefined;
  beforeEach(async () => {
    db = await scratchDatabase();
  });
  afterEach(async () => {
    await dataSource?.destroy();
    await db.drop();
  });

  it("takes an unverified upstream address away as the account's email, and frees it", async () => {
    dataSource = await new DataSource({
      ...dataSourceOptions(db.target),
      migrations: MIGRATIONS.filter((m) => m !== UnverifiedEmails),
      logging: false,
    }).initialize();
    await dataSource.runMigrations();
    // 1: created by an upstream sign-in with an unverified address (as the code before did);
    // 2: the same with a verified one; 3: a local account without password, unverified, later
    // bound to a provider reporting the same address.
    const at = "'2026-01-02T03:04:05Z'";
    await dataSource.query(
      `INSERT INTO users (id, username, email, email_verified, created_at) VALUES
         (1, 'mallory', 'carol@victim.example', false, ${at}),
         (2, 'dave', 'dave@example.org', true, ${at}),
         (3, 'erin', 'erin@example.org', false, ${at})`,
    );
    await dataSource.query(
      `INSERT INTO user_emails (user_id, email, verified, "primary") VALUES
         (1, 'carol@victim.example', false, true), (2, 'dave@example.org', true, true),
         (3, 'erin@example.org', false, true)`,
    );
    const profile = (email: string, verified: boolean) =>
      JSON.stringify({
        username: null,
        email,
        emailVerified: verified,
        avatar: null,
        providerData: {},
      });
    await dataSource.query(
      `INSERT INTO upstream_identities (provider_id, subject, user_id, profile, created_at) VALUES
         ('github', '1', 1, $1, ${at}), ('github', '2', 2, $2, ${at}),
         ('github', '3', 3, $3, '2026-02-01T00:00:00Z')`,
      [
        profile('carol@victim.example', false),
        profile('dave@example.org', true),
        profile('erin@example.org', false),
      ],
    );

    dataSource.migrations.push(new UnverifiedEmails());
    await dataSource.runMigrations();

    expect(
      await dataSource.query('SELECT id, email, email_verified FROM users ORDER BY id'),
    ).toEqual([
      { id: '1', email: '', email_verified: false },
      { id: '2', email: 'dave@example.org', email_verified: true },
      { id: '3', email: 'erin@example.org', email_verified: false },
    ]);
    expect(
      await dataSource.query(
        'SELECT user_id, email, verified, "primary" FROM user_emails ORDER BY user_id',
      ),
    ).toEqual([
      { user_id: '1', email: 'carol@victim.example', verified: false, primary: false },
      { user_id: '2', email: 'dave@example.org', verified: true, primary: true },
      { user_id: '3', email: 'erin@example.org', verified: false, primary: true },
    ]);
    // The address is free for the person who can verify it.
    await dataSource.query(
      `INSERT INTO users (id, username, email, email_verified) VALUES (4, 'carol', 'carol@victim.example', true)`,
    );
    await dataSource.query(
      `INSERT INTO user_emails (user_id, email, verified, "primary") VALUES (4, 'Carol@victim.example', true, true)`,
    );
    // A verified or primary entry still claims its address; one user holds an address once.
    await expect(
      dataSource.query(
        `INSERT INTO user_emails (user_id, email, verified) VALUES (2, 'CAROL@victim.example', true)`,
      ),
    ).rejects.toMatchObject({ driverError: { code: '23505' } });
    await expect(
      dataSource.query(
        `INSERT INTO user_emails (user_id, email) VALUES (1, 'carol@victim.example')`,
      ),
    ).rejects.toMatchObject({ driverError: { code: '23505' } });
  });
});
