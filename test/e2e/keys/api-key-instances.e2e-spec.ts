import { ApiKeysService } from '../../../src/modules/keys/api-keys.service';
import { LimiterStore } from '../../../src/modules/rate-limit/limiter-store';
import { createApiKey, createApplication } from '../../factories';
import { FixedClock } from '../../support/fixed-clock';
import { createTestApp, TestApp } from '../../support/test-app';
import { usingRealServices } from '../../support/test-env';

const HOUR = 3600_000;
const INVALID = { error: 'invalid_api_key', message: 'The API key is invalid' };

/**
 * docs/contract/api-keys.md#key-states: revocation, rotation (once the grace period is over) and deletion take
 * effect on the very next request on EVERY instance of the service, not only on the one that made
 * the change (no per-instance cache of key validity). Each key is first used on the
 * other instance, so anything that instance might remember about it is warm. The same holds for
 * what the request is charged: a changed limit applies at once, and the 401s of a key revoked in
 * use count against the client address only, never its application's bucket (docs/rate-limit.md).
 */
describe('API key changes seen by every instance', () => {
  const clock = new FixedClock();
  let one: TestApp;
  // A second instance on the same database exists only with DATABASE_URL (CI): the embedded
  // database belongs to one process, so there both roles are played by the one instance.
  let other: TestApp;
  let keys: ApiKeysService;

  beforeAll(async () => {
    one = await createTestApp({ clock });
    other = usingRealServices() ? await createTestApp({ clock }) : one;
    keys = one.app.get(ApiKeysService);
  });
  afterAll(async () => {
    if (other !== one) await other?.close();
    await one?.close();
  });
  beforeEach(async () => {
    await one.truncate();
    // truncate() restarts application ids and empties the first instance's buckets; the other's too.
    if (other !== one) await other.app.get(LimiterStore).clear();
    clock.set(new Date('2026-05-01T00:00:00.000Z'));
  });

  const me = (on: TestApp, key: string) =>
    on.http().get('/api/v1/app/me').set('Authorization', `Bearer ${key}`);

  /** A key made on the first instance and already used on the other one. */
  async function keyInUse() {
    const { application } = await createApplication(one.app);
    const issued = await createApiKey(one.app, application.id, ['user:read']);
    for (let i = 0; i < 3; i += 1) expect((await me(other, issued.plaintext)).status).toBe(200);
    return issued;
  }

  async function expectInvalid(key: string): Promise<void> {
    const res = await me(other, key);
    expect({ status: res.status, body: res.body as unknown }).toEqual({
      status: 401,
      body: INVALID,
    });
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
  }

  it('rejects a key revoked on one instance on the next request to the other', async () => {
    const { plaintext, apiKey } = await keyInUse();
    await keys.revoke(apiKey.id);
    await expectInvalid(plaintext);
  });

  it('rejects a key deleted on one instance on the next request to the other', async () => {
    const { plaintext, apiKey } = await keyInUse();
    await keys.delete(apiKey.id);
    await expectInvalid(plaintext);
  });

  it('keeps a rotated key working on the other instance for the grace period, then rejects it', async () => {
    const { plaintext, apiKey } = await keyInUse();
    const rotated = await keys.rotate(apiKey.id);
    expect((await me(other, rotated.plaintext)).status).toBe(200);

    clock.advance(24 * HOUR - 1000);
    expect((await me(other, plaintext)).status).toBe(200);
    clock.advance(1000);
    await expectInvalid(plaintext);
    expect((await me(other, rotated.plaintext)).status).toBe(200);
  });

  const remaining = async (key: string): Promise<number> =>
    Number((await me(other, key)).headers['x-ratelimit-remaining']);

  it("does not count the requests of a key revoked in use against its application's bucket", async () => {
    const { plaintext, apiKey } = await keyInUse();
    const sibling = await createApiKey(one.app, apiKey.applicationId);
    const before = await remaining(sibling.plaintext);
    await keys.revoke(apiKey.id);
    await expectInvalid(plaintext);
    await expectInvalid(plaintext);
    // Only authenticated requests count (docs/rate-limit.md): the sibling's own request only.
    expect(await remaining(sibling.plaintext)).toBe(before - 1);
  });

  it('applies a limit changed on one instance on the next request to the other', async () => {
    const { plaintext } = await keyInUse();
    await one.dataSource.query('UPDATE applications SET rate_limit_per_minute = 4');
    const res = await me(other, plaintext);
    // The key's three earlier requests and this one: the limit of 4 is used up, not exceeded.
    expect({
      status: res.status,
      limit: res.headers['x-ratelimit-limit'],
      remaining: res.headers['x-ratelimit-remaining'],
    }).toEqual({ status: 200, limit: '4', remaining: '0' });
    expect((await me(other, plaintext)).status).toBe(429);
  });

  it('rejects the keys of an application as soon as it is disabled, on the other instance too', async () => {
    const { plaintext } = await keyInUse();
    await one.dataSource.query('UPDATE applications SET enabled = false');
    await expectInvalid(plaintext);
  });
});
