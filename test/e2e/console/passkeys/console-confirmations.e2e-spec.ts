import type supertest from 'supertest';
import type { ConfirmationAction } from '../../../../src/modules/console/passkeys/confirmations/confirmation-actions';
import { PurgeService } from '../../../../src/modules/maintenance/purge.service';
import { createApiKey, createApplication, createUser } from '../../../factories';
import { relate } from '../../../factories/app-users';
import { consoleSession, grantConsoleRole, type ConsoleClient } from '../../../support/console';
import {
  beginConfirmation,
  CONFIRMATION_HEADER,
  confirmationToken,
  newAuthenticator,
  registerPasskey,
  type ConfirmationRequestBody,
} from '../../../support/passkeys';
import type {
  CeremonyOverrides,
  SoftwareAuthenticator,
} from '../../../support/software-authenticator';
import { createTestApp, type TestApp } from '../../../support/test-app';

const MINUTE = 60_000;

/** An owner and an admin of two applications, each with a passkey; keys 1, 2 in A and 3 in B. */
interface World {
  owner: ConsoleClient;
  ownerKey: SoftwareAuthenticator;
  admin: ConsoleClient;
  adminKey: SoftwareAuthenticator;
  appA: number;
  appB: number;
  key1: number;
  key2: number;
  key3: number;
}

/**
 * The confirmation exchange: POST /api/console/confirmations and its answer, and what
 * the token then allows. The operations that spend tokens on key, secret and application
 * routes are slice C's; passkey.register and passkey.remove are in console-passkeys.e2e-spec.ts.
 */
describe('Console passkey confirmations', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  async function ownedApplication(ownerId: string, name: string): Promise<number> {
    const { application } = await createApplication(t.app, { name, authMethod: 'secret' });
    await t.dataSource.query('UPDATE applications SET owner_id = $1 WHERE id = $2', [
      ownerId,
      application.id,
    ]);
    await relate(t, application.id, ownerId, { group: 'admin' });
    return application.id;
  }

  async function world(): Promise<World> {
    const ownerUser = await createUser(t.app);
    const adminUser = await createUser(t.app);
    const appA = await ownedApplication(ownerUser.id, 'A');
    const appB = await ownedApplication(ownerUser.id, 'B');
    await relate(t, appA, adminUser.id, { group: 'admin' });
    await relate(t, appB, adminUser.id, { group: 'admin' });
    await grantConsoleRole(t, appA, adminUser.id, 'admin');
    await grantConsoleRole(t, appB, adminUser.id, 'admin');
    const key1 = (await createApiKey(t.app, appA, ['user:read'], 'one')).apiKey.id;
    const key2 = (await createApiKey(t.app, appA, ['user:read'], 'two')).apiKey.id;
    const key3 = (await createApiKey(t.app, appB, ['user:read'], 'three')).apiKey.id;
    const owner = await consoleSession(t, ownerUser.id);
    const admin = await consoleSession(t, adminUser.id);
    const ownerKey = newAuthenticator();
    const adminKey = newAuthenticator();
    await registerPasskey(owner, ownerKey);
    await registerPasskey(admin, adminKey);
    return { owner, ownerKey, admin, adminKey, appA, appB, key1, key2, key3 };
  }

  /** Everything a confirmed operation could change: keys, client secrets, applications. */
  async function state(): Promise<unknown> {
    return t.dataSource.query(
      `SELECT (SELECT json_agg(k ORDER BY k.id) FROM (SELECT id, application_id, status, expires_at,
                replaced_by_id, revoked_at FROM api_keys) k) AS keys,
              (SELECT json_agg(a ORDER BY a.id) FROM (SELECT id, client_secret_hash
                FROM applications) a) AS applications`,
    );
  }

  describe('POST /api/console/confirmations', () => {
    it("answers request options for the user's own passkeys, UV required, for 5 minutes", async () => {
      const w = await world();
      const started = await beginConfirmation(w.owner, {
        action: 'key.create',
        applicationId: w.appA,
      });
      expect(started.confirmationId).toMatch(/^[0-9a-f-]{36}$/);
      expect(started.expiresAt).toBe(new Date(t.clock.now().getTime() + 5 * MINUTE).toISOString());
      expect(started.options).toMatchObject({
        rpId: '127.0.0.1',
        userVerification: 'required',
        allowCredentials: [
          { id: w.ownerKey.credentials[0].id.toString('base64url'), type: 'public-key' },
        ],
      });
    });

    it('a user without a passkey is told to register one: 409 passkey_not_registered', async () => {
      const w = await world();
      const bare = await consoleSession(t, (await createUser(t.app)).id);
      await relate(t, w.appA, bare.userId, { group: 'admin' });
      await grantConsoleRole(t, w.appA, bare.userId, 'admin');
      const res = await bare
        .request('post', '/api/console/confirmations')
        .send({ action: 'key.create', applicationId: w.appA })
        .expect(409);
      expect(res.body).toEqual({
        error: 'passkey_not_registered',
        message: expect.stringMatching(/register a passkey/i),
      });
    });

    it.each<[string, Record<string, unknown>]>([
      ['an unknown action', { action: 'key.steal', applicationId: 1 }],
      ['no action', { applicationId: 1 }],
      ['key.create without applicationId', { action: 'key.create' }],
      ['key.rotate without keyId', { action: 'key.rotate', applicationId: 1 }],
      ['a keyId that is not an integer', { action: 'key.revoke', applicationId: 1, keyId: '1' }],
      ['passkey.remove without passkeyId', { action: 'passkey.remove' }],
    ])('answers 400 invalid_body for %s', async (_, body) => {
      const w = await world();
      const res = await w.owner
        .request('post', '/api/console/confirmations')
        .send(body)
        .expect(400);
      expect(res.body.error).toBe('invalid_body');
    });

    it('checks the role the action needs and that the target exists, like the operation', async () => {
      const w = await world();
      const viewer = await consoleSession(t, (await createUser(t.app)).id);
      await relate(t, w.appA, viewer.userId, { group: 'viewer' });
      await grantConsoleRole(t, w.appA, viewer.userId, 'viewer');
      await registerPasskey(viewer, newAuthenticator());
      const begin = (client: ConsoleClient, body: ConfirmationRequestBody, status: number) =>
        client.request('post', '/api/console/confirmations').send(body).expect(status);

      // No role in the application (or no such application): 404, as for the operation.
      expect(
        (await begin(viewer, { action: 'key.create', applicationId: w.appB }, 404)).body.error,
      ).toBe('not_found');
      await begin(w.owner, { action: 'key.create', applicationId: 999 }, 404);
      // A role below what the action needs: 403 forbidden.
      expect(
        (await begin(viewer, { action: 'key.create', applicationId: w.appA }, 403)).body.error,
      ).toBe('forbidden');
      await begin(viewer, { action: 'client_secret.reset', applicationId: w.appA }, 403);
      await begin(w.admin, { action: 'application.delete', applicationId: w.appA }, 403);
      await begin(w.owner, { action: 'application.delete', applicationId: w.appA }, 201);
      // A key of another application, or none: 404.
      await begin(w.owner, { action: 'key.rotate', applicationId: w.appA, keyId: w.key3 }, 404);
      await begin(w.owner, { action: 'key.delete', applicationId: w.appA, keyId: 999 }, 404);
      await begin(w.owner, { action: 'key.revoke', applicationId: w.appB, keyId: w.key3 }, 201);
      // Another user's passkey: 404.
      const [adminPasskey] = (await w.admin.request('get', '/api/console/account/passkeys')).body;
      await begin(w.owner, { action: 'passkey.remove', passkeyId: adminPasskey.id }, 404);
      await begin(w.admin, { action: 'passkey.remove', passkeyId: adminPasskey.id }, 201);
      await begin(w.owner, { action: 'passkey.register' }, 201);
      expect(await t.dataSource.query('SELECT 1 FROM passkey_confirmations')).toEqual([]);
    });
  });

  describe('POST /api/console/confirmations/{confirmationId}', () => {
    async function answer(
      client: ConsoleClient,
      authenticator: SoftwareAuthenticator,
      confirmationId: string,
      options: Parameters<SoftwareAuthenticator['getAssertion']>[0],
      overrides: CeremonyOverrides = {},
    ): Promise<supertest.Response> {
      return client
        .request('post', `/api/console/confirmations/${confirmationId}`)
        .send({ response: authenticator.getAssertion(options, overrides) });
    }

    it('issues a token valid for 5 minutes and updates the counter and last use', async () => {
      const w = await world();
      const started = await beginConfirmation(w.owner, {
        action: 'key.create',
        applicationId: w.appA,
      });
      t.clock.advance(MINUTE);
      const res = await answer(w.owner, w.ownerKey, started.confirmationId, started.options);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        confirmationToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        expiresAt: new Date(t.clock.now().getTime() + 5 * MINUTE).toISOString(),
      });
      const [stored] = await t.dataSource.query(
        'SELECT token_hash, action, application_id, key_id, passkey_id FROM passkey_confirmations',
      );
      // Only the hash of the token is stored.
      expect(stored).toEqual({
        token_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
        action: 'key.create',
        application_id: w.appA,
        key_id: null,
        passkey_id: null,
      });
      expect(JSON.stringify(stored)).not.toContain(res.body.confirmationToken);
      const [passkey] = (await w.owner.request('get', '/api/console/account/passkeys')).body;
      expect(passkey.lastUsedAt).toBe(t.clock.now().toISOString());
      const [{ counter }] = await t.dataSource.query(
        'SELECT counter FROM passkey_credentials WHERE id = $1',
        [passkey.id],
      );
      expect(Number(counter)).toBe(1);
    });

    it.each<[string, CeremonyOverrides]>([
      ['a forged assertion (wrong signature)', { forgeSignature: true }],
      ['user verification missing (UV false)', { userVerified: false }],
      ['another origin', { origin: 'https://evil.example' }],
      ['another RP id', { rpId: 'evil.example' }],
    ])('refuses %s with 403 and spends the challenge', async (_, overrides) => {
      const w = await world();
      const started = await beginConfirmation(w.owner, {
        action: 'key.create',
        applicationId: w.appA,
      });
      const bad = await answer(
        w.owner,
        w.ownerKey,
        started.confirmationId,
        started.options,
        overrides,
      );
      expect(bad.status).toBe(403);
      expect(bad.body.error).toBe('passkey_confirmation_required');
      // One try per challenge: a good answer afterwards is refused too.
      const retry = await answer(w.owner, w.ownerKey, started.confirmationId, started.options);
      expect(retry.status).toBe(403);
      expect(await t.dataSource.query('SELECT 1 FROM passkey_confirmations')).toEqual([]);
    });

    it('refuses a signature counter that did not move forward, leaving the counter alone', async () => {
      const w = await world();
      await confirmationToken(w.owner, w.ownerKey, { action: 'key.create', applicationId: w.appA });
      const started = await beginConfirmation(w.owner, {
        action: 'key.create',
        applicationId: w.appA,
      });
      const stale = await answer(w.owner, w.ownerKey, started.confirmationId, started.options, {
        signCount: 1,
      });
      expect(stale.status).toBe(403);
      expect(stale.body.error).toBe('passkey_confirmation_required');
      const [{ counter }] = await t.dataSource.query(
        'SELECT counter FROM passkey_credentials WHERE user_id = $1',
        [w.owner.userId],
      );
      expect(Number(counter)).toBe(1);
    });

    it("refuses another user's challenge, an assertion of another user's passkey, an expired or unknown challenge", async () => {
      const w = await world();
      const started = await beginConfirmation(w.owner, {
        action: 'key.create',
        applicationId: w.appA,
      });
      // The admin cannot answer the owner's challenge, even with the owner's authenticator...
      expect(
        (await answer(w.admin, w.ownerKey, started.confirmationId, started.options)).status,
      ).toBe(403);
      // ...and the owner cannot answer with the admin's passkey.
      const adminCredential = w.adminKey.credentials[0].id.toString('base64url');
      const foreign = {
        ...started.options,
        allowCredentials: [{ id: adminCredential, type: 'public-key' as const }],
      };
      expect((await answer(w.owner, w.adminKey, started.confirmationId, foreign)).status).toBe(403);

      const late = await beginConfirmation(w.owner, {
        action: 'key.create',
        applicationId: w.appA,
      });
      t.clock.advance(5 * MINUTE);
      expect((await answer(w.owner, w.ownerKey, late.confirmationId, late.options)).status).toBe(
        403,
      );
      for (const id of ['f0000000-0000-4000-8000-000000000000', 'nope']) {
        expect((await answer(w.owner, w.ownerKey, id, late.options)).status).toBe(403);
      }
      expect(await t.dataSource.query('SELECT 1 FROM passkey_confirmations')).toEqual([]);
    });

    it("the admin's failed attempt does not spend the owner's challenge", async () => {
      const w = await world();
      const started = await beginConfirmation(w.owner, {
        action: 'key.create',
        applicationId: w.appA,
      });
      await answer(w.admin, w.adminKey, started.confirmationId, {
        ...started.options,
        allowCredentials: [],
      }).then((res) => expect(res.status).toBe(403));
      expect(
        (await answer(w.owner, w.ownerKey, started.confirmationId, started.options)).status,
      ).toBe(200);
    });
  });

  /**
   * The confirmed operations of slice C's routes: each on application A (and key 1), with the
   * target of its confirmation, its success status and, for the mismatch cases, a token of
   * another action on the same target.
   */
  interface ActionCase {
    action: ConfirmationAction;
    target: (w: World, app?: number, key?: number) => ConfirmationRequestBody;
    perform: (client: ConsoleClient, w: World) => supertest.Test;
    success: number;
    otherAction: ConfirmationAction;
    /** The answer to a replay after success (the target may be gone or no longer eligible). */
    replay: [number, string];
  }

  const keysOf = (w: World) => `/api/console/applications/${w.appA}/keys`;
  const ACTIONS: ActionCase[] = [
    {
      action: 'key.create',
      target: (w, app = w.appA) => ({ action: 'key.create', applicationId: app }),
      perform: (c, w) => c.request('post', keysOf(w)).send({ name: 'new', scopes: ['user:read'] }),
      success: 201,
      otherAction: 'client_secret.reset',
      replay: [403, 'passkey_confirmation_required'],
    },
    {
      action: 'key.rotate',
      target: (w, app = w.appA, key = w.key1) => ({
        action: 'key.rotate',
        applicationId: app,
        keyId: key,
      }),
      perform: (c, w) => c.request('post', `${keysOf(w)}/${w.key1}/rotate`),
      success: 201,
      otherAction: 'key.revoke',
      // A rotated key cannot be rotated again: refused before any token is looked at.
      replay: [409, 'conflict'],
    },
    {
      action: 'key.revoke',
      target: (w, app = w.appA, key = w.key1) => ({
        action: 'key.revoke',
        applicationId: app,
        keyId: key,
      }),
      perform: (c, w) => c.request('post', `${keysOf(w)}/${w.key1}/revoke`),
      success: 200,
      otherAction: 'key.delete',
      replay: [403, 'passkey_confirmation_required'],
    },
    {
      action: 'key.delete',
      target: (w, app = w.appA, key = w.key1) => ({
        action: 'key.delete',
        applicationId: app,
        keyId: key,
      }),
      perform: (c, w) => c.request('delete', `${keysOf(w)}/${w.key1}`),
      success: 204,
      otherAction: 'key.revoke',
      replay: [404, 'not_found'],
    },
    {
      action: 'client_secret.reset',
      target: (w, app = w.appA) => ({ action: 'client_secret.reset', applicationId: app }),
      perform: (c, w) => c.request('post', `/api/console/applications/${w.appA}/client-secret`),
      success: 200,
      otherAction: 'key.create',
      replay: [403, 'passkey_confirmation_required'],
    },
    {
      action: 'application.delete',
      target: (w, app = w.appA) => ({ action: 'application.delete', applicationId: app }),
      perform: (c, w) => c.request('delete', `/api/console/applications/${w.appA}`),
      success: 204,
      otherAction: 'client_secret.reset',
      replay: [404, 'not_found'],
    },
  ];

  /** The target of `c` with another action's name (its target fields, where it has them). */
  function otherActionTarget(c: ActionCase, w: World): ConfirmationRequestBody {
    const other = ACTIONS.find((a) => a.action === c.otherAction)!;
    return other.target(w);
  }

  describe.each(ACTIONS.map((c) => [c.action, c] as const))('%s', (_, c) => {
    async function refused(w: World, token: string | undefined): Promise<void> {
      const before = await state();
      const req = c.perform(w.owner, w);
      if (token !== undefined) req.set(CONFIRMATION_HEADER, token);
      const res = await req;
      expect({ status: res.status, body: res.body }).toEqual({
        status: 403,
        body: { error: 'passkey_confirmation_required', message: expect.any(String) },
      });
      expect(await state()).toEqual(before);
    }

    it('succeeds once with a valid token; the token is then spent', async () => {
      const w = await world();
      const token = await confirmationToken(w.owner, w.ownerKey, c.target(w));
      const before = await state();
      await c.perform(w.owner, w).set(CONFIRMATION_HEADER, token).expect(c.success);
      const after = await state();
      expect(after).not.toEqual(before);
      const replay = await c.perform(w.owner, w).set(CONFIRMATION_HEADER, token);
      expect([replay.status, replay.body.error]).toEqual(c.replay);
      expect(await state()).toEqual(after);
    });

    it('one token, two concurrent uses: exactly one succeeds', async () => {
      const w = await world();
      const token = await confirmationToken(w.owner, w.ownerKey, c.target(w));
      const statuses = await Promise.all(
        [1, 2].map(
          async () => (await c.perform(w.owner, w).set(CONFIRMATION_HEADER, token)).status,
        ),
      );
      expect(statuses.filter((s) => s === c.success)).toHaveLength(1);
    });

    it('without the header: 403, nothing changes', async () => {
      await refused(await world(), undefined);
    });

    it('with a token that was never issued: 403, nothing changes', async () => {
      await refused(await world(), 'x'.repeat(43));
    });

    it('with a token for another action on the same target: 403, nothing changes', async () => {
      const w = await world();
      await refused(w, await confirmationToken(w.owner, w.ownerKey, otherActionTarget(c, w)));
    });

    it('with a token for another application: 403, nothing changes', async () => {
      const w = await world();
      const token = await confirmationToken(w.owner, w.ownerKey, c.target(w, w.appB, w.key3));
      await refused(w, token);
    });

    if (c.action.startsWith('key.') && c.action !== 'key.create') {
      it('with a token for another key of the application: 403, nothing changes', async () => {
        const w = await world();
        const token = await confirmationToken(w.owner, w.ownerKey, c.target(w, w.appA, w.key2));
        await refused(w, token);
      });
    }

    if (c.action !== 'application.delete') {
      // Only the owner may delete the application, so no other user has such a token to lend.
      it("with another user's token for the same target: 403, nothing changes", async () => {
        const w = await world();
        await refused(w, await confirmationToken(w.admin, w.adminKey, c.target(w)));
      });
    }

    it('with an expired token: 403, nothing changes', async () => {
      const w = await world();
      const token = await confirmationToken(w.owner, w.ownerKey, c.target(w));
      t.clock.advance(5 * MINUTE);
      await refused(w, token);
    });

    it.each<[string, CeremonyOverrides]>([
      ['a forged assertion', { forgeSignature: true }],
      ['UV false', { userVerified: false }],
      ['a wrong origin', { origin: 'https://evil.example' }],
    ])('%s yields no token, and the operation is refused: 403', async (_, overrides) => {
      const w = await world();
      const started = await beginConfirmation(w.owner, c.target(w));
      const res = await w.owner
        .request('post', `/api/console/confirmations/${started.confirmationId}`)
        .send({ response: w.ownerKey.getAssertion(started.options, overrides) })
        .expect(403);
      expect(res.body.error).toBe('passkey_confirmation_required');
      expect(res.body.confirmationToken).toBeUndefined();
      await refused(w, undefined);
    });
  });

  it('the purge job removes expired ceremonies and tokens, keeps live ones', async () => {
    const w = await world();
    await confirmationToken(w.owner, w.ownerKey, { action: 'key.create', applicationId: w.appA });
    t.clock.advance(5 * MINUTE + 1000);
    await confirmationToken(w.owner, w.ownerKey, { action: 'key.create', applicationId: w.appA });
    const { deleted } = await t.app.get(PurgeService).runOnce();
    // The two registrations' ceremonies and the first confirmation's ceremony and token.
    expect(deleted).toMatchObject({ passkeyCeremonies: 3, passkeyConfirmations: 1 });
    const [{ n }] = await t.dataSource.query(
      'SELECT count(*)::int AS n FROM passkey_confirmations',
    );
    expect(n).toBe(1);
  });

  it('a confirmation needs a session and the CSRF token', async () => {
    const w = await world();
    await t
      .http()
      .post('/api/console/confirmations')
      .send({ action: 'passkey.register' })
      .expect(401);
    const res = await t
      .http()
      .post('/api/console/confirmations')
      .set('Cookie', w.owner.cookie)
      .send({ action: 'passkey.register' })
      .expect(403);
    expect(res.body.error).toBe('csrf_failed');
    expect(CONFIRMATION_HEADER).toBe('X-Passkey-Confirmation');
  });
});
