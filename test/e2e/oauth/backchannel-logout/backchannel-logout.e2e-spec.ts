import { createHash } from 'node:crypto';
import { ApplicationsService } from '../../../../src/modules/applications/applications.service';
import { BackchannelDeliveryService } from '../../../../src/modules/oauth/backchannel-logout/backchannel-delivery.service';
import { KEY_CACHE_SECONDS } from '../../../../src/modules/signing-keys/signing-keys.service';
import { createApiKey, createApplication, createUser } from '../../../factories';
import { postAccountForm } from '../../../support/account';
import {
  BackchannelReceiver,
  verifyLogoutToken,
  type VerifiedLogout,
} from '../../../support/backchannel-receiver';
import { consoleClient, sessionCookieFrom } from '../../../support/console';
import {
  approveFrom,
  authorizeParams,
  authorizePath,
  browser,
  exchangeCode,
  expectStatus,
  hiddenInput,
  ISSUER,
  login,
  PASSWORD,
  pkce,
  REDIRECT_URI,
  tokenRequest,
  type Agent,
} from '../../../support/oauth';
import { useMailboxBed } from '../../../support/mailbox-bed';
import { codeOf } from '../../../support/smtp-server';
import type { TestApp } from '../../../support/test-app';

interface Client {
  id: number;
  clientId: string;
  path: string;
}

/** A browser's sign-in session: its cookie, and the id_token each client got in it. */
interface Session {
  agent: Agent;
  cookie: string;
  userId: string;
  username: string;
  idTokens: Map<string, string>;
  refreshTokens: Map<string, string>;
}

const claimsOf = (jwt: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString()) as Record<string, unknown>;

/**
 * OpenID Connect Back-Channel Logout 1.0 (docs/oidc.md, "Back-channel logout"): the sid of a
 * sign-in session in its id_tokens, and a logout token to each client that got an id_token in a
 * session when that session ends, validated as a relying party would (jose, against the JWKS).
 */
describe('Back-channel logout', () => {
  const receiver = new BackchannelReceiver();
  // The service with a mailbox on loopback: a password reset's code is emailed.
  const bed = useMailboxBed({ env: { WEBHOOKS_ALLOW_INSECURE: 'true' } });
  let t: TestApp;
  beforeAll(async () => {
    await receiver.start();
    t = bed.t;
  });
  afterAll(() => receiver.stop());
  beforeEach(() => {
    receiver.reset();
    // The truncated signing keys leave this instance's view within KEY_CACHE_SECONDS.
    t.clock.advance((KEY_CACHE_SECONDS + 1) * 1000);
  });

  /** A public client with a logout URI at the receiver's `path` (none when path is null). */
  async function client(name: string, path: string | null, alg?: 'ES256'): Promise<Client> {
    const { application } = await createApplication(t.app, {
      name,
      authMethod: 'none',
      redirectUris: [REDIRECT_URI],
    });
    await t.app.get(ApplicationsService).update(application.id, {
      backchannelLogoutUri: path === null ? null : receiver.url(path),
      ...(alg && { idTokenSignedResponseAlg: alg }),
    });
    return { id: application.id, clientId: application.clientId, path: path ?? '' };
  }

  async function user(username: string): Promise<string> {
    const created = await createUser(t.app, {
      username,
      email: `${username}@example.org`,
      password: PASSWORD,
      emailVerified: true,
    });
    return created.id;
  }

  /** Signs `username` in through the login page of an authorization by `first`. */
  async function signIn(username: string, first: Client, scope = 'openid'): Promise<Session> {
    const agent = browser(t.app);
    const { verifier, challenge } = pkce();
    const afterLogin = await login(agent, { clientId: first.clientId, challenge, username, scope });
    expectStatus(afterLogin, 303);
    const cookie = sessionCookieFrom(afterLogin);
    if (cookie === undefined) throw new Error('no session cookie after the login');
    const [row] = await t.dataSource.query<{ user_id: string }[]>(
      'SELECT user_id FROM oauth_sessions WHERE id = $1',
      [createHash('sha256').update(cookie).digest('hex')],
    );
    const session: Session = {
      agent,
      cookie,
      userId: row.user_id,
      username,
      idTokens: new Map(),
      refreshTokens: new Map(),
    };
    const { code } = await approveFrom(agent, afterLogin.headers.location);
    await exchange(session, first, code, verifier);
    return session;
  }

  /** Another authorization in the same session (no login page), and its code exchanged. */
  async function authorize(session: Session, by: Client, scope = 'openid'): Promise<void> {
    const { verifier, challenge } = pkce();
    const start = await session.agent.get(
      authorizePath(authorizeParams({ clientId: by.clientId, challenge, scope })),
    );
    expectStatus(start, 302);
    const { code } = await approveFrom(session.agent, start.headers.location);
    await exchange(session, by, code, verifier);
  }

  async function exchange(session: Session, by: Client, code: string, verifier: string) {
    const tokens = await exchangeCode(t.app, by.clientId, code, verifier);
    if (tokens.id_token !== undefined) session.idTokens.set(by.clientId, tokens.id_token);
    session.refreshTokens.set(by.clientId, tokens.refresh_token);
  }

  const endSession = (session: Session) =>
    session.agent.get(
      `/oauth2/logout?${new URLSearchParams({ id_token_hint: [...session.idTokens.values()][0] }).toString()}`,
    );

  const round = () => t.app.get(BackchannelDeliveryService).runRound();

  const jwks = async (): Promise<{ keys: object[] }> =>
    (await t.http().get('/api/oidc/jwks').expect(200)).body as { keys: object[] };

  const verify = async (token: string, audience: string): Promise<VerifiedLogout> =>
    verifyLogoutToken(token, await jwks(), { issuer: ISSUER, audience, now: t.clock.now() });

  it('sends each client that got an id_token in the session a logout token that jose verifies against the JWKS', async () => {
    const a = await client('A', '/a');
    const b = await client('B', '/b', 'ES256');
    await user('alice');
    const session = await signIn('alice', a);
    await authorize(session, b);
    const sid = claimsOf(session.idTokens.get(a.clientId)!).sid;

    expectStatus(await endSession(session), 200);
    // Queued in the transaction that ended the session; sent by the next round.
    expect(receiver.received).toEqual([]);
    expect(await round()).toEqual({ served: 2 });

    for (const [c, alg] of [
      [a, 'RS256'],
      [b, 'ES256'],
    ] as const) {
      const [logout] = receiver.at(c.path);
      expect(receiver.at(c.path)).toHaveLength(1);
      // Section 2.5: a form POST with the token as its only field.
      expect(logout.contentType).toBe('application/x-www-form-urlencoded');
      expect(Object.keys(logout.fields)).toEqual(['logout_token']);
      const { header, claims } = await verify(logout.token, c.clientId);
      expect(header).toMatchObject({ typ: 'logout+jwt', alg });
      expect(claims).toEqual({
        iss: ISSUER,
        aud: c.clientId,
        iat: expect.any(Number),
        exp: (claims.iat as number) + 120,
        jti: expect.any(String),
        sub: session.userId,
        sid,
        events: { 'http://schemas.openid.net/event/backchannel-logout': {} },
      });
      // Neither client's token is good at the other.
      const other = c === a ? b : a;
      await expect(verify(logout.token, other.clientId)).rejects.toThrow();
    }
    const rows = await t.dataSource.query<{ status: string; attempts: number }[]>(
      'SELECT status, attempts FROM backchannel_logouts ORDER BY id',
    );
    expect(rows).toEqual([
      { status: 'delivered', attempts: 1 },
      { status: 'delivered', attempts: 1 },
    ]);
    // Delivered once: later rounds send nothing.
    expect(await round()).toEqual({ served: 0 });
  });

  it('signs a fresh token with a new jti for every attempt', async () => {
    const a = await client('A', '/a');
    await user('alice');
    const session = await signIn('alice', a);
    receiver.answer('/a', { status: 503 });
    expectStatus(await endSession(session), 200);

    await round();
    t.clock.advance(60_000);
    await round();
    receiver.answer('/a', { status: 200 });
    t.clock.advance(60_000);
    await round();

    const tokens = receiver.at('/a').map((logout) => logout.token);
    expect(tokens).toHaveLength(3);
    expect(new Set(tokens).size).toBe(3);
    const claims = tokens.map(claimsOf);
    expect(new Set(claims.map((c) => c.jti)).size).toBe(3);
    // Each signed at its attempt: iat moves with the clock, exp two minutes after it.
    expect(claims.map((c) => (c.iat as number) - (claims[0].iat as number))).toEqual([0, 60, 120]);
    expect(claims.map((c) => (c.exp as number) - (c.iat as number))).toEqual([120, 120, 120]);
    // The last one verifies now; the first has expired.
    await verify(tokens[2], a.clientId);
    await expect(verify(tokens[0], a.clientId)).rejects.toThrow(/exp/);
    const [row] = await t.dataSource.query<{ status: string; attempts: number }[]>(
      'SELECT status, attempts FROM backchannel_logouts',
    );
    expect(row).toEqual({ status: 'delivered', attempts: 3 });
  });

  it('sends nothing to a client that got no id_token in the session', async () => {
    const a = await client('A', '/a');
    // B was authorized in the session, but without openid: it got no id_token.
    const b = await client('B', '/b');
    // C has a logout URI but was never used in this session; D was used in another session.
    await client('C', '/c');
    const d = await client('D', '/d');
    await user('alice');
    await user('bob');
    const session = await signIn('alice', a);
    await authorize(session, b, 'read');
    const elsewhere = await signIn('bob', d);

    expectStatus(await endSession(session), 200);
    await round();

    expect(receiver.received.map((logout) => logout.path)).toEqual(['/a']);
    const rows = await t.dataSource.query<{ application_id: number }[]>(
      'SELECT application_id FROM backchannel_logouts',
    );
    expect(rows).toEqual([{ application_id: a.id }]);
    // Bob's session at D stands.
    expect(
      await t.dataSource.query('SELECT user_id FROM oauth_sessions WHERE user_id = $1', [
        elsewhere.userId,
      ]),
    ).toHaveLength(1);
  });

  it('gives each sign-in session its own sid, the same in every id_token of the session and unrelated to the cookie', async () => {
    const a = await client('A', '/a');
    const b = await client('B', '/b');
    await user('alice');
    const first = await signIn('alice', a);
    await authorize(first, b);
    const second = await signIn('alice', a);

    const sidOf = (jwt: string) => claimsOf(jwt).sid as string;
    const firstSid = sidOf(first.idTokens.get(a.clientId)!);
    const secondSid = sidOf(second.idTokens.get(a.clientId)!);
    expect(firstSid).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(secondSid).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(secondSid).not.toBe(firstSid);
    // Every client of the session gets the same sid.
    expect(sidOf(first.idTokens.get(b.clientId)!)).toBe(firstSid);
    // A refresh repeats it (the code's family).
    const refreshed = await tokenRequest(t.app, {
      grant_type: 'refresh_token',
      refresh_token: first.refreshTokens.get(a.clientId)!,
      client_id: a.clientId,
    });
    expectStatus(refreshed, 200);
    expect(sidOf((refreshed.body as { id_token: string }).id_token)).toBe(firstSid);
    // It is the session's own value, not the cookie or the cookie's hash in any form.
    const cookieHash = createHash('sha256').update(first.cookie).digest();
    const [row] = await t.dataSource.query<{ sid: string }[]>(
      'SELECT sid FROM oauth_sessions WHERE id = $1',
      [cookieHash.toString('hex')],
    );
    expect(row.sid).toBe(firstSid);
    for (const derived of [
      first.cookie,
      cookieHash.toString('hex'),
      cookieHash.toString('base64url'),
      cookieHash.subarray(0, 16).toString('base64url'),
    ]) {
      expect(derived).not.toContain(firstSid);
      expect(firstSid).not.toContain(derived.slice(0, 8));
    }
  });

  it('sends the logouts for every way a session ends', async () => {
    const a = await client('A', '/a');
    const b = await client('B', '/b');
    /** Each way, on a session of a user of its own, signed in with an id_token for A. */
    const ways: [string, (session: Session) => Promise<void>][] = [
      ['the end-session endpoint', async (session) => expectStatus(await endSession(session), 200)],
      [
        'choosing another account',
        async (session) => {
          const { challenge } = pkce();
          const params = authorizeParams({ clientId: a.clientId, challenge, scope: 'openid' });
          const start = await session.agent.get(
            authorizePath({ ...params, prompt: 'select_account' }),
          );
          const page = await session.agent.get(start.headers.location);
          const answer = await session.agent
            .post('/oauth2/select-account')
            .type('form')
            .send({
              request: hiddenInput(page.text, 'request'),
              csrf_token: hiddenInput(page.text, 'csrf_token'),
              decision: 'switch',
            });
          expectStatus(answer, 303);
        },
      ],
      [
        'the console',
        async (session) => {
          await consoleClient(t, session.userId, session.cookie)
            .request('delete', '/api/console/session')
            .expect(204);
        },
      ],
      [
        'the account page',
        async (session) =>
          expectStatus(await postAccountForm(session.agent, '/account/logout'), 303),
      ],
      [
        'a password change in another browser',
        async (session) => {
          const other = browser(t.app);
          const page = await other.get('/account/login');
          const signedIn = await other
            .post('/account/login')
            .type('form')
            .send({
              csrf_token: hiddenInput(page.text, 'csrf_token'),
              username: session.username,
              password: PASSWORD,
            });
          expectStatus(signedIn, 303);
          const changed = await postAccountForm(other, '/account/password', {
            current_password: PASSWORD,
            new_password: 'another long passphrase',
            repeat_password: 'another long passphrase',
          });
          expectStatus(changed, 303);
        },
      ],
      [
        'a password reset in another browser',
        async (session) => {
          const other = browser(t.app);
          const forgot = await other.get('/oauth2/forgot-password');
          const asked = await other
            .post('/oauth2/forgot-password')
            .type('form')
            .send({
              csrf_token: hiddenInput(forgot.text, 'csrf_token'),
              email: `${session.username}@example.org`,
            });
          expectStatus(asked, 303);
          const mail = await bed.mailbox.next(`${session.username}@example.org`);
          const page = await other.get(asked.headers.location);
          const reset = await other
            .post('/oauth2/reset-password')
            .type('form')
            .send({
              id: hiddenInput(page.text, 'id'),
              csrf_token: hiddenInput(page.text, 'csrf_token'),
              code: codeOf(mail),
              password: 'a brand new passphrase',
              password_repeat: 'a brand new passphrase',
            });
          expectStatus(reset, 303);
        },
      ],
    ];
    for (const [index, [way, end]] of ways.entries()) {
      receiver.reset();
      const username = `user${index}`;
      await user(username);
      const session = await signIn(username, a);
      await authorize(session, b, 'read');
      const sid = claimsOf(session.idTokens.get(a.clientId)!).sid;
      await end(session);
      await round();
      const sent = await Promise.all(
        receiver.received.map(async (logout) => ({
          path: logout.path,
          claims: (await verify(logout.token, a.clientId)).claims,
        })),
      );
      expect([way, sent]).toEqual([
        way,
        [{ path: '/a', claims: expect.objectContaining({ sid, sub: session.userId }) }],
      ]);
    }
  });

  it("ends the session another user's sign-in replaces, with its logouts; the same user's new sign-in keeps its sid; the old cookie is dead either way", async () => {
    const a = await client('A', '/a');
    await user('alice');
    await user('bob');
    const session = await signIn('alice', a);
    const sid = claimsOf(session.idTokens.get(a.clientId)!).sid;
    const live = async (cookie: string): Promise<boolean> =>
      (
        await t.dataSource.query<unknown[]>('SELECT 1 FROM oauth_sessions WHERE id = $1', [
          createHash('sha256').update(cookie).digest('hex'),
        ])
      ).length === 1;

    // alice again (prompt=login): the same session under a new cookie, no logout.
    const again = async (username: string): Promise<string> => {
      const { verifier, challenge } = pkce();
      const afterLogin = await login(session.agent, {
        clientId: a.clientId,
        challenge,
        username,
        scope: 'openid',
        extra: { prompt: 'login' },
      });
      expectStatus(afterLogin, 303);
      const cookie = sessionCookieFrom(afterLogin);
      if (cookie === undefined) throw new Error('no session cookie after the login');
      const { code } = await approveFrom(session.agent, afterLogin.headers.location);
      await exchange(session, a, code, verifier);
      return cookie;
    };
    const renewed = await again('alice');
    expect(claimsOf(session.idTokens.get(a.clientId)!).sid).toBe(sid);
    expect(await live(session.cookie)).toBe(false);
    expect(await live(renewed)).toBe(true);
    expect(await round()).toEqual({ served: 0 });

    // bob in the same browser: alice's session ends as a sign-out would end it.
    const bobs = await again('bob');
    expect(claimsOf(session.idTokens.get(a.clientId)!).sid).not.toBe(sid);
    expect(await live(renewed)).toBe(false);
    expect(await live(bobs)).toBe(true);
    expect(await round()).toEqual({ served: 1 });
    const [logout] = receiver.at('/a');
    expect((await verify(logout.token, a.clientId)).claims).toMatchObject({
      sid,
      sub: session.userId,
    });

    // An expired session replaced by a sign-in is not a logout: nothing is sent for it.
    await t.dataSource.query(
      "UPDATE oauth_sessions SET expires_at = now() - interval '1 minute' WHERE id = $1",
      [createHash('sha256').update(bobs).digest('hex')],
    );
    receiver.reset();
    await again('alice');
    expect(await round()).toEqual({ served: 0 });
    expect(receiver.received).toEqual([]);
  });

  it('sends the forcing application alone a logout when its owner forces the user offline, the session kept', async () => {
    const a = await client('A', '/a');
    const b = await client('B', '/b');
    await user('alice');
    const session = await signIn('alice', a);
    await authorize(session, b);
    const sid = claimsOf(session.idTokens.get(a.clientId)!).sid;
    const { plaintext } = await createApiKey(t.app, a.id, ['relation:revoke']);

    await t
      .http()
      .post(`/api/v1/app/users/${session.userId}/revoke`)
      .set('Authorization', `Bearer ${plaintext}`)
      .expect(200);
    await round();

    expect(receiver.received.map((logout) => logout.path)).toEqual(['/a']);
    expect((await verify(receiver.received[0].token, a.clientId)).claims.sid).toBe(sid);
    // The session stays for B; when it ends, only B is told (A was told already).
    receiver.reset();
    expectStatus(await endSession(session), 200);
    await round();
    expect(receiver.received.map((logout) => logout.path)).toEqual(['/b']);
  });
});
