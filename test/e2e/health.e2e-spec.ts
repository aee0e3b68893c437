import { createTestApp, TestApp } from '../utils/test-app';

describe('operations endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('GET /health/live answers without a key', async () => {
    const res = await t.http().get('/health/live');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('GET /health/ready pings the database', async () => {
    const res = await t.http().get('/health/ready');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
    expect(res.body.details.database).toEqual({ status: 'up' });
  });

  it('returns a request id, honouring a well-formed one from the proxy', async () => {
    const given = await t.http().get('/health/live').set('X-Request-Id', 'lb-1234');
    expect(given.headers['x-request-id']).toBe('lb-1234');
    const made = await t.http().get('/health/live').set('X-Request-Id', 'bad id with spaces');
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends security headers and no X-Powered-By', async () => {
    const res = await t.http().get('/health/live');
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('describes the application API at /api/docs-json', async () => {
    const res = await t.http().get('/api/docs-json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining(['/api/v1/app/me', '/api/v1/app/groups']),
    );
  });
});
