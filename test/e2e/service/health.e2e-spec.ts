import { GROUP_CODES } from '../../../src/modules/users/groups';
import { createTestApp, TestApp } from '../../support/test-app';

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

  // The response classes are the one definition of each shape; the document
  // must list exactly the contract's fields (docs/contract/) and point each route's 200 at that class.
  it('documents the contract shapes as the routes answer them', async () => {
    const doc = (await t.http().get('/api/docs-json').expect(200)).body as OpenApiDoc;
    const fields = (name: string): string[] =>
      Object.keys(doc.components.schemas[name].properties).sort();
    const okSchema = (path: string, method: string): unknown =>
      doc.paths[path][method].responses['200'].content['application/json'].schema;

    expect(fields('UserView')).toEqual(
      [
        'userId',
        'username',
        'email',
        'nickname',
        'avatar',
        'emailVerified',
        'group',
        'enabled',
        'authCount',
        'firstAuthAt',
        'lastAuthAt',
        'lastLoginAt',
        'createdAt',
      ].sort(),
    );
    expect(fields('EventView')).toEqual(
      [
        'id',
        'eventType',
        'protocol',
        'status',
        'userId',
        'scope',
        'description',
        'createdAt',
      ].sort(),
    );
    expect(fields('StatsView')).toEqual(
      ['totalUsers', 'totalAuths', 'activeUsers30d', 'newUsers30d', 'dailyAuthCounts'].sort(),
    );
    expect(fields('DailyAuthCount')).toEqual(['count', 'date']);
    expect(doc.components.schemas.UserView.properties.group.enum).toEqual([...GROUP_CODES]);
    expect(doc.components.schemas.UserPatch.properties.group.enum).toEqual([...GROUP_CODES]);

    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    expect(okSchema('/api/v1/app/users', 'get')).toEqual(ref('UserPage'));
    expect(okSchema('/api/v1/app/users/{userId}', 'get')).toEqual(ref('UserView'));
    expect(okSchema('/api/v1/app/users/{userId}', 'patch')).toEqual(ref('UserView'));
    expect(okSchema('/api/v1/app/users/{userId}/revoke', 'post')).toEqual(ref('RevocationResult'));
    expect(okSchema('/api/v1/app/events', 'get')).toEqual(ref('EventPage'));
    expect(okSchema('/api/v1/app/stats', 'get')).toEqual(ref('StatsView'));
  });
});

interface OpenApiDoc {
  paths: Record<string, Record<string, { responses: Record<string, OpenApiResponse> }>>;
  components: { schemas: Record<string, { properties: Record<string, { enum?: unknown[] }> }> };
}

interface OpenApiResponse {
  content: Record<string, { schema: unknown }>;
}
