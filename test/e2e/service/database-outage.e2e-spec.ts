import { API_SCOPES } from '../../../src/modules/keys/scopes';
import { createApiKey, createApplication } from '../../factories';
import { authorizePath, REDIRECT_URI } from '../../support/oauth';
import { proxiedDatabase, ProxiedDatabase } from '../../support/proxied-database';
import { createTestApp, TestApp } from '../../support/test-app';

describe('database outage: 503 while PostgreSQL is unreachable, recovery without a restart', () => {
  let db: ProxiedDatabase;
  let t: TestApp;
  let key: string;
  let clientId: string;
  let clientSecret: string;

  beforeAll(async () => {
    db = await proxiedDatabase();
    t = await createTestApp({ env: db.env });
    await t.truncate();
    const created = await createApplication(t.app, { redirectUris: [REDIRECT_URI] });
    clientId = created.application.clientId;
    clientSecret = created.clientSecret ?? '';
    key = (await createApiKey(t.app, created.application.id, [...API_SCOPES])).plaintext;
  });
  afterAll(async () => {
    await db.proxy.restore();
    await t.close();
    await db.stop();
  });
  afterEach(() => db.proxy.restore());

  const me = () => t.http().get('/api/v1/app/me').set('Authorization', `Bearer ${key}`);
  const token = () =>
    t
      .http()
      .post('/api/oauth2/token')
      .auth(clientId, clientSecret)
      .type('form')
      .send({ grant_type: 'refresh_token', refresh_token: 'not-a-real-token' });
  const userinfo = () =>
    t.http().get('/api/oauth2/userinfo').set('Authorization', 'Bearer not-a-real-token');
  const authorize = () =>
    t.http().get(
      authorizePath({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: REDIRECT_URI,
        scope: 'openid',
        state: 's',
      }),
    );

  it('answers the application API with 503 database_unavailable and Retry-After', async () => {
    await db.proxy.cut();
    const res = await me();
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ error: 'database_unavailable', message: expect.any(String) });
    expect(res.headers['retry-after']).toBe('5');
    await db.proxy.restore();
    expect((await me()).status).toBe(200);
  });

  it('answers the token and userinfo endpoints with 503 temporarily_unavailable', async () => {
    await db.proxy.cut();
    for (const res of [await token(), await userinfo()]) {
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        error: 'temporarily_unavailable',
        error_description: expect.any(String),
      });
      expect(res.headers['retry-after']).toBe('5');
    }
    await db.proxy.restore();
    expect((await token()).body.error).toBe('invalid_grant');
    expect((await userinfo()).status).toBe(401);
  });

  it('answers the browser pages with a 503 page', async () => {
    await db.proxy.cut();
    const res = await authorize();
    expect(res.status).toBe(503);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    await db.proxy.restore();
    expect((await authorize()).status).toBeLessThan(500);
  });

  it('reports the database down on /health/ready, and up again after', async () => {
    await db.proxy.cut();
    const down = await t.http().get('/health/ready');
    expect(down.status).toBe(503);
    expect(down.body.status).toBe('error');
    expect(down.body.error.database.status).toBe('down');
    expect((await t.http().get('/health/live')).status).toBe(200);
    await db.proxy.restore();
    const up = await t.http().get('/health/ready');
    expect(up.status).toBe(200);
    expect(up.body.details.database).toEqual({ status: 'up' });
  });

  it('recovers connections cut in the middle of use', async () => {
    expect((await me()).status).toBe(200);
    await db.proxy.cut();
    await db.proxy.restore();
    // The pool's idle connections died with the cut; the next request must not see them.
    expect((await me()).status).toBe(200);
  });
});
