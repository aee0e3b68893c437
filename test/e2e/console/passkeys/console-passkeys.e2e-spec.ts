import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import { createUser } from '../../../factories';
import {
  consoleClient,
  consoleSession,
  sessionCookieFrom,
  type ConsoleClient,
} from '../../../support/console';
import {
  CONFIRMATION_HEADER,
  confirmationToken,
  newAuthenticator,
  registerPasskey,
} from '../../../support/passkeys';
import type {
  CeremonyOverrides,
  SoftwareAuthenticator,
} from '../../../support/software-authenticator';
import type { SessionAuthMethod } from '../../../../src/modules/sessions/oauth-session.entity';
import { createTestApp, type TestApp } from '../../../support/test-app';

const MINUTE = 60_000;
const PASSKEYS = '/api/console/account/passkeys';

/**
 * Passkeys (docs/console.md): registering (first after a recent password sign-in, later ones with a
 * confirmation), renaming and removing passkeys, and signing in to the console with one.
 */
describe('Console passkeys', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  async function signedIn(method: SessionAuthMethod = 'password'): Promise<ConsoleClient> {
    const user = await createUser(t.app);
    return consoleSession(t, user.id, method);
  }

  async function counterOf(passkeyId: string): Promise<number> {
    const [row] = await t.dataSource.query<{ counter: string }[]>(
      'SELECT counter FROM passkey_credentials WHERE id = $1',
      [passkeyId],
    );
    return Number(row.counter);
  }

  const list = async (client: ConsoleClient) =>
    (await client.request('get', PASSKEYS).expect(200)).body as { id: string; name: string }[];

  describe('registering the first passkey', () => {
    it('works within 5 minutes of a password sign-in and lists the passkey', async () => {
      const client = await signedIn();
      t.clock.advance(5 * MINUTE);
      const started = await client.request('post', `${PASSKEYS}/options`).send({}).expect(200);
      const options = started.body.options as PublicKeyCredentialCreationOptionsJSON;
      expect(options).toMatchObject({
        rp: { id: '127.0.0.1' },
        attestation: 'none',
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
        excludeCredentials: [],
      });
      const authenticator = newAuthenticator();
      const res = await client
        .request('post', PASSKEYS)
        .send({
          ceremonyId: started.body.ceremonyId,
          name: '  Work laptop ',
          response: authenticator.createCredential(options),
        })
        .expect(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: 'Work laptop',
        createdAt: t.clock.now().toISOString(),
        lastUsedAt: null,
        backedUp: false,
        transports: ['internal'],
      });
      expect(await list(client)).toEqual([res.body]);
      const audit = await t.dataSource.query(
        'SELECT application_id, actor_user_id, action, target FROM audit_log',
      );
      expect(audit).toEqual([
        {
          application_id: null,
          actor_user_id: client.userId,
          action: 'passkey.register',
          target: `passkey:${res.body.id}`,
        },
      ]);
    });

    it('needs a password sign-in: more than 5 minutes ago is 403 recent_sign_in_required', async () => {
      const client = await signedIn();
      t.clock.advance(5 * MINUTE + 1000);
      const res = await client.request('post', `${PASSKEYS}/options`).send({}).expect(403);
      expect(res.body.error).toBe('recent_sign_in_required');
    });

    it('an upstream provider sign-in within 5 minutes counts like a password sign-in', async () => {
      // Accounts created through a provider have no password (docs/upstreams.md).
      const client = await signedIn('upstream');
      await client.request('post', `${PASSKEYS}/options`).send({}).expect(200);
      const later = await signedIn('upstream');
      t.clock.advance(5 * MINUTE + 1000);
      const res = await later.request('post', `${PASSKEYS}/options`).send({}).expect(403);
      expect(res.body.error).toBe('recent_sign_in_required');
    });

    it('a passkey session (no password) cannot register a first passkey', async () => {
      const client = await signedIn('passkey');
      const res = await client.request('post', `${PASSKEYS}/options`).send({}).expect(403);
      expect(res.body.error).toBe('recent_sign_in_required');
    });

    it.each<[string, CeremonyOverrides]>([
      ['user verification missing', { userVerified: false }],
      ['another origin', { origin: 'https://evil.example' }],
      ['another RP id', { rpId: 'evil.example' }],
    ])('refuses an attestation with %s (400) and stores nothing', async (_, overrides) => {
      const client = await signedIn();
      const started = await client.request('post', `${PASSKEYS}/options`).send({}).expect(200);
      const res = await client
        .request('post', PASSKEYS)
        .send({
          ceremonyId: started.body.ceremonyId,
          name: 'x',
          response: newAuthenticator().createCredential(started.body.options, overrides),
        })
        .expect(400);
      expect(res.body.error).toBe('invalid_request');
      expect(await list(client)).toEqual([]);
    });

    it('a ceremony answers once and only for its user', async () => {
      const client = await signedIn();
      const other = await signedIn();
      const started = await client.request('post', `${PASSKEYS}/options`).send({}).expect(200);
      const response = newAuthenticator().createCredential(started.body.options);
      const send = (c: ConsoleClient) =>
        c.request('post', PASSKEYS).send({ ceremonyId: started.body.ceremonyId, response });
      expect((await send(other).expect(400)).body.error).toBe('invalid_request');
      expect(await list(other)).toEqual([]);
      // The other user's attempt did not spend it; the owner's first answer does.
      await send(client).expect(201);
      expect((await send(client).expect(400)).body.error).toBe('invalid_request');
      expect(await list(client)).toHaveLength(1);
    });

    it('an expired ceremony is refused', async () => {
      const client = await signedIn();
      const started = await client.request('post', `${PASSKEYS}/options`).send({}).expect(200);
      t.clock.advance(5 * MINUTE);
      await client
        .request('post', PASSKEYS)
        .send({
          ceremonyId: started.body.ceremonyId,
          response: newAuthenticator().createCredential(started.body.options),
        })
        .expect(400);
      expect(await list(client)).toEqual([]);
    });

    it.each([
      ['no body fields', {}],
      ['a name too long', { name: 'x'.repeat(65), response: {} }],
      ['a response that is not an object', { ceremonyId: 'x', response: 'nope' }],
    ])('answers 400 invalid_body for %s', async (_, body) => {
      const client = await signedIn();
      const res = await client.request('post', PASSKEYS).send(body).expect(400);
      expect(res.body.error).toBe('invalid_body');
    });
  });

  describe('registering a later passkey', () => {
    it('needs a passkey.register confirmation, spent by the options call', async () => {
      const client = await signedIn();
      const laptop = newAuthenticator();
      await registerPasskey(client, laptop);

      const bare = await client.request('post', `${PASSKEYS}/options`).send({}).expect(403);
      expect(bare.body.error).toBe('passkey_confirmation_required');

      const token = await confirmationToken(client, laptop, { action: 'passkey.register' });
      // The list is in creation order (created_at): a second later, as registrations are, so the
      // order is the timestamps', never the rows' physical order (the tables are emptied with
      // DELETE between tests, which lets a new row take an earlier row's place).
      t.clock.advance(1000);
      const phone = newAuthenticator();
      const second = await registerPasskey(client, phone, { confirmation: token, name: 'Phone' });
      expect(second.name).toBe('Phone');
      expect((await list(client)).map((p) => p.name)).toEqual(['Laptop', 'Phone']);

      const replay = await client
        .request('post', `${PASSKEYS}/options`)
        .set(CONFIRMATION_HEADER, token)
        .send({})
        .expect(403);
      expect(replay.body.error).toBe('passkey_confirmation_required');
    });

    it('offers the existing passkeys as excludeCredentials with the same user handle', async () => {
      const client = await signedIn();
      const laptop = newAuthenticator();
      await registerPasskey(client, laptop);
      const token = await confirmationToken(client, laptop, { action: 'passkey.register' });
      const started = await client
        .request('post', `${PASSKEYS}/options`)
        .set(CONFIRMATION_HEADER, token)
        .send({})
        .expect(200);
      const options = started.body.options as PublicKeyCredentialCreationOptionsJSON;
      expect(options.excludeCredentials).toEqual([
        {
          id: laptop.credentials[0].id.toString('base64url'),
          type: 'public-key',
          transports: ['internal'],
        },
      ]);
      expect(options.user.id).toBe(laptop.credentials[0].userHandle);
      expect(() => laptop.createCredential(options)).toThrow(/InvalidStateError/);
    });
  });

  describe('rename and remove', () => {
    it('renames a passkey (and records it)', async () => {
      const client = await signedIn();
      const passkey = await registerPasskey(client, newAuthenticator());
      const res = await client
        .request('patch', `${PASSKEYS}/${passkey.id}`)
        .send({ name: 'Old phone' })
        .expect(200);
      expect(res.body).toEqual({ ...passkey, name: 'Old phone' });
      expect(await list(client)).toEqual([res.body]);
      const [entry] = await t.dataSource.query(
        `SELECT details FROM audit_log WHERE action = 'passkey.rename'`,
      );
      expect(entry.details).toEqual({ from: 'Laptop', name: 'Old phone' });
    });

    it('answers 400 for a bad name and 404 for a passkey that is not mine', async () => {
      const client = await signedIn();
      const other = await signedIn();
      const passkey = await registerPasskey(client, newAuthenticator());
      for (const body of [{}, { name: '' }, { name: 'x'.repeat(65) }, { name: 7 }]) {
        const res = await client
          .request('patch', `${PASSKEYS}/${passkey.id}`)
          .send(body)
          .expect(400);
        expect(res.body.error).toBe('invalid_body');
      }
      for (const id of [passkey.id, 'not-a-uuid']) {
        const res = await other
          .request('patch', `${PASSKEYS}/${id}`)
          .send({ name: 'mine' })
          .expect(404);
        expect(res.body.error).toBe('not_found');
      }
      expect((await list(client))[0].name).toBe('Laptop');
    });

    it('removes a passkey with a passkey.remove confirmation for it', async () => {
      const client = await signedIn();
      const laptop = newAuthenticator();
      const passkey = await registerPasskey(client, laptop);
      const bare = await client.request('delete', `${PASSKEYS}/${passkey.id}`).expect(403);
      expect(bare.body.error).toBe('passkey_confirmation_required');
      expect(await list(client)).toHaveLength(1);

      const token = await confirmationToken(client, laptop, {
        action: 'passkey.remove',
        passkeyId: passkey.id,
      });
      await client
        .request('delete', `${PASSKEYS}/${passkey.id}`)
        .set(CONFIRMATION_HEADER, token)
        .expect(204);
      expect(await list(client)).toEqual([]);
      const actions = await t.dataSource.query(`SELECT action FROM audit_log ORDER BY id`);
      expect(actions).toEqual([{ action: 'passkey.register' }, { action: 'passkey.remove' }]);
    });

    it("another user's passkey is 404, not removable", async () => {
      const client = await signedIn();
      const other = await signedIn();
      const passkey = await registerPasskey(client, newAuthenticator());
      await other.request('delete', `${PASSKEYS}/${passkey.id}`).expect(404);
      expect(await list(client)).toHaveLength(1);
    });
  });

  describe('signing in with a passkey', () => {
    async function signInOptions(): Promise<{
      ceremonyId: string;
      options: PublicKeyCredentialRequestOptionsJSON;
    }> {
      const res = await t.http().post('/api/console/session/passkey/options').send({}).expect(200);
      return res.body;
    }

    /** A whole passkey sign-in, expecting `status`. */
    async function signIn(
      authenticator: SoftwareAuthenticator,
      status: number,
      overrides: CeremonyOverrides = {},
    ) {
      const { ceremonyId, options } = await signInOptions();
      return t
        .http()
        .post('/api/console/session/passkey')
        .send({ ceremonyId, response: authenticator.getAssertion(options, overrides) })
        .expect(status);
    }

    it('signs in with a discoverable credential, updating the counter and last use', async () => {
      const client = await signedIn();
      const authenticator = newAuthenticator();
      const passkey = await registerPasskey(client, authenticator);
      const { options } = await signInOptions();
      expect(options.allowCredentials).toEqual([]);
      expect(options.userVerification).toBe('required');
      expect(options.rpId).toBe('127.0.0.1');

      t.clock.advance(MINUTE);
      const res = await signIn(authenticator, 200);
      expect(res.body).toMatchObject({
        user: { id: client.userId },
        authMethod: 'passkey',
        signedInAt: t.clock.now().toISOString(),
      });
      const cookie = sessionCookieFrom(res)!;
      const session = consoleClient(t, client.userId, cookie);
      const listed = await list(session);
      expect(listed[0]).toMatchObject({ id: passkey.id, lastUsedAt: t.clock.now().toISOString() });
      expect(await counterOf(passkey.id)).toBe(1);
      await signIn(authenticator, 200);
      expect(await counterOf(passkey.id)).toBe(2);
    });

    it('refuses a replayed assertion and a stale counter (401), leaving the counter alone', async () => {
      const client = await signedIn();
      const authenticator = newAuthenticator();
      const passkey = await registerPasskey(client, authenticator);
      const { ceremonyId, options } = await signInOptions();
      const response = authenticator.getAssertion(options);
      const send = () =>
        t.http().post('/api/console/session/passkey').send({ ceremonyId, response });
      await send().expect(200);
      expect((await send().expect(401)).body.error).toBe('invalid_credentials');

      const stale = await signIn(authenticator, 401, { signCount: 1 });
      expect(stale.body.error).toBe('invalid_credentials');
      expect(sessionCookieFrom(stale)).toBeUndefined();
      expect(await counterOf(passkey.id)).toBe(1);
      // The authenticator's real counter (3 now) is still ahead: it signs in.
      await signIn(authenticator, 200);
      expect(await counterOf(passkey.id)).toBe(3);
    });

    it('accepts an authenticator that never counts (counter stays 0)', async () => {
      const client = await signedIn();
      const synced = newAuthenticator({ counterStep: 0 });
      const passkey = await registerPasskey(client, synced);
      await signIn(synced, 200);
      await signIn(synced, 200);
      expect(await counterOf(passkey.id)).toBe(0);
    });

    it.each<[string, CeremonyOverrides]>([
      ['user verification missing', { userVerified: false }],
      ['another origin', { origin: 'https://evil.example' }],
      ['another RP id', { rpId: 'evil.example' }],
      ['a forged signature', { forgeSignature: true }],
    ])('refuses an assertion with %s: 401, no session', async (_, overrides) => {
      const client = await signedIn();
      const authenticator = newAuthenticator();
      const passkey = await registerPasskey(client, authenticator);
      const res = await signIn(authenticator, 401, overrides);
      expect(res.body.error).toBe('invalid_credentials');
      expect(sessionCookieFrom(res)).toBeUndefined();
      expect(await counterOf(passkey.id)).toBe(0);
    });

    it("refuses an assertion whose user handle is not the credential's", async () => {
      const client = await signedIn();
      const authenticator = newAuthenticator();
      await registerPasskey(client, authenticator);
      const { ceremonyId, options } = await signInOptions();
      const response = authenticator.getAssertion(options);
      response.response.userHandle = Buffer.from('someone else').toString('base64url');
      const res = await t
        .http()
        .post('/api/console/session/passkey')
        .send({ ceremonyId, response })
        .expect(401);
      expect(sessionCookieFrom(res)).toBeUndefined();
    });

    it('refuses an unknown credential, a removed one and an unknown ceremony', async () => {
      const stranger = newAuthenticator();
      await registerPasskey(await signedIn(), stranger);
      await t.dataSource.query('DELETE FROM passkey_credentials');
      await signIn(stranger, 401);
      const { options } = await signInOptions();
      const res = await t
        .http()
        .post('/api/console/session/passkey')
        .send({
          ceremonyId: 'f0000000-0000-4000-8000-000000000000',
          response: stranger.getAssertion(options),
        })
        .expect(401);
      expect(res.body.error).toBe('invalid_credentials');
    });
  });

  it('account routes need a session (401) and a CSRF token on changes (403)', async () => {
    expect((await t.http().get(PASSKEYS).expect(401)).body.error).toBe('unauthenticated');
    const client = await signedIn();
    const res = await t
      .http()
      .post(`${PASSKEYS}/options`)
      .set('Cookie', client.cookie)
      .send({})
      .expect(403);
    expect(res.body.error).toBe('csrf_failed');
  });
});
