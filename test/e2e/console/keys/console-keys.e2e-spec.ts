import { bearer } from '../../../factories/app-users';
import { consoleSession, consoleWorld, type ConsoleWorld } from '../../../support/console';
import {
  CONFIRMATION_HEADER,
  confirmationToken,
  newAuthenticator,
  registerPasskey,
} from '../../../support/passkeys';
import type { SoftwareAuthenticator } from '../../../support/software-authenticator';
import { createTestApp, TestApp } from '../../../support/test-app';

const HOUR = 3_600_000;

interface KeyBody {
  id: number;
  name: string;
  prefix: string;
  scopes: string[];
  status: string;
  graceUntil: string | null;
  replacedById: number | null;
  lastUsedAt: string | null;
  createdAt: string;
  revokedAt: string | null;
}

/**
 * The API-access tab (docs/contract/api-keys.md#key-lifecycle; docs/console.md): list,
 * create, rotate with a 24-hour grace period, revoke, delete, each change confirmed with a
 * passkey and written to the audit log.
 */
describe('console API keys', () => {
  const start = new Date(Date.UTC(2030, 0, 1, 12, 0, 0));
  let t: TestApp;
  let w: ConsoleWorld;
  let authenticator: SoftwareAuthenticator;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.truncate();
    t.clock.set(start);
    w = await consoleWorld(t);
    authenticator = newAuthenticator();
    await registerPasskey(w.admin, authenticator);
  });

  const keysPath = (suffix = '') => `/api/console/applications/${w.applicationId}/keys${suffix}`;
  const listKeys = async (): Promise<KeyBody[]> =>
    (await w.admin.request('get', keysPath()).expect(200)).body as KeyBody[];
  const confirm = (action: string, keyId?: number) =>
    confirmationToken(w.admin, authenticator, { action, applicationId: w.applicationId, keyId });
  const me = (key: string) =>
    t
      .http()
      .get('/api/v1/app/me')
      .set(...bearer(key));
  const auditActions = async (): Promise<{ action: string; target: string; details: object }[]> =>
    (
      (
        await w.admin
          .request('get', `/api/console/applications/${w.applicationId}/audit-log`)
          .expect(200)
      ).body as { entries: { action: string; target: string; details: object }[] }
    ).entries;

  it('lists keys with prefix, scopes, status and times, never the plaintext or hash', async () => {
    const keys = await listKeys();
    expect(keys).toEqual([
      {
        id: w.keyId,
        name: 'first',
        prefix: w.key.slice(0, 12),
        scopes: ['user:read'],
        status: 'active',
        graceUntil: null,
        replacedById: null,
        lastUsedAt: null,
        createdAt: start.toISOString(),
        revokedAt: null,
      },
    ]);
    expect(JSON.stringify(keys)).not.toContain(w.key);
  });

  it('creates a key with two scopes: the plaintext once, usable at once, audited', async () => {
    const token = await confirm('key.create');
    const res = await w.admin
      .request('post', keysPath())
      .set(CONFIRMATION_HEADER, token)
      .send({ name: 'backend', scopes: ['user:read', 'stats:read'] });
    expect(res.status).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const { key, plaintext } = res.body as { key: KeyBody; plaintext: string };
    expect(plaintext).toMatch(/^svc_live_[0-9A-Za-z]{32}$/);
    expect(key).toMatchObject({
      name: 'backend',
      prefix: plaintext.slice(0, 12),
      scopes: ['user:read', 'stats:read'],
      status: 'active',
    });
    const called = await me(plaintext).expect(200);
    expect(called.body).toMatchObject({
      apiKey: { id: key.id, scopes: ['user:read', 'stats:read'] },
    });
    await t
      .http()
      .get('/api/v1/app/stats')
      .set(...bearer(plaintext))
      .expect(200);

    expect((await listKeys()).map((k) => k.id)).toEqual([w.keyId, key.id]);
    expect(JSON.stringify(await listKeys())).not.toContain(plaintext);
    const [entry] = await auditActions();
    expect(entry).toEqual(
      expect.objectContaining({
        action: 'key.create',
        target: `key:${key.id}`,
        details: {
          prefix: plaintext.slice(0, 12),
          name: 'backend',
          scopes: ['user:read', 'stats:read'],
        },
      }),
    );
    expect(JSON.stringify(await auditActions())).not.toContain(plaintext);
  });

  it('refuses a bad key body with 400 before spending the confirmation', async () => {
    const token = await confirm('key.create');
    for (const body of [
      {},
      { name: '', scopes: ['user:read'] },
      { name: 'x', scopes: [] },
      { name: 'x', scopes: ['everything'] },
      { name: 'x', scopes: 'user:read' },
    ]) {
      const res = await w.admin
        .request('post', keysPath())
        .set(CONFIRMATION_HEADER, token)
        .send(body);
      expect([res.status, (res.body as { error: string }).error]).toEqual([400, 'invalid_body']);
    }
    await w.admin
      .request('post', keysPath())
      .set(CONFIRMATION_HEADER, token)
      .send({ name: 'ok', scopes: ['user:read'] })
      .expect(201);
  });

  it('rotates: the old key works during the 24 h grace period, both are listed, then it is refused', async () => {
    const token = await confirm('key.rotate', w.keyId);
    const res = await w.admin
      .request('post', keysPath(`/${w.keyId}/rotate`))
      .set(CONFIRMATION_HEADER, token);
    expect(res.status).toBe(201);
    const { key, plaintext, previous } = res.body as {
      key: KeyBody;
      plaintext: string;
      previous: KeyBody;
    };
    const graceUntil = new Date(start.getTime() + 24 * HOUR).toISOString();
    expect(previous).toMatchObject({
      id: w.keyId,
      status: 'grace_period',
      graceUntil,
      replacedById: key.id,
    });
    expect(key).toMatchObject({ name: 'first', scopes: ['user:read'], status: 'active' });
    expect(plaintext).not.toBe(w.key);

    expect(await listKeys()).toEqual([
      expect.objectContaining({
        id: w.keyId,
        status: 'grace_period',
        graceUntil,
        replacedById: key.id,
      }),
      expect.objectContaining({ id: key.id, status: 'active', graceUntil: null }),
    ]);
    t.clock.advance(24 * HOUR - 1000);
    await me(w.key).expect(200);
    await me(plaintext).expect(200);

    t.clock.advance(1000);
    const refused = await me(w.key);
    expect([refused.status, (refused.body as { error: string }).error]).toEqual([
      401,
      'invalid_api_key',
    ]);
    await me(plaintext).expect(200);
    // The sign-in of a day ago has expired (SESSION_TTL_SECONDS, 12 h): sign in again.
    w.admin = await consoleSession(t, w.admin.userId);
    expect(await listKeys()).toEqual([
      expect.objectContaining({ id: w.keyId, status: 'expired', graceUntil: null }),
      expect.objectContaining({ id: key.id, status: 'active' }),
    ]);
    expect((await auditActions())[0]).toMatchObject({
      action: 'key.rotate',
      target: `key:${w.keyId}`,
      details: { newKeyId: key.id, graceUntil },
    });
  });

  it('refuses to rotate a key twice (409) without spending the confirmation', async () => {
    await w.admin
      .request('post', keysPath(`/${w.keyId}/rotate`))
      .set(CONFIRMATION_HEADER, await confirm('key.rotate', w.keyId))
      .expect(201);
    const token = await confirm('key.rotate', w.keyId);
    const res = await w.admin
      .request('post', keysPath(`/${w.keyId}/rotate`))
      .set(CONFIRMATION_HEADER, token);
    expect([res.status, (res.body as { error: string }).error]).toEqual([409, 'conflict']);
  });

  it('revokes at once, also a key in its grace period', async () => {
    const rotated = await w.admin
      .request('post', keysPath(`/${w.keyId}/rotate`))
      .set(CONFIRMATION_HEADER, await confirm('key.rotate', w.keyId))
      .expect(201);
    await me(w.key).expect(200);
    t.clock.advance(HOUR);
    const res = await w.admin
      .request('post', keysPath(`/${w.keyId}/revoke`))
      .set(CONFIRMATION_HEADER, await confirm('key.revoke', w.keyId));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: w.keyId,
      status: 'revoked',
      graceUntil: null,
      revokedAt: new Date(start.getTime() + HOUR).toISOString(),
    });
    await me(w.key).expect(401);
    await me((rotated.body as { plaintext: string }).plaintext).expect(200);
    expect((await auditActions())[0]).toMatchObject({
      action: 'key.revoke',
      target: `key:${w.keyId}`,
    });
  });

  it('deletes a key: it then fails like an unknown key and leaves the list', async () => {
    const res = await w.admin
      .request('delete', keysPath(`/${w.keyId}`))
      .set(CONFIRMATION_HEADER, await confirm('key.delete', w.keyId));
    expect(res.status).toBe(204);
    await me(w.key).expect(401);
    expect(await listKeys()).toEqual([]);
    expect((await auditActions())[0]).toMatchObject({
      action: 'key.delete',
      target: `key:${w.keyId}`,
      details: { prefix: w.key.slice(0, 12), name: 'first' },
    });
  });

  it("answers 404 for another application's key, an unknown key and a malformed id", async () => {
    const other = (
      await t.dataSource.query<{ id: number }[]>(
        `INSERT INTO api_keys (application_id, name, key_prefix, key_hash, scopes)
         VALUES ($1, 'theirs', 'svc_live_abc', repeat('a', 64), '{}') RETURNING id`,
        [w.otherApplicationId],
      )
    )[0].id;
    const token = await confirm('key.rotate', w.keyId);
    for (const keyId of [String(other), '999', 'abc', '0']) {
      for (const [method, suffix] of [
        ['post', '/rotate'],
        ['post', '/revoke'],
        ['delete', ''],
      ] as const) {
        const res = await w.admin
          .request(method, keysPath(`/${keyId}${suffix}`))
          .set(CONFIRMATION_HEADER, token);
        expect([keyId, suffix, res.status]).toEqual([keyId, suffix, 404]);
      }
    }
    // Nothing spent: the token still rotates the key it was made for.
    await w.admin
      .request('post', keysPath(`/${w.keyId}/rotate`))
      .set(CONFIRMATION_HEADER, token)
      .expect(201);
  });

  it('needs a confirmation for this action and this key: another key or action is 403 and changes nothing', async () => {
    const created = await w.admin
      .request('post', keysPath())
      .set(CONFIRMATION_HEADER, await confirm('key.create'))
      .send({ name: 'second', scopes: ['user:read'] })
      .expect(201);
    const secondId = (created.body as { key: KeyBody }).key.id;
    const forSecond = await confirm('key.revoke', secondId);
    const forDelete = await confirm('key.delete', w.keyId);
    for (const token of [forSecond, forDelete, undefined, 'forged']) {
      const req = w.admin.request('post', keysPath(`/${w.keyId}/revoke`));
      const res = await (token ? req.set(CONFIRMATION_HEADER, token) : req);
      expect([res.status, (res.body as { error: string }).error]).toEqual([
        403,
        'passkey_confirmation_required',
      ]);
    }
    expect((await listKeys()).map((k) => k.status)).toEqual(['active', 'active']);
    await me(w.key).expect(200);
  });

  it("moves the list's lastUsedAt when the key calls GET /api/v1/app/me", async () => {
    expect((await listKeys())[0].lastUsedAt).toBeNull();
    await me(w.key).expect(200);
    expect((await listKeys())[0].lastUsedAt).toBe(start.toISOString());
    t.clock.advance(2 * HOUR);
    await me(w.key).expect(200);
    expect((await listKeys())[0].lastUsedAt).toBe(
      new Date(start.getTime() + 2 * HOUR).toISOString(),
    );
  });

  it('keeps a confirmed operation intact through a CSRF failure: the token is still good afterwards', async () => {
    const token = await confirm('key.revoke', w.keyId);
    const path = keysPath(`/${w.keyId}/revoke`);
    const forged = await t
      .http()
      .post(path)
      .set('Cookie', w.admin.cookie)
      .set('X-CSRF-Token', 'forged')
      .set(CONFIRMATION_HEADER, token);
    expect([forged.status, (forged.body as { error: string }).error]).toEqual([403, 'csrf_failed']);
    await me(w.key).expect(200);
    await w.admin.request('post', path).set(CONFIRMATION_HEADER, token).expect(200);
    await me(w.key).expect(401);
  });
});
