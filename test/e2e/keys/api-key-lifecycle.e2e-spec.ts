import { ApiKeysService } from '../../../src/modules/keys/api-keys.service';
import { sha256Hex } from '../../../src/common/crypto/hash';
import { createApiKey, createApplication } from '../../factories';
import { createTestApp, TestApp } from '../../support/test-app';

const HOUR = 3600_000;

// docs/contract/api-keys.md#key-lifecycle: create, rotate (24 h grace), revoke, delete; lastUsedAt.
describe('API key lifecycle', () => {
  let t: TestApp;
  let keys: ApiKeysService;
  beforeAll(async () => {
    t = await createTestApp();
    keys = t.app.get(ApiKeysService);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.truncate();
    t.clock.set(new Date('2026-05-01T00:00:00.000Z'));
  });

  const me = (key: string) => t.http().get('/api/v1/app/me').set('Authorization', `Bearer ${key}`);

  async function newKey(scopes: Parameters<typeof createApiKey>[2] = ['user:read']) {
    const { application } = await createApplication(t.app);
    return createApiKey(t.app, application.id, scopes);
  }

  it('stores only the SHA-256 hash and the 12-character prefix', async () => {
    const { plaintext, apiKey } = await newKey();
    const rows = await t.dataSource.query('SELECT * FROM api_keys WHERE id = $1', [apiKey.id]);
    expect(rows).toHaveLength(1);
    expect(rows[0].key_hash).toBe(sha256Hex(plaintext));
    expect(rows[0].key_prefix).toBe(plaintext.slice(0, 12));
    expect(JSON.stringify(rows[0])).not.toContain(plaintext.slice(12));
  });

  it('rejects unknown scopes at creation', async () => {
    const { application } = await createApplication(t.app);
    await expect(
      keys.create(application.id, 'k', ['user:read', 'everything']),
    ).rejects.toMatchObject({
      status: 400,
      message: 'Unknown scopes: everything',
    });
  });

  it('keeps the old key working for the grace period after rotation, then rejects it by expiry', async () => {
    const old = await newKey(['user:read', 'stats:read']);
    const rotated = await keys.rotate(old.apiKey.id);

    expect(rotated.plaintext).not.toBe(old.plaintext);
    expect(rotated.apiKey.scopes).toEqual(['user:read', 'stats:read']);
    expect(rotated.apiKey.name).toBe(old.apiKey.name);
    expect((await me(rotated.plaintext)).status).toBe(200);

    t.clock.advance(24 * HOUR - 1000);
    const during = await me(old.plaintext);
    expect(during.status).toBe(200);
    expect(during.body.apiKey.status).toBe('active');

    t.clock.advance(1000);
    const after = await me(old.plaintext);
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ error: 'invalid_api_key', message: 'The API key is invalid' });
    expect((await me(rotated.plaintext)).status).toBe(200);
    expect(keys.statusOf((await keys.list(old.apiKey.applicationId))[0])).toBe('expired');
  });

  it('refuses to rotate a key twice, a revoked key or an unknown key', async () => {
    const key = await newKey();
    await keys.rotate(key.apiKey.id);
    await expect(keys.rotate(key.apiKey.id)).rejects.toMatchObject({ status: 409 });
    const other = await newKey();
    await keys.revoke(other.apiKey.id);
    await expect(keys.rotate(other.apiKey.id)).rejects.toMatchObject({ status: 409 });
    await expect(keys.rotate(999999)).rejects.toMatchObject({ status: 404 });
  });

  it('revokes at once, also during a grace period', async () => {
    const key = await newKey();
    expect((await me(key.plaintext)).status).toBe(200);
    await keys.revoke(key.apiKey.id);
    const res = await me(key.plaintext);
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_api_key');

    const graced = await newKey();
    await keys.rotate(graced.apiKey.id);
    expect((await me(graced.plaintext)).status).toBe(200);
    await keys.revoke(graced.apiKey.id);
    expect((await me(graced.plaintext)).status).toBe(401);
  });

  it('deletes for good: the key disappears from the list and fails like an unknown key', async () => {
    const key = await newKey();
    await keys.delete(key.apiKey.id);
    expect(await keys.list(key.apiKey.applicationId)).toEqual([]);
    const res = await me(key.plaintext);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'invalid_api_key', message: 'The API key is invalid' });
    await expect(keys.delete(key.apiKey.id)).rejects.toMatchObject({ status: 404 });
  });

  it('keeps lastUsedAt with at most one write per key per minute', async () => {
    const key = await newKey();
    const stored = async () =>
      (
        await t.dataSource.query('SELECT last_used_at FROM api_keys WHERE id = $1', [key.apiKey.id])
      )[0].last_used_at as Date | null;
    expect(await stored()).toBeNull();

    const first = await me(key.plaintext);
    expect(first.body.apiKey.lastUsedAt).toBe('2026-05-01T00:00:00.000Z');

    t.clock.advance(30_000);
    const second = await me(key.plaintext);
    expect(second.body.apiKey.lastUsedAt).toBe('2026-05-01T00:00:00.000Z');
    expect((await stored())?.toISOString()).toBe('2026-05-01T00:00:00.000Z');

    t.clock.advance(30_000);
    const third = await me(key.plaintext);
    expect(third.body.apiKey.lastUsedAt).toBe('2026-05-01T00:01:00.000Z');
    expect((await stored())?.toISOString()).toBe('2026-05-01T00:01:00.000Z');
  });

  it('does not record use for rejected keys', async () => {
    const key = await newKey();
    await keys.revoke(key.apiKey.id);
    await me(key.plaintext);
    const rows = await t.dataSource.query('SELECT last_used_at FROM api_keys WHERE id = $1', [
      key.apiKey.id,
    ]);
    expect(rows[0].last_used_at).toBeNull();
  });

  // docs/contract/api-keys.md#authentication: a deactivated key is 401 invalid_api_key (docs/api-keys.md).
  it('rejects the keys of a disabled application like any unusable key, and accepts them once it is re-enabled', async () => {
    const { application } = await createApplication(t.app);
    const { plaintext, apiKey } = await createApiKey(t.app, application.id, ['user:read']);
    const setEnabled = (enabled: boolean) =>
      t.dataSource.query('UPDATE applications SET enabled = $1 WHERE id = $2', [
        enabled,
        application.id,
      ]);
    const call = (path: string) => t.http().get(path).set('Authorization', `Bearer ${plaintext}`);

    await setEnabled(false);
    for (const path of ['/api/v1/app/me', '/api/v1/app/users']) {
      const res = await call(path);
      expect({ path, status: res.status, body: res.body }).toEqual({
        path,
        status: 401,
        body: { error: 'invalid_api_key', message: 'The API key is invalid' },
      });
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    }
    const rows = await t.dataSource.query('SELECT last_used_at FROM api_keys WHERE id = $1', [
      apiKey.id,
    ]);
    expect(rows[0].last_used_at).toBeNull();

    await setEnabled(true);
    for (const path of ['/api/v1/app/me', '/api/v1/app/users']) {
      expect({ path, status: (await call(path)).status }).toEqual({ path, status: 200 });
    }
  });
});
