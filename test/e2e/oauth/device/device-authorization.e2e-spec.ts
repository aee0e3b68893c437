import { createHash } from 'node:crypto';
import { basic, browser, expectStatus } from '../../../support/oauth';
import { createTestApp, type TestApp } from '../../../support/test-app';
import { AppConfig } from '../../../../src/config/app-config';
import { userCodeHash, userCodeKey } from '../../../../src/modules/oauth/device/user-code';
import { createApplication, runInApp } from '../../../factories';
import {
  deviceAuthorization,
  deviceSetup,
  personAnswers,
  poll,
  startDevice,
} from '../../../support/device';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

// POST /oauth2/device_authorization (RFC 8628 section 3.1; docs/oauth.md, "Device authorization
// grant"; docs/security.md, "Device authorization grant").
describe('device authorization endpoint', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  it('answers a device code, a user code of 8 consonants, the verification URIs, 600 s and 5 s, never cached', async () => {
    const { application } = await deviceSetup(t.app);
    const res = await deviceAuthorization(t.app, application.clientId, { scope: 'openid email' });
    expectStatus(res, 200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      device_code: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      user_code: expect.stringMatching(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/),
      verification_uri: 'http://127.0.0.1:3000/device',
      verification_uri_complete: `http://127.0.0.1:3000/device?user_code=${res.body.user_code}`,
      expires_in: 600,
      interval: 5,
    });
    const [row] = await t.dataSource.query(
      'SELECT scope, status, interval_seconds, issuer_path FROM oauth_device_codes',
    );
    expect(row).toEqual({
      scope: 'openid email',
      status: 'pending',
      interval_seconds: 5,
      issuer_path: null,
    });
    // Without a scope: the default, read (as at /authorize).
    const plain = await deviceAuthorization(t.app, application.clientId);
    expectStatus(plain, 200);
    const scopes = await t.dataSource.query('SELECT scope FROM oauth_device_codes ORDER BY id');
    expect(scopes.map((r: { scope: string }) => r.scope)).toEqual(['openid email', 'read']);
  });

  it('answers under the alias issuer too, whose id_tokens then name it', async () => {
    const { application } = await deviceSetup(t.app);
    const res = await deviceAuthorization(
      t.app,
      application.clientId,
      { scope: 'read' },
      undefined,
      '/api/oidc/device_authorization',
    );
    expectStatus(res, 200);
    const [row] = await t.dataSource.query('SELECT issuer_path FROM oauth_device_codes');
    expect(row.issuer_path).toBe('/api/oidc');
  });

  it('refuses a client not registered for the grant with unauthorized_client at both endpoints', async () => {
    const { application } = await deviceSetup(t.app, { deviceCodeGrant: false });
    const res = await deviceAuthorization(t.app, application.clientId, { scope: 'read' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('unauthorized_client');
    expect(await t.dataSource.query('SELECT id FROM oauth_device_codes')).toEqual([]);

    // A code issued while it was registered is not redeemed once the grant is switched off.
    await runInApp(t.app, ['app', 'update', String(application.id), '--device-code-grant', 'on']);
    const started = await startDevice(t.app, application.clientId, 'read');
    await personAnswers(browser(t.app), started.user_code);
    await runInApp(t.app, ['app', 'update', String(application.id), '--device-code-grant', 'off']);
    const polled = await poll(t.app, application.clientId, started.device_code);
    expect(polled.status).toBe(400);
    expect(polled.body.error).toBe('unauthorized_client');
    expect(polled.body.access_token).toBeUndefined();
  });

  it('lets no FAPI 2.0 client enable the grant', async () => {
    const { application } = await deviceSetup(t.app, { authMethod: 'secret' });
    const cli = await runInApp(t.app, [
      'app',
      'update',
      String(application.id),
      '--profile',
      'fapi2',
    ]);
    expect(cli.exitCode).not.toBe(0);
    expect(cli.stderr).toContain('the fapi2 profile allows no device authorization grant');
  });

  it('authenticates a confidential client as the token endpoint does: a wrong secret is invalid_client', async () => {
    const { application, clientSecret } = await deviceSetup(t.app, { authMethod: 'secret' });
    const wrong = await deviceAuthorization(t.app, application.clientId, { scope: 'read' }, 'nope');
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('invalid_client');
    // Without any credentials (client_id alone) a secret client is not authenticated either.
    const bare = await deviceAuthorization(t.app, application.clientId, { scope: 'read' });
    expect(bare.status).toBe(401);
    expect(bare.body.error).toBe('invalid_client');
    // client_secret_post and client_secret_basic both work.
    const post = await deviceAuthorization(t.app, application.clientId, {
      scope: 'read',
      client_secret: clientSecret!,
    });
    expectStatus(post, 200);
    const viaBasic = await t
      .http()
      .post('/oauth2/device_authorization')
      .type('form')
      .set('Authorization', basic(application.clientId, clientSecret!))
      .send({ scope: 'read' });
    expectStatus(viaBasic, 200);
    expect(await t.dataSource.query('SELECT id FROM oauth_device_codes')).toHaveLength(2);
  });

  it('refuses an unknown scope with invalid_scope', async () => {
    const { application } = await deviceSetup(t.app);
    const res = await deviceAuthorization(t.app, application.clientId, { scope: 'read write' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_scope');
    expect(await t.dataSource.query('SELECT id FROM oauth_device_codes')).toEqual([]);
  });

  it('keeps at most DEVICE_MAX_PENDING_PER_CLIENT codes of one client waiting, then 429', async () => {
    const capped = await createTestApp({ env: { DEVICE_MAX_PENDING_PER_CLIENT: '2' } });
    try {
      const { application } = await deviceSetup(capped.app);
      const { application: other } = await createApplication(capped.app, {
        authMethod: 'none',
        name: 'Other TV',
        deviceCodeGrant: true,
      });
      for (let i = 0; i < 2; i += 1) {
        expectStatus(await deviceAuthorization(capped.app, application.clientId), 200);
      }
      const refused = await deviceAuthorization(capped.app, application.clientId);
      expect(refused.status).toBe(429);
      expect(refused.body.error).toBe('invalid_request');
      // Another client is not concerned; an answered code no longer counts, nor an expired one.
      expectStatus(await deviceAuthorization(capped.app, other.clientId), 200);
      const [first] = await capped.dataSource.query<{ id: string }[]>(
        'SELECT id FROM oauth_device_codes WHERE application_id = $1 ORDER BY id LIMIT 1',
        [application.id],
      );
      await capped.dataSource.query(
        "UPDATE oauth_device_codes SET status = 'denied' WHERE id = $1",
        [first.id],
      );
      expectStatus(await deviceAuthorization(capped.app, application.clientId), 200);
      capped.clock.advance(600 * 1000);
      expectStatus(await deviceAuthorization(capped.app, application.clientId), 200);
    } finally {
      await capped.close();
    }
  });

  it('stores the device code and the user code only as hashes', async () => {
    const { application } = await deviceSetup(t.app);
    const started = await startDevice(t.app, application.clientId, 'read');
    const rows = await t.dataSource.query('SELECT * FROM oauth_device_codes');
    expect(rows).toHaveLength(1);
    const normalised = started.user_code.replace('-', '');
    expect(rows[0].device_code_hash).toBe(sha256(started.device_code));
    // The user code under the service's key: a plain SHA-256 of one of 20^8 codes would be
    // found again by trying them all.
    const key = userCodeKey(t.app.get(AppConfig).sessionSecret);
    expect(rows[0].user_code_hash).toBe(userCodeHash(normalised, key));
    expect(rows[0].user_code_hash).not.toBe(sha256(normalised));
    const stored = JSON.stringify(rows);
    for (const secret of [started.device_code, started.user_code, normalised]) {
      expect(stored).not.toContain(secret);
    }
  });
});
